"""Retrieval metrics, and `trident eval` end to end on a small BEIR folder with the real model."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from trident.evaluation.metrics import mrr_at, ndcg_at, query_metrics, recall_at


def test_ndcg_matches_a_hand_computed_value() -> None:
    relevant = {"a": 2, "b": 1}
    ranked = ["x", "a", "b"]
    dcg = 2 / math.log2(3) + 1 / math.log2(4)
    ideal = 2 / math.log2(2) + 1 / math.log2(3)
    assert ndcg_at(ranked, relevant) == pytest.approx(dcg / ideal)
    assert ndcg_at(["a", "b"], relevant) == pytest.approx(1.0)


def test_mrr_and_recall_count_only_the_cutoff() -> None:
    relevant = {"a": 1, "b": 1}
    assert mrr_at(["x", "y", "a"], relevant) == pytest.approx(1 / 3)
    assert mrr_at(["x"] * 10 + ["a"], relevant) == 0.0
    assert recall_at(["a", "x", "b"], relevant, 2) == 0.5
    assert recall_at(["a", "x", "b"], relevant, 5) == 1.0
    assert set(query_metrics(["a"], relevant)) == {
        "ndcg@10",
        "mrr@10",
        "recall@1",
        "recall@2",
        "recall@5",
        "recall@10",
        "recall@20",
        "recall@100",
    }


CORPUS = [
    ("d1", "Aspirin", "Aspirin reduces the risk of heart attacks by inhibiting platelet aggregation."),
    ("d2", "Vitamin D", "Vitamin D deficiency is associated with weaker bones and fractures in the elderly."),
    ("d3", "Statins", "Statins lower LDL cholesterol and cut cardiovascular events."),
    ("d4", "Insulin", "Insulin regulates blood glucose; type 1 diabetes destroys the cells that make it."),
    ("d5", "Penicillin", "Penicillin kills bacteria by breaking their cell walls."),
    ("d6", "Caffeine", "Caffeine blocks adenosine receptors and keeps people awake."),
]
QUERIES = [
    ("q1", "Does aspirin prevent heart attacks?", "d1", "easy"),
    ("q2", "What lowers cholesterol?", "d3", "easy"),
    ("q3", "Which hormone controls blood sugar?", "d4", "hard"),
]


@pytest.fixture
def beir(tmp_path: Path) -> Path:
    folder = tmp_path / "tiny"
    (folder / "qrels").mkdir(parents=True)
    (folder / "corpus.jsonl").write_text(
        "".join(json.dumps({"_id": i, "title": t, "text": x}) + "\n" for i, t, x in CORPUS)
    )
    (folder / "queries.jsonl").write_text(
        "".join(json.dumps({"_id": q, "text": t, "metadata": {"type": k}}) + "\n" for q, t, _, k in QUERIES)
    )
    rows = "".join(f"{q}\t{d}\t1\n" for q, _, d, _ in QUERIES)
    (folder / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\n" + rows)
    return folder


def _eval(beir: Path, tmp_path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TRIDENT_EVAL_CACHE": str(tmp_path / "cache")}
    return subprocess.run(
        [sys.executable, "-m", "trident.cli.main", "eval", str(beir), "--json", *extra],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_trident_eval_reports_metrics_by_type_and_attribution(beir: Path, tmp_path: Path) -> None:
    result = _eval(beir, tmp_path)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert (report["dataset"], report["split"], report["strategy"], report["queries"]) == ("tiny", "test", "auto", 3)
    assert report["metrics"]["recall@10"] == 1.0
    assert report["metrics"]["ndcg@10"] > 0.8
    assert set(report["by_type"]) == {"easy", "hard"}
    assert report["attribution"]["relevant_in_top10"] == 3
    assert report["attribution"].get("semantic", 0) == 3


def test_trident_eval_reuses_its_cached_index_and_scores_a_forced_strategy(beir: Path, tmp_path: Path) -> None:
    assert _eval(beir, tmp_path).returncode == 0
    cached = list((tmp_path / "cache").iterdir())
    lexical = json.loads(_eval(beir, tmp_path, "--strategy", "lexical").stdout)
    assert list((tmp_path / "cache").iterdir()) == cached
    assert lexical["strategy"] == "lexical"
    assert set(lexical["attribution"]) <= {"relevant_in_top10", "lexical"}


def test_trident_eval_refuses_a_folder_that_is_not_beir(tmp_path: Path) -> None:
    result = _eval(tmp_path, tmp_path)
    assert result.returncode == 2
    assert "corpus.jsonl" in result.stderr


def test_trident_eval_grid_sweeps_every_fusion_method(beir: Path, tmp_path: Path) -> None:
    result = _eval(beir, tmp_path, "--grid")
    assert result.returncode == 0, result.stderr
    reports = json.loads(result.stdout)
    assert [r["fusion"] for r in reports] == ["rrf", "weighted_sum", "max", "intersection"]
    assert all(0.0 <= r["metrics"]["ndcg@10"] <= 1.0 for r in reports)


def test_trident_eval_ranks_the_judged_abstracts_of_the_scifact_excerpt_first(tmp_path: Path) -> None:
    """Real evaluation data shipped with the tests: each claim's judged abstract among 32 (most off-topic)."""
    excerpt = Path(__file__).resolve().parent / "data" / "scifact-excerpt"
    result = _eval(excerpt, tmp_path)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert (report["dataset"], report["queries"]) == ("scifact-excerpt", 8)
    assert report["metrics"]["recall@10"] == 1.0
    assert report["metrics"]["ndcg@10"] > 0.8


def test_a_judged_passage_merged_as_a_copy_of_a_hit_counts_as_found(beir: Path, tmp_path: Path) -> None:
    """Search merges passages of the same text into one hit (the copy in `duplicates`); the copy is judged here, and
    it must rank right after the hit that holds it, not be lost."""
    _, title, text = CORPUS[2]  # the statins passage, "d3", judged for q2 in the fixture
    with (beir / "corpus.jsonl").open("a") as corpus:
        corpus.write(json.dumps({"_id": "d3-copy", "title": title, "text": text}) + "\n")
    rows = "query-id\tcorpus-id\tscore\nq2\td3-copy\t1\n"  # only the copy is judged; ids tie, so "d3" comes first
    (beir / "qrels" / "test.tsv").write_text(rows)
    result = _eval(beir, tmp_path, "--strategy", "lexical")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["queries"] == 1
    assert report["metrics"]["recall@2"] == 1.0
    assert report["metrics"]["mrr@10"] == 0.5
