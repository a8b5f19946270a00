"""Turning names into edges: references from parsers, and mentions of known names in prose and comments."""

from __future__ import annotations

from collections.abc import Sequence

from trident.store.names.directory import EntityDirectory
from trident.store.names.mention_forms import mentionable_text
from trident.store.schema import Chunk, Relation, RelationType


def mention_relations(
    directory: EntityDirectory, chunks: Sequence[Chunk], owners: dict[str, str], project: str
) -> list[Relation]:
    """MENTIONS edges from the entity owning each chunk to every other document's entity it names: `exact` where the
    chunk writes a name whole, `inferred` where it writes only a title's core ("Kiss and Tell" for "Kiss and Tell
    (1945 film)"), so a path through a whole name outranks one through a shortened title.

    `owners` maps chunk id -> the most specific entity defined in that chunk (or the document's entity).
    """
    relations: list[Relation] = []
    for chunk in chunks:
        source = owners.get(chunk.id)
        if source is None:
            continue
        for target_id, how in directory.mentions(mentionable_text(chunk)):
            target = directory.by_id[target_id]
            if target.doc_id == chunk.doc_id or target_id == source:
                continue
            relations.append(
                Relation(
                    source=source,
                    type=RelationType.MENTIONS,
                    target=target_id,
                    evidence=chunk.id,
                    project=project,
                    doc_id=chunk.doc_id,
                    tenant=chunk.tenant,
                    resolution=how,
                )
            )
    return relations
