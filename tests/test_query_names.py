"""Which query words name code: a class named after an English word (`When`, `Update`, `Request`) is named only when
the question writes it as a name, never by the word that opens a question, by a keyword in capitals, by a phrase of
question words ("is a" for `is_a`) or by a lower-case word for a capitalised class ("palette"); code written
as code (`snake_case`, `CamelCase`, `dotted.name`, backticks, a call) always names; a dotted name means the entity it
matches as people write names, not every method of that last name; and a name from one project does not make the
walk sure when the question's other words all point to another project."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.projects import indexed_projects
from trident.retrieval.paths import query_entities
from trident.retrieval.query_names import code_form, code_tokens, written_as_name
from trident.retrieval.seeds import WalkSeeds
from trident.store.catalog import Catalog
from trident.store.names.directory import EntityDirectory
from trident.store.schema import Entity

PROJECTS: dict[str, dict[str, str]] = {
    "sched": {
        "sched/__init__.py": "",
        "sched/rules.py": (
            "class When:\n"
            "    '''A point in time a job runs at.'''\n\n"
            "    def update(self, moment):\n"
            "        self.moment = moment\n\n\n"
            "class Request:\n"
            "    def send(self):\n"
            "        return When()\n\n\n"
            "def is_a(thing, kind):\n"
            "    return isinstance(thing, kind)\n\n\n"
            "class Palette:\n"
            "    def nearest(self, colour):\n"
            "        return colour\n"
        ),
    },
    "store": {
        "store/__init__.py": "",
        "store/cache.py": (
            "class Cache:\n"
            "    def clear_expired(self, now):\n"
            "        '''Drop the entries whose time to live has passed.'''\n"
            "        self.entries = {k: v for k, v in self.entries.items() if v.expires > now}\n\n"
            "    def update(self, key, value):\n"
            "        self.entries[key] = value\n\n"
            "    def send(self):\n"
            "        return None\n"
        ),
    },
}
WHEN = "class:sched:sched.rules.When"
REQUEST = "class:sched:sched.rules.Request"


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    catalog = indexed_projects(tmp_path_factory.mktemp("query-names"), PROJECTS, ["sched", "store"])
    yield catalog
    catalog.close()


@pytest.fixture(scope="module")
def directory(catalog: Catalog) -> EntityDirectory:
    return EntityDirectory(catalog.entities())


def _named(directory: EntityDirectory, query: str) -> list[str]:
    return [e.id for e in query_entities(directory, query)]


@pytest.mark.parametrize(
    "query",
    [
        "When is an expired cache entry dropped?",  # the word that opens a question
        "Cache entries: when are they cleared? When the time to live has passed?",
        "How do I SELECT and UPDATE rows?",  # keywords in capitals
        "Where does the cache handle a GET Request header?",  # ... but `Request` mid-sentence is a name
    ],
)
def test_words_that_open_a_question_or_are_keywords_in_capitals_name_no_code(
    directory: EntityDirectory, query: str
) -> None:
    named = _named(directory, query)
    assert WHEN not in named
    assert not any(i.endswith(".update") for i in named)
    assert (REQUEST in named) == ("Request header" in query)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("what calls When.update?", {"method:sched:sched.rules.When.update"}),  # dotted: the one it matches
        ("what does Cache.send return", {"method:store:store.cache.Cache.send"}),
        ("who calls clear_expired", {"method:store:store.cache.Cache.clear_expired"}),  # snake_case
        ("is `When` ever built twice", {WHEN}),  # in backticks
        ("how is a Request built", {REQUEST}),  # a capitalised word inside a sentence
        ("how is a When built", set()),  # ... unless it is a question word: `When` in backticks names it
        ("where is a colour matched to the nearest palette entry", set()),  # "is a" is no `is_a`; "palette" the idea
        ("which Palette finds the nearest colour", {"class:sched:sched.rules.Palette"}),
        ("who calls is_a", {"function:sched:sched.rules.is_a"}),
    ],
)
def test_code_written_as_code_or_a_name_inside_a_sentence_names_it(
    directory: EntityDirectory, query: str, expected: set[str]
) -> None:
    assert set(_named(directory, query)) == expected


def test_the_code_form_of_a_word() -> None:
    assert [code_form(w) for w in ("parse_args", "HTTPAdapter", "Client.send", "UPDATE", "MAX_SIZE", "Table")] == [
        True,
        True,
        True,
        False,
        True,
        False,
    ]
    assert list(code_tokens("call `update` or render() on the Table")) == ["update", "render"]
    entity = Entity(id="class:p:m.When", name="When", type="Class", project="p", qualified_name="m.When")
    text = "Sources: When it rains"
    assert not written_as_name(text, text.index("When"), text.index("When") + 4, entity)


def test_a_name_from_one_project_does_not_make_the_walk_sure_when_the_heads_are_all_in_another(
    directory: EntityDirectory,
) -> None:
    when = directory.by_id[WHEN]
    assert WalkSeeds(named=[when]).confident  # heads not read: the name alone
    assert WalkSeeds(named=[when], head_projects=frozenset({"sched", "store"})).confident
    assert not WalkSeeds(named=[when], head_projects=frozenset({"store"})).confident


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("what does Request.sned return", {REQUEST, "method:sched:sched.rules.Request.send"}),  # a typo
        ("who calls clearExpired", {"method:store:store.cache.Cache.clear_expired"}),  # other case and underscores
        ("who calls clear_expierd", {"method:store:store.cache.Cache.clear_expired"}),
    ],
)
def test_a_misspelt_code_name_means_the_code_it_is_spelt_like(
    directory: EntityDirectory, query: str, expected: set[str]
) -> None:
    assert set(_named(directory, query)) == expected


def test_names_spelt_like_a_written_one_are_close_and_share_its_first_letter(directory: EntityDirectory) -> None:
    assert directory.spelt_like("ClearExpired") == ["clear_expired"]
    assert directory.spelt_like("sned") == ["send"]
    assert directory.spelt_like("Update") == ["update"]  # the same letters
    assert directory.spelt_like("pdate") == []  # a first letter lost: not looked for
    assert directory.spelt_like("zzzz") == []
