"""Every entity of an index by name, alias, qualified name and path: resolving references and finding mentions."""

from __future__ import annotations

import functools
import posixpath
import threading
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

import ahocorasick

from trident.host.gc_pause import paused_gc
from trident.store.names.id_ordered import drop, insert
from trident.store.names.identifiers import split_identifier, title_core
from trident.store.names.import_names import ImportNames
from trident.store.names.mention_forms import (
    CORE_TYPES,
    MIN_MENTION_LENGTH,
    Form,
    core_forms,
    core_of_a_name,
    name_forms,
)
from trident.store.names.spellings import Spellings
from trident.store.schema import Entity, EntityType, Resolution

T = TypeVar("T")

MAX_TARGETS = 3
PROJECT_LOCAL_RELATIONS = frozenset({"CALLS", "INHERITS", "REFERENCES"})
SPAN_LOOKUP_MAX_CHARS = 1_000  # texts up to this long find mentions by looking spans up, longer ones by automaton
# A directory (or code index) is patched with up to this many changed entities, or this share of its own, when more.
PATCH_MIN_CHANGES = 1_000
PATCH_MAX_SHARE = 0.05


_Span = tuple[int, int, str, Resolution]  # (start, end, entity id, how) of one mention in a text


def _sentence_case(name: str) -> bool:
    """Whether a name of several words reads as a phrase of prose: only its first word capitalised ("Place of
    birth", not "Billing Guide", "Lothair II" or "Kiss and Tell"), a parenthesised qualifier aside."""
    words = name.split(" (", 1)[0].split()
    return len(words) > 1 and words[0][:1].isupper() and all(word.islower() for word in words[1:])


def _outermost(matched: list[_Span]) -> list[_Span]:
    """The matches whose span no other match's span strictly contains (one pass over the spans by start, longest
    first: a span is inside another when an earlier one reaches as far)."""
    inside: set[tuple[int, int]] = set()
    reach = -1
    for start, end in sorted({(m[0], m[1]) for m in matched}, key=lambda span: (span[0], -span[1])):
        if end <= reach:
            inside.add((start, end))
        reach = max(reach, end)
    return [m for m in matched if (m[0], m[1]) not in inside]


@functools.cache  # asked again for every entity of a file, every build
def _strip_ext(path: str) -> str:
    root, _ = posixpath.splitext(path)
    return root


def entity_changes(held: dict[str, Entity], entities: Sequence[Entity]) -> tuple[set[str], list[Entity]]:
    """What turns the entities `held` (by id) into `entities` (the first of an id): the ids to remove (gone or
    changed) and the entities to add (new or changed). The records an index reads stay the same objects from one
    generation to the next where they did not change (store/engines/graph_memory.py), so most compare by identity."""
    now: dict[str, Entity] = {}
    for entity in entities:
        now.setdefault(entity.id, entity)
    stale = {i for i, entity in held.items() if not _same(now.get(i), entity)}
    return stale, [entity for i, entity in now.items() if not _same(held.get(i), entity)]


def worth_patching(changes: int, size: int) -> bool:
    """Whether patching an index of `size` records with `changes` is quicker than building it afresh: past a share
    of it (a large run by another writer), building afresh is as quick."""
    return changes <= max(PATCH_MIN_CHANGES, PATCH_MAX_SHARE * size)


def _same(one: Entity | None, other: Entity) -> bool:
    return one is other or one == other


class EntityDirectory:
    """Every entity of the index by name, alias, qualified name and path."""

    @paused_gc()  # a few hundred thousand acyclic objects: collections meanwhile doubled the build (see gc_pause)
    def __init__(self, entities: Iterable[Entity]) -> None:
        first: dict[str, Entity] = {}
        for entity in entities:
            first.setdefault(entity.id, entity)
        self.by_id: dict[str, Entity] = dict(sorted(first.items()))  # in id order, as every list below
        self._by_name: dict[str, list[Entity]] = defaultdict(list)
        self._by_folded: dict[str, list[Entity]] = defaultdict(list)
        self._by_path: dict[tuple[str, str], list[Entity]] = defaultdict(list)
        self._words: dict[str, list[str]] = {}  # each name's split words, kept for the mention forms
        for entity in self.by_id.values():
            for table, key in self._places(entity):
                table[key].append(entity)
        self.modules = [entity for entity in self.by_id.values() if entity.type == EntityType.MODULE]  # in id order
        self._automaton: ahocorasick.Automaton | None = None
        self._grouped: dict[str, tuple[Form, ...]] | None = None
        self._cores: list[tuple[str, str]] = []  # (entity id, core) of the forms, once they are made
        self._longest = 0
        self._sorted_names: list[str] | None = None  # for completion, made on first use
        self._spellings: Spellings | None = None  # made on first use, as the import names
        self._import_names: ImportNames | None = None
        self._forms_lock = threading.Lock()  # the paths of one search look mentions up from several threads
        self._derived: dict[str, Any] = {}  # what readers build from the directory once (`derived`)

    def derived(self, key: str, make: Callable[[EntityDirectory], T]) -> T:
        """What `make` builds from this directory, built once (per key) and kept as long as the directory is: views a
        reader derives from one generation's entities live with them, never in a module."""
        with self._forms_lock:
            if key not in self._derived:
                self._derived[key] = make(self)
            return self._derived[key]  # type: ignore[no-any-return]

    def _places(self, entity: Entity) -> Iterator[tuple[dict[Any, list[Entity]], Any]]:
        """(table, key) of each list an entity is in, by name, folded name and path (a key twice when two of its
        names fold alike)."""
        for name in {entity.name, *entity.aliases}:
            yield self._by_name, name
            words = self._words.get(name)
            if words is None:
                words = self._words[name] = split_identifier(name)
            yield self._by_folded, " ".join(words) or name.lower()
        if entity.path:
            yield self._by_path, (entity.project, entity.path)
            yield self._by_path, (entity.project, _strip_ext(entity.path))

    # ---- references -------------------------------------------------------------------------------------

    def resolve(
        self,
        target: str,
        *,
        target_types: Iterable[str] = (),
        source: str = "",
        project: str = "",
        doc_id: str = "",
        relation: str = "",
    ) -> list[Entity]:
        """The entities a name most plausibly means: same document, then same project, then any.

        A call or base class in code names a symbol its own project can see, written exactly: `.get()` in Python
        is not Go's `Get` in another repository, so those relations resolve by exact name inside the project.
        """
        in_code = relation in PROJECT_LOCAL_RELATIONS
        candidates = self._path_candidates(target, project) or self._module_candidates(target)
        if not candidates and set(target_types) == {EntityType.MODULE.value}:
            candidates = self._defining_modules(target)
        if not candidates:
            candidates = self._by_name.get(target, []) if in_code else self.named(target)
        if in_code:
            candidates = [e for e in candidates if e.project == project]
        types = set(target_types)
        if types:
            candidates = [e for e in candidates if e.type in types]
        candidates = [e for e in candidates if e.id != source]
        for tier in (
            [e for e in candidates if e.doc_id == doc_id],
            [e for e in candidates if e.project == project],
            candidates,
        ):
            if tier:
                return tier[:MAX_TARGETS]
        return []

    def names_starting(self, prefix: str) -> list[str]:
        """Every name (not alias) that starts with `prefix`, ignoring case, in order."""
        folded = prefix.casefold()
        return [name for name in self._names() if name.casefold().startswith(folded)]

    def _names(self) -> list[str]:
        """Every name (not alias), in order; made on first use."""
        if self._sorted_names is None:
            self._sorted_names = sorted({entity.name for entity in self.by_id.values()})
        return self._sorted_names

    def import_names(self) -> ImportNames:
        """The names code imports this directory's entities by (its Python packages read once, on first use)."""
        if self._import_names is None:
            self._import_names = ImportNames(self.modules)
        return self._import_names

    def spelt_like(self, name: str) -> list[str]:
        """Names (not aliases) written as `name` may mean when no entity has it (`Spellings.like`): `asTuple` ->
        `astuple`, `instanceof` -> `instance_of`, `sned` -> `send`."""
        if self._spellings is None:
            self._spellings = Spellings(self._names())
        return self._spellings.like(name)

    def named(self, name: str) -> list[Entity]:
        """Entities whose name or alias is `name`, else whose split-identifier form equals name's."""
        return self._by_name.get(name, []) or self._by_folded.get(" ".join(split_identifier(name)), [])

    def _path_candidates(self, target: str, project: str) -> list[Entity]:
        if "/" not in target and "." not in posixpath.basename(target):
            return []
        path = posixpath.normpath(target).lstrip("/")
        if path.startswith("../"):
            # A link out of the project root names a sibling project: ../auth/docs/x.md -> project "auth".
            parts = path.split("/")
            while parts and parts[0] == "..":
                parts.pop(0)
            if len(parts) < 2:
                return []
            project, path = parts[0], "/".join(parts[1:])
        found = self._by_path.get((project, path), []) or self._by_path.get((project, _strip_ext(path)), [])
        return [e for e in found if e.type in (EntityType.MODULE, EntityType.DOCUMENT)]

    def _module_candidates(self, target: str) -> list[Entity]:
        dotted = target.replace("/", ".").strip(".")
        if not dotted or " " in dotted:
            return []
        exact = [m for m in self.modules if m.qualified_name == dotted]
        if exact:
            return exact
        # A package import (Go, Python package, Java package) names the folder of several modules.
        return [
            m
            for m in self.modules
            if "." in m.qualified_name
            and (
                m.qualified_name.rsplit(".", 1)[0] == dotted
                or dotted.endswith("." + m.qualified_name.rsplit(".", 1)[0])
                or dotted.endswith("." + m.qualified_name)
            )
        ]

    def _defining_modules(self, target: str) -> list[Entity]:
        """The modules that define what an import names by its qualified name (Kotlin's `import com.acme.Shop` from a
        file named otherwise): an import of a definition imports its module."""
        defined = (e for e in self._by_name.get(target, []) if "." in target and e.type != EntityType.MODULE)
        paths = dict.fromkeys((e.project, e.path) for e in defined if e.path)
        return [m for key in paths for m in self._by_path.get(key, []) if m.type == EntityType.MODULE]

    # ---- mentions ---------------------------------------------------------------------------------------

    def _unique_cores(self) -> list[tuple[str, str]]:
        """(entity id, core) of each title core of two words or more that one title has (the entities of that one
        title: passages may share it) and no entity is named (CORE_TYPES), in id order."""
        taken = {name.lower() for entity in self.by_id.values() for name in (entity.name, *entity.aliases)}
        owners: dict[str, list[tuple[str, str, str]]] = defaultdict(list)  # folded core -> (entity id, core, title)
        for entity in self.by_id.values():
            core = title_core(entity.name) if entity.type in CORE_TYPES else entity.name
            new_form = core != entity.name and len(core) >= MIN_MENTION_LENGTH and core.lower() not in taken
            if new_form and core_of_a_name(core, entity.name[len(core) :]):
                owners[core.lower()].append((entity.id, core, entity.name.lower()))
        unique = [found for found in owners.values() if len({title for _, _, title in found}) == 1]
        return sorted((entity_id, core) for found in unique for entity_id, core, _ in found)

    def _get_forms(self) -> dict[str, tuple[Form, ...]]:
        """Every mentionable form by its case-folded text: the names' forms in entity id order, then the cores'."""
        with self._forms_lock, paused_gc():
            if self._grouped is None:
                grouped: dict[str, list[Form]] = defaultdict(list)
                for entity in self.by_id.values():
                    for form in name_forms(entity, self._words.__getitem__):
                        grouped[form.text.lower()].append(form)
                self._cores = self._unique_cores()
                for entity_id, core in self._cores:
                    for form in core_forms(entity_id, core):
                        grouped[form.text.lower()].append(form)
                self._longest = max((len(key) for key in grouped), default=0)
                self._grouped = {key: tuple(forms) for key, forms in grouped.items()}
                self._words = {}  # only the forms needed them
            return self._grouped

    # ---- patching ---------------------------------------------------------------------------------------

    def updated(self, entities: Sequence[Entity]) -> EntityDirectory:
        """A directory of `entities` (the first of an id): this one patched when few of them differ from its own
        (a reader's next generation after an edit), else built afresh."""
        stale, fresh = entity_changes(self.by_id, entities)
        if worth_patching(len(stale) + len(fresh), len(self.by_id)):
            return self.patched(stale, fresh)
        return EntityDirectory(entities)

    @paused_gc()
    def patched(self, removed: Iterable[str], added: Iterable[Entity]) -> EntityDirectory:
        """This directory without the entities of the `removed` ids and with the `added` ones whose ids it does not
        keep (the first of an id): equal to one built afresh over those entities (tests/test_directory_patch.py),
        in a fraction of the time (a writer's next run after a one-file edit), sharing what did not change with this
        one, which stays as it was (so readers may go on using it)."""
        gone = [self.by_id[i] for i in sorted(set(removed)) if i in self.by_id]
        gone_ids = {entity.id for entity in gone}
        new: dict[str, Entity] = {}
        for entity in added:
            if entity.id not in new and (entity.id in gone_ids or entity.id not in self.by_id):
                new[entity.id] = entity
        patched = EntityDirectory([])
        patched.by_id = dict(sorted([*((k, e) for k, e in self.by_id.items() if k not in gone_ids), *new.items()]))
        patched._by_name = defaultdict(list, self._by_name)
        patched._by_folded = defaultdict(list, self._by_folded)
        patched._by_path = defaultdict(list, self._by_path)
        patched._words = dict(self._words)
        for entity in gone:
            for table, key in patched._places(entity):
                drop(table, key, entity.id)
        for entity in sorted(new.values(), key=lambda e: e.id):
            for table, key in patched._places(entity):
                insert(table, key, entity)
        patched.modules = [entity for entity in patched.by_id.values() if entity.type == EntityType.MODULE]
        if self._grouped is not None:
            patched._patch_forms(self._grouped, self._cores, gone, list(new.values()))
        return patched

    def _patch_forms(
        self, grouped: dict[str, tuple[Form, ...]], cores: list[tuple[str, str]], gone: list[Entity], new: list[Entity]
    ) -> None:
        """The forms of the directory this one was patched from (`grouped`, with its `cores`), made this one's: each
        group a removed or added entity or a changed core is in is made again from the entities that have it."""
        self._cores = self._unique_cores()
        changed_cores = set(self._cores) ^ set(cores)
        added_to: dict[str, set[str]] = defaultdict(set)  # form key -> the added entities with a name form of it
        for entity in new:
            for form in name_forms(entity, split_identifier):
                added_to[form.text.lower()].add(entity.id)
        touched = {f.text.lower() for e in gone for f in name_forms(e, split_identifier)} | added_to.keys()
        touched |= {f.text.lower() for entity_id, core in changed_cores for f in core_forms(entity_id, core)}
        by_core: dict[str, list[Form]] = defaultdict(list)
        for entity_id, core in self._cores:
            for form in core_forms(entity_id, core):
                by_core[form.text.lower()].append(form)
        gone_ids = {entity.id for entity in gone}
        patched = dict(grouped)
        for key in touched:
            named = {f.entity_id for f in grouped.get(key, ()) if not f.core} - gone_ids | added_to.get(key, set())
            forms = [
                form
                for entity_id in sorted(named)
                for form in name_forms(self.by_id[entity_id], split_identifier)
                if form.text.lower() == key
            ]
            forms += by_core.get(key, [])
            if forms:
                patched[key] = tuple(forms)
            else:
                patched.pop(key, None)
        self._grouped = patched
        self._longest = max(map(len, patched), default=0)
        self._words = {}

    def _get_automaton(self) -> ahocorasick.Automaton:
        forms = self._get_forms()
        with self._forms_lock, paused_gc():
            if self._automaton is None:
                automaton = ahocorasick.Automaton()
                for key, found in forms.items():
                    automaton.add_word(key, (key, found))
                if len(automaton):
                    automaton.make_automaton()
                self._automaton = automaton
            return self._automaton

    def _matches(self, folded: str) -> Iterator[tuple[int, int, tuple[Form, ...]]]:
        """(start, end, forms) of every form occurring in `folded` as whole words, by end and then longest first.

        A short text (a query) looks up each of its word-bounded spans in the forms; a long one (a chunk at
        indexing) runs the Aho-Corasick automaton, which takes a second or more to build over a large index, time
        a first query after a start should not wait for. Both find the same forms in the same order."""
        boundary = [not (c.isalnum() or c == "_") for c in folded]
        if len(folded) <= SPAN_LOOKUP_MAX_CHARS:
            forms = self._get_forms()
            starts = [i for i in range(len(folded)) if i == 0 or boundary[i - 1]]
            for end in range(len(folded)):
                if end + 1 < len(folded) and not boundary[end + 1]:
                    continue
                for start in starts[bisect_left(starts, end - self._longest + 1) :]:  # spans no longer than a form
                    if start > end:
                        break
                    found = forms.get(folded[start : end + 1])
                    if found is not None:
                        yield start, end, found
            return
        automaton = self._get_automaton()
        if automaton.kind != ahocorasick.AHOCORASICK:
            return
        for end, (key, found) in automaton.iter(folded):
            start = end - len(key) + 1
            if (start == 0 or boundary[start - 1]) and (end + 1 == len(folded) or boundary[end + 1]):
                yield start, end, found

    def mentioned_in(self, text: str, *, lower_case_phrases: bool = True) -> list[str]:
        """Ids of entities named in `text`, as whole words, in order of first appearance (see `mentions`)."""
        return [entity_id for entity_id, _ in self.mentions(text, lower_case_phrases=lower_case_phrases)]

    def mentions(self, text: str, *, lower_case_phrases: bool = True) -> list[tuple[str, Resolution]]:
        """Ids of entities named in `text`, as whole words, in order of first appearance, each with how: `exact`
        where a name or alias is written whole, `inferred` where only a title's core is (CORE_TYPES).

        A name written inside a longer one is not a mention of its own (the longest match wins, as entity linkers
        have it): "Before the Bat's Flight Is Done" names that film, not also "The Bat (1959 film)"; "Blind Man's
        Eyes" is not "Blind Man (film)".

        Without `lower_case_phrases`, words written all in lower case do not name an entity whose name reads as a
        phrase of prose (`_sentence_case`): a text that writes its names with capitals writes "place of birth" as
        prose, not as the title "Place of birth", though "billing guide" may well mean "Billing Guide"."""
        found: dict[str, Resolution] = {}
        for _, _, entity_id, how in self.mention_spans(text, lower_case_phrases=lower_case_phrases):
            if found.get(entity_id, Resolution.NAME).rank > how.rank:
                found[entity_id] = how
        return list(found.items())

    def mention_spans(self, text: str, *, lower_case_phrases: bool = True) -> list[_Span]:
        """Each mention `mentions` reads in `text` with where it is written: (start, end inclusive, entity id, how),
        in order of start."""
        matched: list[_Span] = []
        for start, end, forms in self._matches(text.lower()):
            original = text[start : end + 1]
            prose = not lower_case_phrases and original.islower()
            for form in forms:
                if prose and _sentence_case(self.by_id[form.entity_id].name):
                    continue
                if not form.case_sensitive or original == form.text:
                    matched.append((start, end, form.entity_id, Resolution.INFERRED if form.core else Resolution.EXACT))
        return sorted(_outermost(matched), key=lambda span: (span[0], span[1]))
