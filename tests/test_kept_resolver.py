"""A watcher keeps its resolver from run to run and patches it: through edits that add, rename, move and delete code
and prose, and another writer's run in between, every run leaves exactly the graph (entities and relations) that the
same runs leave when each builds its resolver afresh."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

from tests.conftest import EXAMPLES, index_into
from tests.test_code_index_patch import state as code_state
from tests.test_directory_patch import state as directory_state
from trident.embedding.hash_embedder import HashEmbedder
from trident.ingest.code_index import CodeIndex
from trident.ingest.kept_resolver import KeptResolver
from trident.store.catalog import Catalog
from trident.store.names.directory import EntityDirectory
from trident.store.schema import Entity

TENANT = "default"


def graph(catalog: Catalog) -> tuple[list, list, dict]:
    """The entities and relations, and the references each document left unresolved."""
    pending = {doc_id: entry.unresolved for doc_id, entry in catalog.manifest.documents.items()}
    return catalog.graph.entities(TENANT), catalog.graph.relations(TENANT), pending


def test_runs_patching_a_kept_resolver_leave_the_graph_runs_building_it_afresh_leave(tmp_path: Path) -> None:
    project = tmp_path / "billing"
    shutil.copytree(EXAMPLES / "billing", project)
    patching = Catalog(tmp_path / "patching", TENANT, HashEmbedder())
    building = Catalog(tmp_path / "building", TENANT, HashEmbedder())
    kept = KeptResolver()
    sources = sorted(project.rglob("*.py"))
    first, second = sources[0], sources[-1]
    edits = [
        lambda: first.write_text(
            first.read_text() + "\n\nclass ZqLedger:\n    def settle(self):\n        return 1\n", encoding="utf-8"
        ),
        lambda: second.write_text(
            second.read_text() + "\n\ndef zq_close():\n    return ZqLedger().settle()\n", encoding="utf-8"
        ),
        lambda: (project / "LEDGER.md").write_text("# Ledger\n\nZqLedger settles; see zq_close.\n", encoding="utf-8"),
        lambda: first.write_text(first.read_text().replace("ZqLedger", "ZqBook"), encoding="utf-8"),
        lambda: first.rename(first.with_name("moved_" + first.name)),
        lambda: (project / "LEDGER.md").unlink(),
        lambda: [
            (project / "closing.py").write_text("def zq_settle_all():\n    return 2\n", encoding="utf-8"),
            (project / "caller.py").write_text("def zq_run():\n    return zq_settle_all()\n", encoding="utf-8"),
        ],
        lambda: [  # the callee moves to a file of its own: the caller's call guessed by name finds the one left
            (project / "closing.py").unlink(),
            (project / "closing2.py").write_text("def zq_settle_all():\n    return 3\n", encoding="utf-8"),
            (project / "caller.py").write_text("def zq_run():\n    return zq_settle_all() + 1\n", encoding="utf-8"),
        ],
    ]
    try:
        for catalog in (patching, building):
            index_into(catalog, project, "billing")
        index_into(patching, project, "billing", kept=kept)  # nothing changed: nothing is resolved
        for n, change in enumerate(edits):
            change()
            if n == 2:  # another writer's run between two of the watcher's
                for catalog in (patching, building):
                    index_into(catalog, EXAMPLES / "auth", "auth")
            index_into(patching, project, "billing", kept=kept)
            index_into(building, project, "billing")
            assert graph(patching) == graph(building), f"after edit {n}"
        entities, relations, pending = graph(patching)
        assert any(e.name == "ZqBook" for e in entities)
        assert any(r.type == "CALLS" and r.target.endswith("closing2.zq_settle_all") for r in relations)
        assert any(pending.values()), "the reference to the renamed class waits"
        assert kept._directory is not None and any(e.project == "auth" for e in kept._directory.by_id.values())
    finally:
        patching.close()
        building.close()


def test_a_kept_resolver_is_the_resolver_built_afresh_over_the_graph_as_each_run_finds_it(tmp_path: Path) -> None:
    """Between runs the graph changes by more than the last run wrote (a deleted file's entities gone, another
    writer's added, an entity changed in place): each run's patched resolver is the fresh one over what it finds."""
    catalog = Catalog(tmp_path / "index", TENANT, HashEmbedder())
    try:
        for project in ("billing", "auth"):
            index_into(catalog, EXAMPLES / project, project)
        entities = catalog.graph.entities(TENANT)
        bases = catalog.graph.links(TENANT, "INHERITS")
    finally:
        catalog.close()
    rng = random.Random(5)
    kept = KeptResolver()
    before = [e for e in entities if e.project == "billing"]
    others = [e for e in entities if e.project != "billing"]
    for run in range(5):
        replaced = {e.id for e in rng.sample(before, 3)}
        added = [
            Entity(
                id=f"class:billing:New{run}",
                name=f"New{run}",
                type="Class",
                project="billing",
                qualified_name=f"billing.New{run}",
                path="billing/new.py",
                doc_id="billing/billing/new.py",
            )
        ]
        resolver = kept.resolver([e for e in before if e.id not in replaced], added, bases)
        everything = [*(e for e in before if e.id not in replaced), *added]
        assert directory_state(resolver.directory) == directory_state(EntityDirectory(everything)), f"run {run}"
        assert code_state(resolver.code) == code_state(CodeIndex(everything, bases)), f"run {run}"
        # What the next run finds: this run's writes, a file deleted, another writer's entities, one changed.
        before = [e for e in everything if e.id not in {x.id for x in rng.sample(everything, 2)}]
        before += others[run * 10 : run * 10 + 10]
        before[0] = before[0].model_copy(update={"aliases": (f"alias{run}",)})
