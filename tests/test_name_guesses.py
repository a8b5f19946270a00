"""Guesses where the code states no class, kept as `name` (shown apart, walked by `impact`'s tests): a read of the
project's one property of a name on an untyped value runs its getter (pyasn1's `tagMap.presentTypes`, `tagMap` read
off an untyped attribute chain), and a call by a method name that only one class and its overrides define reaches
that class's method and each override (pyasn1's `concreteDecoder.valueDecoder(...)` on a decoder a table gives).
Indexed with the real engines; `impact` walks back through them to the test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.projects import indexed_projects, project_calls
from trident.retrieval.reader import Reader
from trident.store.catalog import Catalog
from trident.tools.impact import impact

CODEC = {
    "codec/__init__.py": "",
    "codec/tagmap.py": (
        "class TagMap:\n"
        "    def __init__(self, present):\n"
        "        self.__present = present\n\n"
        "    @property\n"
        "    def presentTypes(self):\n"
        "        return self.__present\n\n"
        "    def plain(self):\n"
        "        return 1\n"
    ),
    "codec/shapes.py": (
        "class Square:\n"
        "    @property\n"
        "    def area(self):\n"
        "        return 1\n\n\n"
        "class Circle:\n"
        "    @property\n"
        "    def area(self):\n"
        "        return 2\n"
    ),
    "codec/named.py": (
        "def positions(items):\n"
        "    for item in items:\n"
        "        tag_map = item.asn1Object.tagMap\n"
        "        for tag in tag_map.presentTypes:\n"
        "            print(tag)\n"
        "        print(tag_map.plain)\n\n\n"
        "def areas(shapes):\n"
        "    return [s.area for s in shapes]\n"
    ),
    "codec/holder.py": (
        "class Holder:\n"
        "    def __init__(self):\n"
        "        self.presentTypes = {}\n\n\n"
        "def counted(holders):\n"
        "    for holder in holders:\n"
        "        found = holder\n"
        "        print(found.presentTypes)\n"
    ),
    "codec/decoder.py": (
        "class AbstractDecoder:\n"
        "    def valueDecoder(self, substrate):\n"
        "        raise NotImplementedError\n\n"
        "    def close(self):\n"
        "        pass\n\n\n"
        "class IntegerDecoder(AbstractDecoder):\n"
        "    def valueDecoder(self, substrate):\n"
        "        return int(substrate)\n\n\n"
        "class NullDecoder(AbstractDecoder):\n"
        "    def valueDecoder(self, substrate):\n"
        "        return None\n\n\n"
        "class Stream:\n"
        "    def close(self):\n"
        "        pass\n\n\n"
        "TAG_MAP = {1: IntegerDecoder(), 5: NullDecoder()}\n\n\n"
        "def decode(tag, substrate, tag_map=None):\n"
        "    concrete = (tag_map or TAG_MAP)[tag]\n"
        "    concrete.close()\n"
        "    return concrete.valueDecoder(substrate)\n\n\n"
        "def chained(context, substrate):\n"
        "    return context.codec.decoder.valueDecoder(substrate)\n"
    ),
    "tests/__init__.py": "",
    "tests/test_decoder.py": (
        "from codec.decoder import decode\n\n\ndef test_null():\n    assert decode(5, b'') is None\n"
    ),
}


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    cat = indexed_projects(tmp_path_factory.mktemp("guesses"), {"codec": CODEC}, ("codec",))
    yield cat
    cat.close()


@pytest.fixture(scope="module")
def calls(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], str]:
    return project_calls(tmp_path_factory.mktemp("guessed"), "codec", CODEC)


def test_a_read_on_an_untyped_value_runs_the_projects_one_property_of_that_name(
    calls: dict[tuple[str, str], str],
) -> None:
    assert calls.get(("codec.named.positions", "codec.tagmap.TagMap.presentTypes")) == "name"
    assert ("codec.named.positions", "codec.tagmap.TagMap.plain") not in calls  # a method read calls nothing
    assert not {c for s, c in calls if s == "codec.named.areas"}  # two classes' properties: no guess
    # a file giving an object a plain attribute of that name reads that as likely
    assert ("codec.holder.counted", "codec.tagmap.TagMap.presentTypes") not in calls


def test_a_call_by_a_name_one_class_and_its_overrides_define_reaches_that_classs_method(
    calls: dict[tuple[str, str], str],
) -> None:
    assert calls.get(("codec.decoder.decode", "codec.decoder.AbstractDecoder.valueDecoder")) == "name"
    # the same on an attribute chain off an untyped parameter, whose classes nothing states
    assert calls.get(("codec.decoder.chained", "codec.decoder.AbstractDecoder.valueDecoder")) == "name"
    # `close` is defined by two unrelated classes: no guess at either
    assert not {c for s, c in calls if s == "codec.decoder.decode" and c.endswith(".close")}


def test_impact_reaches_the_test_through_a_guess_at_the_overridden_method(catalog: Catalog) -> None:
    answer = impact(Reader.open(catalog), entities=["NullDecoder.valueDecoder"])
    assert [(t.name, t.resolution.value) for t in answer.tests] == [("test_null", "name")]
    assert answer.verdict.status == "lower_bound"
