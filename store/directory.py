"""Every entity of an index by name, alias, qualified name and path: resolving references and finding mentions."""

from __future__ import annotations

import posixpath
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

import ahocorasick
from trident.store.identifiers import split_identifier
from trident.store.schema import DocumentKind, Entity, EntityType

MAX_TARGETS = 3
PROJECT_LOCAL_RELATIONS = frozenset({"CALLS", "INHERITS"})
MIN_MENTION_LENGTH = 4
# A one-word function name ("run", "charge") is too common in prose to mean the symbol; classes, documents
# and titled concepts are named to be referred to.
MENTIONABLE_TYPES = frozenset(
    {
        EntityType.CLASS,
        EntityType.FUNCTION,
        EntityType.METHOD,
        EntityType.MODULE,
        EntityType.DOCUMENT,
        EntityType.CONCEPT,
        EntityType.SERVICE,
        EntityType.PROJECT,
    }
)
MULTIWORD_ONLY_TYPES = frozenset({EntityType.FUNCTION, EntityType.METHOD, EntityType.MODULE, EntityType.PROJECT})
PROSE_KINDS = frozenset({DocumentKind.MARKDOWN, DocumentKind.TEXT, DocumentKind.PASSAGE})


def _strip_ext(path: str) -> str:
    root, _ = posixpath.splitext(path)
    return root


@dataclass(frozen=True)
class _Form:
    """One way of writing an entity's name; single words must match case, phrases match case-folded."""

    text: str
    case_sensitive: bool
    entity_id: str


class EntityDirectory:
    """Every entity of the index by name, alias, qualified name and path."""

    def __init__(self, entities: Iterable[Entity]) -> None:
        self.by_id: dict[str, Entity] = {}
        for entity in entities:
            self.by_id.setdefault(entity.id, entity)
        self._by_name: dict[str, list[Entity]] = defaultdict(list)
        self._by_folded: dict[str, list[Entity]] = defaultdict(list)
        self._by_path: dict[tuple[str, str], list[Entity]] = defaultdict(list)
        self._modules: list[Entity] = []
        for entity in sorted(self.by_id.values(), key=lambda e: e.id):
            for name in {entity.name, *entity.aliases}:
                self._by_name[name].append(entity)
                self._by_folded[" ".join(split_identifier(name)) or name.lower()].append(entity)
            if entity.path:
                self._by_path[(entity.project, entity.path)].append(entity)
                self._by_path[(entity.project, _strip_ext(entity.path))].append(entity)
            if entity.type == EntityType.MODULE:
                self._modules.append(entity)
        self._automaton: ahocorasick.Automaton | None = None

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
        exact = [m for m in self._modules if m.qualified_name == dotted]
        if exact:
            return exact
        # A package import (Go, Python package, Java package) names the folder of several modules.
        return [
            m
            for m in self._modules
            if "." in m.qualified_name
            and (
                m.qualified_name.rsplit(".", 1)[0] == dotted
                or dotted.endswith("." + m.qualified_name.rsplit(".", 1)[0])
                or dotted.endswith("." + m.qualified_name)
            )
        ]

    # ---- mentions ---------------------------------------------------------------------------------------

    def _forms(self) -> Iterable[_Form]:
        for entity in self.by_id.values():
            if entity.type not in MENTIONABLE_TYPES:
                continue
            for name in {entity.name, *(a for a in entity.aliases if "/" not in a)}:
                words = split_identifier(name)
                if len(name) < MIN_MENTION_LENGTH or not words:
                    continue
                multiword = len(words) > 1
                if not multiword and (entity.type in MULTIWORD_ONLY_TYPES or name.islower()):
                    # A lower-case single word ("billing", "session") is ordinary prose, not a reference.
                    continue
                yield _Form(name, case_sensitive=not multiword, entity_id=entity.id)
                if multiword and " ".join(words) != name.lower():
                    yield _Form(" ".join(words), case_sensitive=False, entity_id=entity.id)

    def _get_automaton(self) -> ahocorasick.Automaton:
        if self._automaton is None:
            automaton = ahocorasick.Automaton()
            grouped: dict[str, list[_Form]] = defaultdict(list)
            for form in self._forms():
                grouped[form.text.lower()].append(form)
            for key, forms in grouped.items():
                automaton.add_word(key, (key, tuple(forms)))
            if grouped:
                automaton.make_automaton()
            self._automaton = automaton
        return self._automaton

    def mentioned_in(self, text: str) -> list[str]:
        """Ids of entities named in `text`, as whole words, in order of first appearance."""
        automaton = self._get_automaton()
        if automaton.kind != ahocorasick.AHOCORASICK:
            return []
        folded = text.lower()
        found: dict[str, None] = {}
        for end, (key, forms) in automaton.iter(folded):
            start = end - len(key) + 1
            if (start > 0 and (folded[start - 1].isalnum() or folded[start - 1] == "_")) or (
                end + 1 < len(folded) and (folded[end + 1].isalnum() or folded[end + 1] == "_")
            ):
                continue
            original = text[start : end + 1]
            for form in forms:
                if not form.case_sensitive or original == form.text:
                    found.setdefault(form.entity_id, None)
        return list(found)
