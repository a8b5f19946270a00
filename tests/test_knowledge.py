"""Facts an agent adds become a note of the knowledge project, resolved as an indexed document is (plumbing only: a
hash embedder stands in for the model)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, HashEmbedder, index_into
from trident.ingest.knowledge import KNOWLEDGE_PROJECT, NewEntity, NewRelation, add_knowledge
from trident.retrieval.entities import EntityNotFoundError, resolve_entity
from trident.store.catalog import Catalog, Writer
from trident.store.errors import ArgumentError
from trident.store.manifest import manifest_identity
from trident.store.names.directory import EntityDirectory

GATEWAY = "class:billing:billing.gateway.PaymentGateway"
TEAM = "team:knowledge:Payments team"


@pytest.fixture
def catalog(tmp_path: Path) -> Iterator[Catalog]:
    cat = Catalog(tmp_path / "index", "default", HashEmbedder())
    index_into(cat, EXAMPLES / "billing", "billing")
    yield cat
    cat.close()


def _add(writer: Writer, entities: list[NewEntity], relations: list[NewRelation]) -> str:
    directory = EntityDirectory(writer.entities())
    return add_knowledge(writer, directory, entities, relations, find_entity=resolve_entity, author="test").document


def test_a_note_whose_description_mentions_an_indexed_class_gets_a_mention_edge_to_it(catalog: Catalog) -> None:
    team = NewEntity(name="Payments team", type="Team", description="Keeps the PaymentGateway retrying charges")
    with catalog.writer() as writer:
        note = _add(writer, [team], [])
    mentions = {(r.source, r.target) for r in catalog.graph.relations("default") if r.doc_id == note}
    assert (TEAM, GATEWAY) in mentions
    assert {r.type for r in catalog.graph.relations("default") if r.doc_id == note} == {"MENTIONS"}
    assert catalog.manifest.documents[note].project == KNOWLEDGE_PROJECT


def test_a_stated_relation_is_stored_with_the_note_as_its_evidence(catalog: Catalog) -> None:
    team = NewEntity(name="Payments team", type="Team")
    owns = NewRelation(source="Payments team", type="OWNS", target="PaymentGateway", note="per the org chart")
    with catalog.writer() as writer:
        note = _add(writer, [team], [owns])
    owned = [r for r in catalog.graph.relations("default") if r.type == "OWNS"]
    assert [(r.source, r.target, r.doc_id) for r in owned] == [(TEAM, GATEWAY, note)]
    assert owned[0].evidence == catalog.manifest.documents[note].chunk_ids[0]


def test_a_relation_to_an_unknown_name_names_the_closest_and_publishes_nothing(catalog: Catalog) -> None:
    before = manifest_identity(catalog.index_dir)
    wrong = NewRelation(source="PaymentGateway", type="DEPENDS_ON", target="PaymentGatewy")
    with pytest.raises(EntityNotFoundError, match=r"closest: [\w.]*PaymentGateway\b"), catalog.writer() as writer:
        _add(writer, [], [wrong])
    assert manifest_identity(catalog.index_dir) == before


def test_nothing_to_add_is_an_argument_error_naming_the_arguments(catalog: Catalog) -> None:
    with pytest.raises(ArgumentError, match="entities, relations"), catalog.writer() as writer:
        _add(writer, [], [])
