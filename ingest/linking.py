"""What follows a run's writes: references retried against names that appeared, shared names linked, and the mark
that tells a later run whether the graph vectors and communities are in step with the graph.

How the mark is read is `trident.store.sync_state`; anything but a complete sync (a crash before publishing, a write
by a tool, a sync cut short or given up) makes the next run sync again.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from trident.ingest.code_index import CodeIndex
from trident.ingest.languages import spec_for
from trident.ingest.model import Reference, TargetForm, returned_key
from trident.ingest.shared_names import shared_concepts
from trident.store.catalog import Writer
from trident.store.engines.graph_memory import relation_key
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
from trident.store.names.code_paths import code_language
from trident.store.names.directory import EntityDirectory
from trident.store.schema import (
    BOUND_RELATION_TYPES,
    Document,
    DocumentKind,
    Entity,
    Relation,
    RelationType,
    Resolution,
)
from trident.store.sync_state import DerivedStore

NAME_GUESS_WEIGHT = 0.5

# --- whether the syncs are up to date ---


def forget_sync(writer: Writer) -> None:
    """Called before a sync changes the stores: if it is cut short, no run takes them for current."""
    write_sync_stamp(writer.index_dir, writer.tenant, None)


def mark_synced(writer: Writer, read_with: Manifest) -> None:
    """Record that the syncs match the graph read along with `read_with`: in a session, by a mark its
    publication carries; on the published generation (the writer wrote nothing), by that generation's stamp (no
    write to the index). Clears what an earlier sync gave up on."""
    if read_stale(writer.index_dir, writer.tenant):
        write_stale(writer.index_dir, writer.tenant, {})
    if writer.session_open:
        token = secrets.token_hex(8)
        write_sync_stamp(writer.index_dir, writer.tenant, token)
        manifest = writer.manifest
        manifest.synced = SyncMark(token=token, generation=manifest.generation)
    else:
        write_sync_stamp(writer.index_dir, writer.tenant, published_stamp(read_with))


def give_up_sync(writer: Writer, store: DerivedStore, doing: str) -> None:
    """Record that a sync left `store` behind the graph (the index is published without it; status says so and the
    next run syncs again)."""
    write_stale(writer.index_dir, writer.tenant, {store.value: doing})


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
    writer: Writer,
    entities: Sequence[Entity],
    appeared: Sequence[Entity] | None = None,
    bases: Sequence[tuple[str, str]] = (),
    returns: Sequence[tuple[str, str]] = (),
    holds: Sequence[tuple[str, str, str]] = (),
) -> int:
    """Retry pending references against all `entities` (with `bases`, `returns` and `holds`, the graph's (class,
    base), (function, returned class) and (class, attribute, held) facts, for member lookups); returns edges added.

    With `appeared` (the entities new since the last retry), only references that one of them could answer are
    retried, and none when nothing appeared: every other reference already failed against the rest.
    """
    pending_docs = {doc_id: e for doc_id, e in writer.manifest.documents.items() if e.unresolved}
    if not pending_docs or (appeared is not None and not appeared):
        return 0
    fresh = _Answerable(appeared) if appeared is not None else None
    docs = {doc_id: _pending_document(doc_id, entry, writer.tenant) for doc_id, entry in pending_docs.items()}
    retried = {
        (doc_id, i)
        for doc_id, entry in pending_docs.items()
        for i, pending in enumerate(entry.unresolved)
        if fresh is None or fresh.could_answer(pending, docs[doc_id])
    }
    if not retried:
        return 0
    resolver = Resolver(EntityDirectory(entities), CodeIndex(entities, bases, returns))
    resolver.code.add_holds(holds)
    for doc_id, i in sorted(retried):  # bases, return and attribute types first: member lookups walk them
        pending = pending_docs[doc_id].unresolved[i]
        if pending.type == RelationType.INHERITS:
            resolver.code.add_bases((pending.source, t.id) for t in resolver.resolve(pending, docs[doc_id])[0])
        elif pending.type in (RelationType.RETURNS, RelationType.YIELDS):
            returned = resolver.resolve(pending, docs[doc_id])[0]
            resolver.code.add_returns(
                [(returned_key(pending.type, pending.source), returned[0].id if returned else "")]
            )
        elif pending.type == RelationType.HOLDS:
            held = resolver.resolve(pending, docs[doc_id])[0]
            resolver.code.add_holds([(pending.source, pending.owner, held[0].id)] if held else [])
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
            added.extend(resolver.relations(pending, doc, targets, resolution))
        if len(remaining) != len(entry.unresolved):
            still[doc_id] = remaining
    if still:
        writer.add_relations(added, still)
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
    return spec.bind is not None


class Resolver:
    """Binds references to entities: calls and bases by scope and type (`CodeIndex`) where the file's language has
    a binder, everything else by name, path or module (`EntityDirectory`)."""

    def __init__(self, directory: EntityDirectory, code: CodeIndex) -> None:
        self.directory, self.code = directory, code

    def settled(self, ref: Reference | PendingReference, doc: Document) -> bool:
        """Whether a reference that bound nothing is not worth keeping pending (`CodeIndex.settled`)."""
        return _bound_by_scope(ref, doc) and self.code.settled(ref, doc.project)

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

    def relations(
        self, ref: Reference | PendingReference, doc: Document, targets: list[Entity], resolution: Resolution
    ) -> list[Relation]:
        """The relations a reference bound to `targets` makes, sharing its weight; a call of a method bound by
        scope and type says which overrides of it may run instead (`CodeIndex.receiver`)."""
        return [
            reference_relation(
                ref,
                t.id,
                doc,
                1.0 / len(targets),
                resolution,
                self._receiver(ref, doc, t, resolution),
                RelationType.CALLS if self._runs(ref, doc, t) else None,
            )
            for t in targets
        ]

    def _runs(self, ref: Reference | PendingReference, doc: Document, target: Entity) -> bool:
        """Whether a reference bound to `target` runs it: a read of a property (`CodeIndex.runs_getter`)."""
        return self.code.runs_getter(ref, target) and _bound_by_scope(ref, doc)

    def passed(self, ref: Reference, doc: Document) -> list[tuple[str, str, str]]:
        """(function id, attribute, entity id) of what a call's argument passes the function it binds to (`PASSES`,
        `CodeIndex.passed_to`); none in a language without a binder."""
        bound = ref.form != TargetForm.NAME or binds(doc.path)  # (a method call its binder bound by name too)
        return self.code.passed_to(ref, doc.project, doc.path) if bound else []

    def passed_relations(self, ref: Reference, doc: Document) -> list[Relation]:
        """What a call's argument passes, as `HOLDS` relations of the functions called, kept as the caller's document's
        (written again with it, gone with it)."""
        return [
            Relation(
                source=function,
                type=RelationType.HOLDS,
                target=held,
                evidence=ref.evidence,
                project=doc.project,
                doc_id=doc.id,
                tenant=doc.tenant,
                member=attribute,
            )
            for function, attribute, held in self.passed(ref, doc)
        ]

    def _receiver(self, ref: Reference | PendingReference, doc: Document, target: Entity, how: Resolution) -> str:
        return self.code.receiver(ref, doc.project, doc.path, target, how) if _bound_by_scope(ref, doc) else ""


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
    ref: Reference | PendingReference,
    target: str,
    doc: Document,
    weight: float,
    resolution: Resolution,
    receiver: str = "",
    kind: RelationType | None = None,
) -> Relation:
    """A resolved reference as a relation (of `kind` where the resolver knows better than the binder: a property
    read runs its getter); where a binder could only guess from the name, it weighs half as much as a binding."""
    return Relation(
        source=ref.source,
        type=kind or ref.type,
        target=target,
        weight=weight * (NAME_GUESS_WEIGHT if resolution is Resolution.NAME and _bound_by_scope(ref, doc) else 1.0),
        evidence=ref.evidence,
        project=doc.project,
        doc_id=doc.id,
        tenant=doc.tenant,
        resolution=resolution,
        member=ref.owner if ref.type == RelationType.HOLDS else "",
        receiver=receiver,
    )


def link_shared_names(writer: Writer, entities: Sequence[Entity], relations: Sequence[Relation]) -> int:
    """Add the shared concepts of the whole index and their INSTANCE_OF edges that the graph lacks; returns how
    many nodes and edges were written (none when the graph has them all, so an unchanged index is not written)."""
    concepts, links = shared_concepts(entities, writer.tenant)
    stored = {e.id: e for e in entities}
    kinds = {r.type for r in links}  # only relations of the links' types can be one of them
    have = {relation_key(r) for r in relations if r.type in kinds}
    # keys of the concepts' ids only: dumping every entity of a large index cost most of a second per write
    new_concepts = [c for c in concepts if c.id not in stored or _entity_key(stored[c.id]) != _entity_key(c)]
    new_links = [r for r in links if relation_key(r) not in have]
    writer.add_entities(new_concepts)
    if new_links:
        writer.add_relations(new_links, {})
    return len(new_concepts) + len(new_links)


def _entity_key(e: Entity) -> tuple[object, ...]:
    """An entity as the graph gives it back (a missing chunk, document or path reads as "")."""
    return (
        *e.model_dump(exclude={"chunk_id", "doc_id", "path"}).values(),
        e.chunk_id or "",
        e.doc_id or "",
        e.path or "",
    )
