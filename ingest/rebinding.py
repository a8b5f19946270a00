"""Binding anew what other documents refer to when documents change or go: their files are read again from the folder
their project was indexed from and only their relations replaced, without re-embedding; a reference that binds
nothing waits as pending until its target is indexed again."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from trident.ingest.code_index import CodeIndex
from trident.ingest.documents import (
    Parsed,
    add_stated_of,
    bases_of,
    graph_holds,
    graph_returns,
    parse_file,
    pending_returns,
    project_entity,
    resolve_document,
    returns_of,
    waiting_open,
)
from trident.ingest.linking import Resolver
from trident.ingest.walker import SourceFile, read_source
from trident.store.catalog import Writer
from trident.store.names.directory import EntityDirectory
from trident.store.schema import RelationType

# Relations read to find the documents pointing into changed ones; far above any real fan-in, it only bounds a read.
MAX_DEPENDANT_EDGES = 1_000_000


def remove_documents(writer: Writer, doc_ids: Sequence[str], max_file_bytes: int) -> int:
    """Remove documents from the index and bind anew the references other documents made into them: what binds
    nothing now waits as pending, to bind when its target is indexed again. Returns the documents bound again."""
    gone = set(doc_ids)
    dependants, passed = find_dependants(writer, gone), passed_by(writer, gone)
    writer.delete(doc_ids)
    dependants = with_passed(writer, gone, dependants, passed)  # (and what the calls gone passed typed)
    return rebind_documents(writer, dependants, max_file_bytes)


def find_dependants(writer: Writer, doc_ids: set[str]) -> list[str]:
    """Documents outside `doc_ids` whose relations point at entities those define (a call into a changed class, an
    import of a removed module, a mention): once those change, their references may bind differently."""
    documents = writer.manifest.documents
    defined = {e for d in doc_ids if d in documents for e in documents[d].entity_ids}
    if not defined:
        return []
    touching = writer.graph.neighbours(sorted(defined), writer.tenant, MAX_DEPENDANT_EDGES)
    return sorted({r.doc_id for r in touching if r.target in defined and r.doc_id and r.doc_id not in doc_ids})


def passed_by(writer: Writer, doc_ids: set[str]) -> set[tuple[str, str, str]]:
    """(function, slot, entity) of what the calls of the documents `doc_ids` pass functions."""
    return _passed_by(writer.graph.passed(writer.tenant), doc_ids)


def _passed_by(rows: Sequence[tuple[str, str, str, str]], doc_ids: set[str]) -> set[tuple[str, str, str]]:
    return {(function, slot, held) for function, slot, held, doc in rows if doc in doc_ids}


def with_passed(
    writer: Writer, doc_ids: set[str], dependants: list[str], before: set[tuple[str, str, str]]
) -> list[str]:
    """`dependants` and, once each, the documents outside `doc_ids` defining a function whose parameters the facts
    of `doc_ids` typed `before` a run and no longer do, or now do, or one a value of such a parameter is passed on
    to (`_cached_wrapper(func, cache)` in `cached`): their calls on those parameters may bind differently. (The
    spread is a fixed point over the index's functions: it ends when a round adds none.)"""
    rows = writer.graph.passed(writer.tenant)
    functions = {function for function, _, _ in before ^ _passed_by(rows, doc_ids)}
    if not functions:
        return dependants
    while more := {function for function, _, held, _ in rows if held in functions} - functions:
        functions |= more
    documents = writer.manifest.documents.items()
    moved = (d for d, entry in documents if d not in doc_ids and not functions.isdisjoint(entry.entity_ids))
    return sorted({*dependants, *moved})


def rebind_documents(
    writer: Writer, doc_ids: Sequence[str], max_file_bytes: int, resolver: Resolver | None = None
) -> int:
    """Bind the references of unchanged documents again, against the index as it is now, without re-embedding:
    their files are read again from the folder their project was indexed from. A file that changed since (or is
    gone) is left to its project's next run. `resolver`, from the run that just wrote, saves reading the index
    again. Returns how many documents were bound again."""
    manifest, parsed = writer.manifest, list[Parsed]()
    for doc_id in doc_ids:
        entry = manifest.documents.get(doc_id)
        root = manifest.roots.get(entry.project) if entry is not None else None
        if entry is None or root is None:
            continue
        source = read_source(Path(root) / entry.path, entry.path, max_file_bytes)
        if not isinstance(source, SourceFile) or source.content_hash != entry.content_hash:
            continue
        parsed.append(parse_file(entry.project, source, writer.tenant))
    if not parsed:
        return 0
    if resolver is None:  # a run that wrote nothing: read the index as it is
        everything = writer.entities()
        bases = writer.graph.links(writer.tenant, RelationType.INHERITS)
        returns = [*graph_returns(writer.graph, writer.tenant), *pending_returns(writer.manifest)]
        resolver = Resolver(EntityDirectory(everything), CodeIndex(everything, bases, returns))
        resolver.code.add_holds(graph_holds(writer.graph, writer.manifest, writer.tenant))
    bases, open_ = bases_of(parsed, resolver)
    resolver.code.add_bases(bases)
    resolver.code.add_open([*open_, *waiting_open(writer.manifest)])
    resolver.code.add_returns(returns_of(parsed, resolver))
    add_stated_of(parsed, resolver)
    writer.rebind([resolve_document(p, resolver, project_entity(p.document.project, writer.tenant)) for p in parsed])
    return len(parsed)
