"""Tests that call a reached function through a receiver the binder could not type (`env.from_string(...)` with
`env` a fixture's value), or construct a reached class through a module the binder could not follow
(`asttokens.ASTTokens(...)` with `asttokens` imported from a test helper): a call of that name in test code reaches it
when no other function or class of the language has the name. Such tests are found by the name their code writes,
and say so (resolution `name`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from trident.retrieval.callers import WALKED, CallerWalk, Reach
from trident.retrieval.change_map import SiteOwners
from trident.retrieval.definitions import ChunkReader
from trident.retrieval.relation_index import RelationIndex
from trident.store.catalog import Catalog
from trident.store.names.code_paths import is_test_path
from trident.store.names.directory import EntityDirectory
from trident.store.protocols import SearchFilter
from trident.store.schema import DocumentKind, Entity, Resolution

CALLABLES = frozenset({"Function", "Method", "Class"})  # (a class is called to construct one)
NAMES_READ = 60  # the nearest reached names read at most (each one lexical search)
SITES_PER_NAME = 400


def with_named_tests(
    catalog: Catalog,
    directory: EntityDirectory,
    read: ChunkReader,
    index: RelationIndex,
    walk: CallerWalk,
    projects: Sequence[str],
) -> CallerWalk:
    """`walk` and the test code writing a call of a reached function's name that only reached functions have, in a
    test the graph has no call of it from (one it has, the walk followed or ruled out: `String().serialize(1)` does
    not run `Integer._serialize`)."""
    names = _unique_names(directory, walk)
    owners = SiteOwners(catalog, directory, read)
    reached = dict(walk.reached)
    for name, (callee, reach) in sorted(names.items(), key=lambda n: (n[1][1].hops, n[0]))[:NAMES_READ]:
        written = re.compile(rf"(?<![\w]){re.escape(name)}\s*\(")
        hits = catalog.text.search(name, SITES_PER_NAME, SearchFilter(catalog.tenant, tuple(projects)))
        chunks = read([h.id for h in hits])
        stated = _callers_of(index, [e.id for e in directory.named(name) if e.id in walk.reached])
        for chunk_id in sorted(chunks):
            chunk = chunks[chunk_id]
            if chunk.kind != DocumentKind.CODE or not is_test_path(chunk.path):
                continue
            for match in written.finditer(chunk.text):
                owner = owners.at(chunk, chunk.start_line + chunk.text.count("\n", 0, match.start()))
                if owner and owner not in reached and owner not in stated:
                    reached[owner] = Reach(reach.hops + 1, Resolution.NAME, callee, chunk_id)
    return replace(walk, reached=reached)


def _callers_of(index: RelationIndex, entity_ids: Sequence[str]) -> set[str]:
    """The entities with a call or reference into any of these."""
    found = (index.touching(e, WALKED, outgoing=False) for e in entity_ids)
    return {index.entity_ids[index.source[i]] for numbers in found for i in numbers}


def _unique_names(directory: EntityDirectory, walk: CallerWalk) -> dict[str, tuple[str, Reach]]:
    """Name -> (the nearest reached function of that name, its reach), for the names of reached library functions
    that no unreached function of the same language shares."""
    found: dict[str, tuple[str, Reach]] = {}
    for entity_id, reach in walk.reached.items():
        entity = directory.by_id.get(entity_id)
        if entity is None or entity.type not in CALLABLES or is_test_path(entity.path or ""):
            continue
        if entity.name.startswith("__") or not entity.name.isidentifier():
            continue  # a dunder is run by the language, not written as a call
        held = found.get(entity.name)
        if held is None or reach.hops < held[1].hops:
            found[entity.name] = (entity_id, reach)
    return {name: held for name, held in found.items() if _only_reached(directory, name, walk, held[0])}


def _only_reached(directory: EntityDirectory, name: str, walk: CallerWalk, example: str) -> bool:
    family = _suffix(directory.by_id[example])
    same = [e for e in directory.named(name) if e.type in CALLABLES and e.name == name and _suffix(e) == family]
    return all(e.id in walk.reached for e in same)


def _suffix(entity: Entity) -> str:
    path = entity.path or ""
    return path.rsplit(".", 1)[-1] if "." in path else ""
