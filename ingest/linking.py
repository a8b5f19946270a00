"""What follows a run's writes: references retried against names that appeared, shared names linked, and the mark
that tells a later run whether the graph vectors and communities are in step with the graph.

How the mark is read is `trident.store.sync_state`; anything but a complete sync (a crash before publishing, a write
by a tool, a sync cut short or given up) makes the next run sync again.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from trident.ingest.code_index import CodeIndex
from trident.ingest.languages import spec_for
from trident.ingest.model import Reference, TargetForm
from trident.ingest.shared_names import shared_concepts
from trident.ingest.walker import code_language
from trident.store import locking
from trident.store.catalog import Catalog
from trident.store.directory import EntityDirectory
from trident.store.errors import IndexLockedError
from trident.store.generations import GENERATIONS_DIR, remove_leftovers
from trident.store.manifest import (
    DocumentEntry,
    Manifest,
    PendingReference,
    SyncMark,
    published_stamp,
    read_stale,
    write_stale,
    write_sync_stamp,
)
from trident.store.schema import (
    BOUND_RELATION_TYPES,
    Document,
    DocumentKind,
    Entity,
    Relation,
    RelationType,
    Resolution,
)
from trident.store.sync_state import DerivedStore, in_session

NAME_GUESS_WEIGHT = 0.5

# --- whether the syncs are up to date ---


def forget_sync(catalog: Catalog) -> None:
    """Called before a sync changes the stores: if it is cut short, no run takes them for current."""
    write_sync_stamp(catalog.index_dir, catalog.tenant, None)


def mark_synced(catalog: Catalog, read_with: Manifest) -> None:
    """Record that the syncs match the graph read along with `read_with`: in a session, by a mark its
    publication carries; on a published generation, by that generation's stamp (no write to the index; if another
    process published since, the stamp names the older generation and the next run syncs again). Clears what an
    earlier sync gave up on."""
    if read_stale(catalog.index_dir, catalog.tenant):
        write_stale(catalog.index_dir, catalog.tenant, {})
    if in_session(catalog):
        token = secrets.token_hex(8)
        write_sync_stamp(catalog.index_dir, catalog.tenant, token)
        manifest = catalog.manifest
        manifest.synced = SyncMark(token=token, generation=manifest.generation)
    else:
        write_sync_stamp(catalog.index_dir, catalog.tenant, published_stamp(read_with))


def give_up_sync(catalog: Catalog, store: DerivedStore, doing: str) -> None:
    """Record that a sync left `store` behind the graph (the index is published without it; status says so and the
    next run syncs again)."""
    write_stale(catalog.index_dir, catalog.tenant, {store.value: doing})


@contextmanager
def syncing(catalog: Catalog) -> Iterator[None]:
    """Hold the write lock while the sync stores change: a run that wrote nothing has not taken it."""
    if in_session(catalog):
        yield
        return
    with locking.briefly(catalog.index_dir, catalog):
        yield


def tidy_generations(catalog: Catalog) -> None:
    """Remove what a writer that died left behind (an unpublished or unused generation, a manifest draft). A new
    session does this when it starts; a run that writes nothing starts none, so it looks (one listing) itself."""
    hold = locking.HOLDS.get(catalog.index_dir)
    if in_session(catalog) or (hold is not None and hold.writers):  # a session of this hold did it (or is open)
        return
    published = catalog.manifest.generation_dir
    folders = catalog.index_dir / GENERATIONS_DIR
    others = folders.is_dir() and any(f"{GENERATIONS_DIR}/{f.name}" != published for f in folders.iterdir())
    if not others and not any(catalog.index_dir.glob(".manifest-*.json")):
        return
    try:
        with locking.briefly(catalog.index_dir, catalog):
            remove_leftovers(catalog.index_dir, keep={str(catalog.manifest.generation_dir)})
    except IndexLockedError:
        pass  # another process is writing: its session removes them when it starts


# --- references and shared names ---


def resolution_key(entity: Entity) -> tuple[object, ...]:
    """What reference resolution reads of an entity: a change here can make a pending reference resolve. (The
    graph gives back a missing path as "", so both count as none.)"""
    return (
        entity.id,
        entity.name,
        entity.aliases,
        entity.type,
        entity.project,
        entity.qualified_name,
        entity.path or "",
    )


def relink(
    catalog: Catalog,
    entities: Sequence[Entity],
    appeared: Sequence[Entity] | None = None,
    bases: Sequence[tuple[str, str]] = (),
) -> int:
    """Retry pending references against all `entities` (with `bases`, the graph's (class, base) pairs, for member
    lookups); returns edges added.

    With `appeared` (the entities new since the last retry), only references that one of them could answer are
    retried, and none when nothing appeared: every other reference already failed against the rest.
    """
    pending_docs = {doc_id: e for doc_id, e in catalog.manifest.documents.items() if e.unresolved}
    if not pending_docs or (appeared is not None and not appeared):
        return 0
    fresh = _Answerable(appeared) if appeared is not None else None
    docs = {doc_id: _pending_document(doc_id, entry, catalog.tenant) for doc_id, entry in pending_docs.items()}
    retried = {
        (doc_id, i)
        for doc_id, entry in pending_docs.items()
        for i, pending in enumerate(entry.unresolved)
        if fresh is None or fresh.could_answer(pending, docs[doc_id])
    }
    if not retried:
        return 0
    resolver = Resolver(EntityDirectory(entities), CodeIndex(entities, bases))
    for doc_id, i in sorted(retried):  # bases first: member lookups walk them
        pending = pending_docs[doc_id].unresolved[i]
        if pending.type == RelationType.INHERITS:
            resolver.code.add_bases((pending.source, t.id) for t in resolver.resolve(pending, docs[doc_id])[0])
    added: list[Relation] = []
    still: dict[str, list[PendingReference]] = {}
    for doc_id, entry in sorted(pending_docs.items()):
        doc = docs[doc_id]
        remaining: list[PendingReference] = []
        for i, pending in enumerate(entry.unresolved):
            if (doc_id, i) not in retried:
                remaining.append(pending)
                continue
            targets, resolution = resolver.resolve(pending, doc)
            if not targets:
                remaining.append(pending)
            added.extend(reference_relation(pending, t.id, doc, 1.0 / len(targets), resolution) for t in targets)
        if len(remaining) != len(entry.unresolved):
            still[doc_id] = remaining
    if still:
        catalog.add_relations(added, still)
    return len(added)


def _pending_document(doc_id: str, entry: DocumentEntry, tenant: str) -> Document:
    return Document(
        id=doc_id,
        project=entry.project,
        path=entry.path,
        kind=DocumentKind(entry.kind),
        content_hash=entry.content_hash,
        tenant=tenant,
    )


def _bound_by_scope(ref: Reference | PendingReference, doc: Document) -> bool:
    """Whether a language's binder described this reference (its calls and bases), so the code index resolves it."""
    return ref.form != TargetForm.NAME or (ref.type in BOUND_RELATION_TYPES and binds(doc.path))


def binds(path: str) -> bool:
    """Whether calls and bases in this file are bound by scope and type (its language has a binder)."""
    language = code_language(path)
    if language is None:
        return False
    spec = spec_for(language)
    return spec.bind_file is not None or spec.binder is not None


class Resolver:
    """Binds references to entities: calls and bases by scope and type (`CodeIndex`) where the file's language has
    a binder, everything else by name, path or module (`EntityDirectory`)."""

    def __init__(self, directory: EntityDirectory, code: CodeIndex) -> None:
        self.directory, self.code = directory, code

    def resolve(self, ref: Reference | PendingReference, doc: Document) -> tuple[list[Entity], Resolution]:
        """The entities a reference made in `doc` points at, and how surely (calls and bases in a language
        without a binder are matched by name: `name`)."""
        if _bound_by_scope(ref, doc):
            return self.code.resolve(ref, doc.project, doc.path)
        found = self.directory.resolve(
            ref.target,
            target_types=ref.target_types,
            source=ref.source,
            project=doc.project,
            doc_id=doc.id,
            relation=ref.type,
        )
        return found, Resolution.NAME if ref.type in BOUND_RELATION_TYPES else Resolution.EXACT


class _Answerable:
    """Whether entities that just appeared could answer a pending reference: a cheap test before resolving it
    against the whole index (it may say yes too often, never too rarely)."""

    def __init__(self, appeared: Sequence[Entity]) -> None:
        self.resolver = Resolver(EntityDirectory(appeared), CodeIndex([]))
        self.words = {e.name for e in appeared} | {w for e in appeared for w in e.qualified_name.split(".")}

    def could_answer(self, ref: Reference | PendingReference, doc: Document) -> bool:
        if not _bound_by_scope(ref, doc):
            return bool(self.resolver.resolve(ref, doc)[0])
        return not self.words.isdisjoint({*ref.target.split("."), *ref.owner.split(".")})


def reference_relation(
    ref: Reference | PendingReference, target: str, doc: Document, weight: float, resolution: Resolution
) -> Relation:
    """A resolved reference as a relation; where a binder could only guess from the name, it weighs half as much as
    a binding."""
    return Relation(
        source=ref.source,
        type=ref.type,
        target=target,
        weight=weight * (NAME_GUESS_WEIGHT if resolution is Resolution.NAME and _bound_by_scope(ref, doc) else 1.0),
        evidence=ref.evidence,
        project=doc.project,
        doc_id=doc.id,
        tenant=doc.tenant,
        resolution=resolution,
    )


def link_shared_names(catalog: Catalog, entities: Sequence[Entity], relations: Sequence[Relation]) -> int:
    """Add the shared concepts of the whole index and their INSTANCE_OF edges that the graph lacks; returns how
    many nodes and edges were written (none when the graph has them all, so an unchanged index is not written)."""
    concepts, links = shared_concepts(entities, catalog.tenant)
    stored = {e.id: _entity_key(e) for e in entities}
    have = {_relation_key(r) for r in relations}
    new_concepts = [c for c in concepts if stored.get(c.id) != _entity_key(c)]
    new_links = [r for r in links if _relation_key(r) not in have]
    if new_concepts:
        catalog.graph.upsert([], new_concepts, [])
    if new_links:
        catalog.add_relations(new_links, {})
    return len(new_concepts) + len(new_links)


def _entity_key(e: Entity) -> tuple[object, ...]:
    """An entity as the graph gives it back (a missing chunk, document or path reads as "")."""
    return (
        *e.model_dump(exclude={"chunk_id", "doc_id", "path"}).values(),
        e.chunk_id or "",
        e.doc_id or "",
        e.path or "",
    )


def _relation_key(r: Relation) -> tuple[str, str, str, str]:
    """How the graph merges relations: one per source, type, target and evidence."""
    return (r.source, str(r.type), r.target, r.evidence or "")
