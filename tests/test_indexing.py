"""Indexing the sample corpus with the real model: the graph it builds, and incremental re-indexing."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.conftest import EXAMPLES, index_into
from trident.retrieval.reader import Reader
from trident.store.catalog import Catalog
from trident.store.names.directory import EntityDirectory
from trident.store.protocols import Embedder
from trident.store.schema import Entity, Relation
from trident.tools.status import status


def _edges(cat: Catalog, rel_type: str) -> list[tuple[str, str]]:
    return [(r.source, r.target) for r in cat.graph.relations("default") if r.type == rel_type]


def _names(cat: Catalog) -> dict[str, str]:
    return {e.id: e.qualified_name or e.name for e in cat.entities()}


def test_status_shows_the_same_chunk_count_in_all_three_engines(sample_catalog: Catalog) -> None:
    result = status(Reader.open(sample_catalog))
    assert result.consistent
    counts = {name: engine["chunks"] for name, engine in result.engines.items()}
    assert len(set(counts.values())) == 1 and counts["lexical"] > 30
    assert {p.name for p in result.projects} == {"billing", "auth", "storefront"}


def test_status_counts_each_projects_documents_and_chunks_from_one_pass(sample_catalog: Catalog) -> None:
    manifest = sample_catalog.manifest
    grouped = manifest.documents_by_project()
    assert sorted(grouped) == manifest.projects()
    assert all(grouped[name] == manifest.project_documents(name) for name in manifest.projects())
    shown = {p.name: (p.documents, p.chunks) for p in status(Reader.open(sample_catalog)).projects}
    assert shown == {
        name: (len(docs), sum(len(entry.chunk_ids) for entry in docs.values()))
        for name, docs in ((n, manifest.project_documents(n)) for n in manifest.projects())
    }
    assert all(chunks > 0 for _, chunks in shown.values())


def test_calls_edge_links_the_two_real_functions_that_call_each_other(sample_catalog: Catalog) -> None:
    names = _names(sample_catalog)
    calls = {(names[s], names[t]) for s, t in _edges(sample_catalog, "CALLS")}
    assert ("billing.orders.OrderService.checkout", "billing.payments.PaymentAdapter.process") in calls
    assert any(src == "billing.payments.PaymentAdapter.process" and dst.endswith("charge") for src, dst in calls)


def test_front_matter_depends_on_becomes_a_depends_on_edge(sample_catalog: Catalog) -> None:
    entities = {e.id: e for e in sample_catalog.entities()}
    depends = [(entities[s], entities[t]) for s, t in _edges(sample_catalog, "DEPENDS_ON")]
    assert any(src.path == "docs/payment-flow.md" and dst.name == "PaymentGateway" for src, dst in depends)


def test_links_and_inheritance_and_imports_are_extracted(sample_catalog: Catalog) -> None:
    names = _names(sample_catalog)
    inherits = {(names[s], names[t]) for s, t in _edges(sample_catalog, "INHERITS")}
    assert ("billing.gateway.StripeGateway", "billing.gateway.PaymentGateway") in inherits
    imports = {(names[s], names[t]) for s, t in _edges(sample_catalog, "IMPORTS")}
    assert ("billing.orders", "billing.payments") in imports
    assert _edges(sample_catalog, "LINKS_TO"), "relative markdown links must become LINKS_TO edges"


def test_a_cross_project_link_resolves_once_the_target_project_is_indexed(sample_catalog: Catalog) -> None:
    entities = {e.id: e for e in sample_catalog.entities()}
    cross = [
        (entities[s], entities[t])
        for s, t in _edges(sample_catalog, "LINKS_TO")
        if entities[s].project != entities[t].project
    ]
    assert any(src.project == "billing" and dst.project == "auth" for src, dst in cross)


def test_every_relation_keeps_an_evidence_chunk_that_exists(sample_catalog: Catalog) -> None:
    relations: list[Relation] = sample_catalog.graph.relations("default")
    evidence = {r.evidence for r in relations}
    assert None not in evidence and "" not in evidence
    chunks = sample_catalog.graph.get_chunks(sorted(evidence))
    assert set(chunks) == evidence


def test_skipped_files_are_recorded_with_their_reason(sample_catalog: Catalog) -> None:
    reasons = {s.path: s.reason for p in status(Reader.open(sample_catalog)).projects for s in p.skipped}
    assert any("UTF-8" in reason for reason in reasons.values())
    assert any("binary" in reason for reason in reasons.values())


def test_reindexing_embeds_only_the_changed_file_and_drops_the_deleted_one(tmp_path: Path, embedder: Embedder) -> None:
    project = tmp_path / "billing"
    shutil.copytree(EXAMPLES / "billing", project)
    cat = Catalog(tmp_path / "index", "default", embedder)
    first = index_into(cat, project, "billing")
    before = {doc_id: list(e.chunk_ids) for doc_id, e in cat.manifest.documents.items()}

    gateway = project / "billing" / "gateway.py"
    gateway.write_text(gateway.read_text() + "\n\ndef audit_refund_ledger(entries):\n    return len(entries)\n")
    (project / "billing" / "refunds.py").unlink()
    second = index_into(cat, project, "billing")

    assert second.indexed == 1 and second.deleted == 1
    assert second.unchanged == first.files_seen - 2
    after = {doc_id: list(e.chunk_ids) for doc_id, e in cat.manifest.documents.items()}
    assert "billing/billing/refunds.py" not in after
    changed = {doc_id for doc_id in after if after[doc_id] != before.get(doc_id)}
    assert changed == {"billing/billing/gateway.py"}
    result = status(Reader.open(cat))
    assert result.consistent
    assert not [e for e in cat.entities() if e.path == "billing/refunds.py"]
    third = index_into(cat, project, "billing")
    assert third.indexed == 0 and third.deleted == 0
    cat.close()


def test_calls_resolve_only_to_exactly_named_symbols_of_the_same_project(sample_catalog: Catalog) -> None:
    entities = {e.id: e for e in sample_catalog.entities()}
    calls = [(entities[s], entities[t]) for s, t in _edges(sample_catalog, "CALLS")]
    assert calls
    assert all(src.project == dst.project for src, dst in calls)


def test_a_call_does_not_resolve_to_another_projects_symbol_or_a_different_case() -> None:
    go_get = Entity(
        id="method:auth:session.SessionManager.Get",
        name="Get",
        type="Method",
        project="auth",
        aliases=("SessionManager.Get",),
    )
    py_process = Entity(
        id="method:billing:payments.PaymentAdapter.process",
        name="process",
        type="Method",
        project="billing",
        aliases=("PaymentAdapter.process",),
    )
    directory = EntityDirectory([go_get, py_process])
    types = ("Function", "Method", "Class")
    assert directory.resolve("get", target_types=types, project="billing", relation="CALLS") == []
    assert directory.resolve("Get", target_types=types, project="billing", relation="CALLS") == []
    assert directory.resolve("Get", target_types=types, project="auth", relation="CALLS") == [go_get]
    assert directory.resolve("process", target_types=types, project="billing", relation="CALLS") == [py_process]
    # Documents may name things anywhere and loosely: a DEPENDS_ON still crosses projects.
    assert directory.resolve("get", project="billing", relation="DEPENDS_ON") == [go_get]
