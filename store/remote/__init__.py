"""The object-storage mode: an index folder shared as content-addressed snapshots, its commit point, write lease and
garbage collection."""
