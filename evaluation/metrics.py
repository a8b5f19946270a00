"""Standard retrieval metrics over a ranked list of document ids and graded judgments."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

RECALL_CUTOFFS = (1, 2, 5, 10, 20, 100)


def ndcg_at(ranked: Sequence[str], relevant: Mapping[str, int], k: int = 10) -> float:
    """nDCG@k with graded gains (rel) and log2 discounts, as BEIR / trec_eval compute it."""
    dcg = sum(relevant.get(doc, 0) / math.log2(i + 2) for i, doc in enumerate(ranked[:k]))
    ideal = sorted((g for g in relevant.values() if g > 0), reverse=True)[:k]
    idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / idcg if idcg > 0 else 0.0


def mrr_at(ranked: Sequence[str], relevant: Mapping[str, int], k: int = 10) -> float:
    for i, doc in enumerate(ranked[:k]):
        if relevant.get(doc, 0) > 0:
            return 1.0 / (i + 1)
    return 0.0


def recall_at(ranked: Sequence[str], relevant: Mapping[str, int], k: int) -> float:
    """Share of the relevant documents found in the top k (HippoRAG's passage recall on 2Wiki)."""
    wanted = {doc for doc, gain in relevant.items() if gain > 0}
    if not wanted:
        return 0.0
    return len(wanted & set(ranked[:k])) / len(wanted)


def query_metrics(ranked: Sequence[str], relevant: Mapping[str, int]) -> dict[str, float]:
    metrics = {"ndcg@10": ndcg_at(ranked, relevant), "mrr@10": mrr_at(ranked, relevant)}
    metrics.update({f"recall@{k}": recall_at(ranked, relevant, k) for k in RECALL_CUTOFFS})
    return metrics


def mean(rows: Sequence[Mapping[str, float]]) -> dict[str, float]:
    if not rows:
        return {}
    return {key: round(sum(row[key] for row in rows) / len(rows), 4) for key in rows[0]}
