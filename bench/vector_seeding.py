"""Vector seeding on code: do loosely worded questions still seed the entities they describe?

The questions (bench/seeding_questions.json) name no entity exactly: "giving money back to a customer" wants a refund
entity. Each corpus is indexed into a temporary folder with the current code and TRIDENT_MODEL's model, then every
question's vector seeds (`retrieval/paths.py vector_seeds`, what the walk starts from when no name matches) are
checked: a hit when a seed's id contains one of the question's wanted fragments, and for a question with none
wanted (about nothing indexed), when nothing is seeded. Prints each question's seeds with -v, then per corpus the
questions hit by any seed and by the first, and the texts the model embedded for the graph items.

Usage: python bench/vector_seeding.py [-v] [examples] [stdlib]
    examples: the three sample projects; stdlib: the json, http and concurrent packages of this interpreter.
To compare with another version, run it again with that version's packages first on PYTHONPATH (a folder
`trident/` of links, as docs/benchmarks.md describes for the cold start).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

from trident.embedding.embedder import open_embedder
from trident.embedding.model_settings import ModelSettings
from trident.ingest.graph_vector_sync import graph_items
from trident.ingest.pipeline import index_folder
from trident.retrieval.paths import vector_seeds
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog

QUESTIONS = Path(__file__).resolve().parent / "seeding_questions.json"
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
STDLIB = Path(os.__file__).resolve().parent
CORPORA = {
    "examples": [EXAMPLES / name for name in ("billing", "auth", "storefront")],
    "stdlib": [STDLIB / name for name in ("json", "http", "concurrent")],
}


class CountingEmbedder:
    """The model, counting the texts it embeds."""

    def __init__(self, inner: object) -> None:
        self.inner = inner
        self.texts = 0

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)

    def embed(self, texts: list[str]) -> object:
        self.texts += len(texts)
        return self.inner.embed(texts)  # type: ignore[attr-defined]


def run(name: str, embedder: CountingEmbedder, verbose: bool) -> None:
    questions = json.loads(QUESTIONS.read_text())[name]
    with tempfile.TemporaryDirectory() as tmp:
        catalog = Catalog(Path(tmp) / "index", "default", embedder)  # type: ignore[arg-type]
        with catalog.writer() as writer:
            for folder in CORPORA[name]:
                index_folder(writer, folder, folder.name, max_file_bytes=1_000_000)
        chunks = sum(len(entry.chunk_ids) for entry in catalog.manifest.documents.values())
        items = graph_items(catalog.entities(), catalog.graph.relations(catalog.tenant), catalog.tenant)
        views = GenerationViews(RetrievalSettings())
        any_hit = first_hit = 0
        for row in questions:
            seeds = [e.id for e in vector_seeds(catalog, views, embedder.embed_query(row["question"]), None)]
            wanted = row["wanted"]
            hits = [any(w in seed for w in wanted) for seed in seeds]
            ok = any(hits) if wanted else not seeds  # a question about nothing indexed must seed nothing
            any_hit += ok
            first_hit += (bool(hits) and hits[0]) if wanted else ok
            if verbose:
                print(f"{'OK' if ok else '--'} {row['question']}: {seeds}")
        catalog.close()
    print(
        f"{name}: {len(questions)} questions, any seed {any_hit}, first seed {first_hit}; {chunks} chunks, "
        f"{len(items)} graph items, {embedder.texts} texts embedded in all "
        f"({embedder.texts / max(chunks, 1):.2f} a chunk)"
    )


def main(args: list[str]) -> None:
    verbose = "-v" in args
    for name in [a for a in args if not a.startswith("-")] or list(CORPORA):
        run(name, CountingEmbedder(open_embedder(ModelSettings())), verbose)


if __name__ == "__main__":
    main(sys.argv[1:])
