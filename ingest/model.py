"""What a parser hands to the indexer: chunks, entities, relations, and references still to resolve."""

from __future__ import annotations

from dataclasses import dataclass, field

from trident.store.schema import Chunk, Entity, Relation


@dataclass(frozen=True)
class Reference:
    """A relation whose target is only known by name until every document's entities are known.

    `target` is the name as written in the source (``PaymentGateway``, ``gateway.charge``,
    ``../auth/tokens.md``); the indexer resolves it against all entities and drops it if none match.
    """

    source: str
    type: str
    target: str
    evidence: str
    target_types: tuple[str, ...] = ()


@dataclass
class Extraction:
    chunks: list[Chunk] = field(default_factory=list)
    entities: list[Entity] = field(default_factory=list)
    relations: list[Relation] = field(default_factory=list)
    references: list[Reference] = field(default_factory=list)

    def extend(self, other: Extraction) -> None:
        self.chunks.extend(other.chunks)
        self.entities.extend(other.entities)
        self.relations.extend(other.relations)
        self.references.extend(other.references)
