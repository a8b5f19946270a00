"""One BLAS thread for the process's matrix products: a search runs its paths concurrently, each in a worker thread,
and the query's products (every chunk vector, every entity vector, times the query's) are too small to share out.

OpenBLAS splits a product over a pool of its own threads; beside the paths' threads and the embedding model's, on a
busy machine the pool's second thread waits for a core. Measured on 2 cores with another job running: the product of
10K chunk vectors took 8 ms instead of 0.3 ms on one thread, and a dense search 16 ms instead of 6.5 (p50). On one
thread a score no longer depends on the number of cores either (with two, the rows either side of the split were
summed another way: a difference in the ninth decimal). threadpoolctl finds the BLAS numpy and scipy loaded, on
every platform, and sets its pool.
"""

from __future__ import annotations


def one_blas_thread() -> int:
    """Every BLAS the process has loaded set to one thread; how many libraries were set. Called again by each new
    set of search views, so that a BLAS loaded since (scipy's, on first use of scipy.linalg) is set too; a call
    costs a few milliseconds."""
    import numpy  # noqa: F401  # loads numpy's BLAS, so that there is one to set
    from threadpoolctl import ThreadpoolController

    blas = ThreadpoolController().select(user_api="blas")
    blas.limit(limits=1)  # not a `with`: the limit holds for the process
    return len(blas.info())
