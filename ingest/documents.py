"""A file made a document of the index: parsed by its kind and language, and its references resolved against
everything indexed (what an index run writes, and what a dependant is bound again with)."""

from __future__ import annotations

import sys
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from trident.ingest.code import SUPPORTED_LANGUAGES, parse_code
from trident.ingest.linking import Resolver
from trident.ingest.markdown import parse_markdown
from trident.ingest.mentions import mention_relations
from trident.ingest.model import PASSES, Extraction, Reference, TargetForm, returned_key
from trident.ingest.parameter_uses import parameter_reads, parameter_uses
from trident.ingest.text import parse_text
from trident.ingest.walker import SourceFile
from trident.store.catalog import DocumentWrite
from trident.store.manifest import Manifest, PendingReference
from trident.store.protocols import GraphStore
from trident.store.schema import (
    Document,
    DocumentKind,
    Entity,
    EntityType,
    Relation,
    RelationType,
    Resolution,
    document_id,
    entity_id,
    widest_receiver,
)

OWNER_TYPES = (EntityType.MODULE, EntityType.DOCUMENT, EntityType.CONCEPT)
STATED_RETURNS = frozenset({RelationType.RETURNS.value, RelationType.YIELDS.value})


@dataclass
class Parsed:
    document: Document
    extraction: Extraction


def project_entity(project: str, tenant: str) -> Entity:
    return Entity(
        id=entity_id(EntityType.PROJECT, project, project),
        name=project,
        type=EntityType.PROJECT,
        project=project,
        qualified_name=project,
        tenant=tenant,
        aliases=(f"{project}-service", f"{project} service", f"{project}_service"),
        description=f"The {project} project",
    )


def parse_file(project: str, source: SourceFile, tenant: str) -> Parsed:
    """A project's file as a document and what its parser extracts."""
    doc = Document(
        id=document_id(project, source.rel),
        project=project,
        path=source.rel,
        kind=source.kind,
        language=source.language,
        content_hash=source.content_hash,
        size=source.size,
        mtime_ns=source.mtime_ns,
        tenant=tenant,
    )
    return Parsed(doc, parse_source(project, source, tenant))


def parse_source(project: str, source: SourceFile, tenant: str) -> Extraction:
    """Pick the parser for a file by its kind and language."""
    doc_id = document_id(project, source.rel)
    if source.kind == DocumentKind.CODE and source.language in SUPPORTED_LANGUAGES:
        return parse_code(project, source.rel, source.text, source.language, doc_id, tenant)
    if source.kind == DocumentKind.MARKDOWN:
        return parse_markdown(project, source.rel, source.text, doc_id, tenant)
    return parse_text(project, source.rel, source.text, doc_id, source.kind, tenant)


def returns_of(parsed: Sequence[Parsed], resolver: Resolver) -> list[tuple[str, str]]:
    """(function id, class id) of every return type this run's functions state, ("", when the class is not
    indexed): what calls of them give, for member lookups; a stated element type's function id is marked
    (`returned_key`)."""
    found: list[tuple[str, str]] = []
    for p in parsed:
        for ref in p.extraction.references:
            if ref.type in STATED_RETURNS:
                targets = resolver.resolve(ref, p.document)[0]
                found.append((returned_key(ref.type, ref.source), targets[0].id if targets else ""))
    return found


def add_holds_of(parsed: Sequence[Parsed], resolver: Resolver) -> None:
    """Give the resolver's code index every attribute type this run's classes state ("" for a class the index does
    not have yet): what member lookups on an attribute's value read. An attribute stated as another's value
    (`self.pool = other.pool`) is read once the other is known (two rounds)."""
    stated = [(p.document, ref) for p in parsed for ref in p.extraction.references if ref.type == RelationType.HOLDS]
    found: list[tuple[str, str, str]] = []
    for _ in range(2):
        left: list[tuple[Document, Reference]] = []
        for document, ref in stated:
            targets = resolver.resolve(ref, document)[0]
            if targets:
                found.append((ref.source, ref.owner, targets[0].id))
            else:
                left.append((document, ref))
        resolver.code.add_holds(found)
        stated = left
    resolver.code.add_holds((ref.source, ref.owner, "") for _, ref in stated)


def add_stated_of(parsed: Sequence[Parsed], resolver: Resolver) -> None:
    """Give the resolver's code index what this run's files state for member lookups in other files: what attributes
    hold, what calls pass the functions they call, then what attributes given a parameter's value hold (`self.store
    = store`), after what functions use on their untyped parameters (`parameter_uses`, `parameter_reads`): a call
    on an attribute of one (`md.block.register(...)`) passes what it passes to the method of the class they fit."""
    references = [ref for p in parsed for ref in p.extraction.references]
    resolver.code.add_uses(parameter_uses(references), parameter_reads(references))
    add_holds_of(parsed, resolver)
    passes = [(p.document, ref) for p in parsed for ref in p.extraction.references if ref.type == PASSES]
    left = add_passes_of(passes, resolver)
    add_holds_of(parsed, resolver)
    if left:  # calls on what an attribute given a parameter's value holds (`md.renderer.register(name, f)`)
        add_passes_of(left, resolver)


def add_passes_of(passes: Sequence[tuple[Document, Reference]], resolver: Resolver) -> list[tuple[Document, Reference]]:
    """Give the resolver's code index what calls (`PASSES`) pass the functions they call: what their untyped
    parameters hold; returns the calls still bound to nothing. A call bound to nothing is read a second time: it may
    be bound through what another passes (`store.fetch(k, cache)` on a parameter given a store)."""
    left = list(passes)
    for _ in range(2):
        found = [(document, ref, resolver.passed(ref, document)) for document, ref in left]
        resolver.code.add_holds(fact for _, _, facts in found for fact in facts)
        left = [(document, ref) for document, ref, facts in found if not facts]
    return left


def pending_returns(manifest: Manifest, leaving: Collection[str] = ()) -> list[tuple[str, str]]:
    """(function id, "") of every stated return (or element) type still waiting for its class to be indexed, in the
    documents but those `leaving`."""
    return [
        (returned_key(p.type, p.source), "")
        for doc_id, entry in manifest.documents.items()
        if doc_id not in leaving
        for p in entry.unresolved
        if p.type in STATED_RETURNS
    ]


def graph_returns(graph: GraphStore, tenant: str) -> list[tuple[str, str]]:
    """(function id, class id) of every stated return and element type the graph holds, keyed as `returns_of`."""
    return [
        (returned_key(kind, function), cls)
        for kind in sorted(STATED_RETURNS)
        for function, cls in graph.links(tenant, RelationType(kind))
    ]


def graph_holds(
    graph: GraphStore,
    manifest: Manifest,
    tenant: str,
    leaving: Collection[str] = (),
    rewritten: Collection[str] = (),
) -> list[tuple[str, str, str]]:
    """(class id, attribute, entity id) of every attribute type the graph holds, with an entity id of "" for those
    still waiting for their class to be indexed, but those of the classes `leaving` (the documents a run writes
    again state theirs anew); and what calls pass functions' parameters, but what the documents `rewritten` pass."""
    waiting = [
        (p.source, p.owner, "")
        for entry in manifest.documents.values()
        for p in entry.unresolved
        if p.type == RelationType.HOLDS
    ]
    passed = [(function, slot, held) for function, slot, held, doc in graph.passed(tenant) if doc not in rewritten]
    return [held for held in [*graph.holds(tenant), *waiting] if held[0] not in leaving] + passed


def waiting_open(manifest: Manifest, leaving: Collection[str] = ()) -> list[str]:
    """Ids of the classes of the manifest's documents (but those `leaving`) that name a base of a project's no
    indexed class is yet (`class Derived(lib.Base)` with `lib` not indexed)."""
    waiting = [p for doc_id, entry in manifest.documents.items() if doc_id not in leaving for p in entry.unresolved]
    return [p.source for p in waiting if p.type == RelationType.INHERITS and _projects_base(p)]


def _projects_base(ref: Reference | PendingReference) -> bool:
    return ref.form != TargetForm.NAME and ref.target.split(".", 1)[0] not in sys.stdlib_module_names


def bases_of(parsed: Sequence[Parsed], resolver: Resolver) -> tuple[list[tuple[str, str]], list[str]]:
    """(class id, base id) of every base this run's files name, in declared order, which member lookups walk; and
    the ids of the classes naming a base of a project's no indexed class is yet (what their attributes hold may be
    stated by a project indexed later). A base of the standard library or the language's own (`abc.ABC`,
    `Exception`) is never indexed: it opens nothing."""
    found: list[tuple[str, str]] = []
    open_: list[str] = []
    for p in parsed:
        for ref in p.extraction.references:
            if ref.type == RelationType.INHERITS:
                bases = resolver.resolve(ref, p.document)[0]
                found.extend((ref.source, t.id) for t in bases)
                if not bases and _projects_base(ref):
                    open_.append(ref.source)
    return found, open_


def resolve_document(parsed: Parsed, resolver: Resolver, project: Entity) -> DocumentWrite:
    doc = parsed.document
    ex = parsed.extraction
    owned = [e for e in dedupe(ex.entities) if e.doc_id is not None]
    relations: list[Relation] = list(ex.relations)
    unresolved: list[PendingReference] = []
    directory = resolver.directory
    for ref in ex.references:
        if ref.type == PASSES:  # a fact of the function called, kept as this document's
            relations.extend(resolver.passed_relations(ref, doc))
            continue
        targets, resolution = resolver.resolve(ref, doc)
        if not targets and not resolver.settled(ref, doc):
            unresolved.append(_pending(ref))
        relations.extend(resolver.relations(ref, doc, targets, resolution))
    owner = next((e for e in owned if e.type in OWNER_TYPES), None)
    if owner is not None and ex.chunks:
        relations.append(
            Relation(
                source=project.id,
                type=RelationType.CONTAINS,
                target=owner.id,
                evidence=ex.chunks[0].id,
                project=doc.project,
                doc_id=doc.id,
                tenant=doc.tenant,
            )
        )
    owners = {e.chunk_id: e.id for e in owned if e.chunk_id}
    if owner is not None:
        owners = {c.id: owners.get(c.id, owner.id) for c in ex.chunks}
    relations.extend(mention_relations(directory, ex.chunks, owners, doc.project))
    return DocumentWrite(doc, list(ex.chunks), owned, _unique(relations), unresolved)


def _unique(relations: Sequence[Relation]) -> list[Relation]:
    """One relation per source, type, target and evidence chunk (and attribute, for `HOLDS`: `self.left` and
    `self.right` both hold a Node): the surest of them (a direct `Foo()` call and a dispatch to Foo from a table in
    the same chunk are one exact call), the first of equally sure ones."""
    seen: dict[tuple[str, str, str, str, str], Relation] = {}
    for r in relations:
        key = (r.source, r.type, r.target, r.evidence or "", r.member)
        kept = seen.get(key)
        if kept is None:
            seen[key] = r
            continue
        surest = r if Resolution(r.resolution).rank < Resolution(kept.resolution).rank else kept
        receiver = widest_receiver(kept.receiver, r.receiver)  # one relation stands for both calls
        seen[key] = surest if surest.receiver == receiver else surest.model_copy(update={"receiver": receiver})
    return list(seen.values())


def _pending(ref: Reference) -> PendingReference:
    return PendingReference(
        source=ref.source,
        type=ref.type,
        target=ref.target,
        evidence=ref.evidence,
        target_types=list(ref.target_types),
        form=ref.form,
        resolution=ref.resolution,
        owner=ref.owner,
        after_owner=ref.after_owner,
        virtual=ref.virtual,
        place=ref.place,
    )


def dedupe(entities: Iterable[Entity]) -> list[Entity]:
    seen: dict[str, Entity] = {}
    for entity in entities:
        seen.setdefault(entity.id, entity)
    return list(seen.values())
