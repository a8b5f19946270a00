"""The query's matrix products run on one BLAS thread (retrieval/blas.py): a search's paths are its parallelism."""

from __future__ import annotations

from threadpoolctl import threadpool_info

from trident.retrieval.blas import one_blas_thread
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.views import GenerationViews


def test_search_views_leave_every_blas_pool_with_one_thread() -> None:
    GenerationViews(RetrievalSettings())
    import scipy.linalg  # noqa: F401  # loads scipy's own BLAS after the first views were made

    GenerationViews(RetrievalSettings())
    pools = [pool for pool in threadpool_info() if pool.get("user_api") == "blas"]
    assert pools, "numpy loaded no BLAS threadpoolctl can see"
    assert all(pool["num_threads"] == 1 for pool in pools)
    assert one_blas_thread() == len(pools)
