"""The memory-mapped files of record beside a generation: chunk vectors and rows, entity and relation vectors,
community reports, written at publish and checked when a reader maps them."""
