"""The engine adapters: Tantivy (BM25), LanceDB (vectors and their ANN index) and the property graph (Kùzu or its
maintained fork), each behind a Protocol of `trident.store.protocols`, with what a store keeps of its engine in
memory."""
