"""Progressive availability: a large run publishes the lexical and graph engines first, then fills in the chunk
vectors behind them, publishing as it goes, so a first index of a large folder answers lexical and graph questions
within seconds of parsing instead of after every chunk is embedded (the slow part on a CPU).

The manifest lists the documents still waiting for vectors (`Manifest.vectors_pending`): a search says its dense
path covers only part of the index, `status` counts what is left, and a run cut short leaves the list for the next
run, which embeds it before anything else.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from trident.ingest.ingest_settings import IngestSettings
from trident.ingest.progress import Progress
from trident.store.catalog import Writer

# Documents per fill batch for what an earlier run left waiting (a run's own documents keep its write batches).
LEFTOVER_BATCH_DOCUMENTS = 64


@dataclass(frozen=True)
class Publishing:
    """When a run publishes before it ends: runs writing at least `progressive_chunks` chunks publish the lexical
    and graph engines before embedding, then the vectors at most every `every_seconds` while they are embedded.
    With `before_syncs`, a run publishes all it wrote before it syncs the graph vectors and communities (a watched
    edit is found by every path while they catch up: at 100K chunks they are 5 of its 11 s); else its block's end
    publishes it, so that a block indexing several folders publishes them together."""

    progressive_chunks: int = 1024
    every_seconds: float = 20.0
    before_syncs: bool = False
    # Called with the generation a `before_syncs` run has just published, before its syncs begin: a server waits
    # there (boundedly) for its warm-up to build its searches' views of that generation, which the syncs' seconds of
    # Python otherwise slowed by sharing the interpreter with them.
    readers_first: Callable[[int], object] | None = None

    @classmethod
    def from_settings(
        cls,
        settings: IngestSettings,
        *,
        before_syncs: bool = False,
        readers_first: Callable[[int], object] | None = None,
    ) -> Publishing:
        return cls(settings.progressive_chunks, settings.publish_seconds, before_syncs, readers_first)

    def progressive(self, chunks: int) -> bool:
        return chunks >= self.progressive_chunks


def fill_vectors(writer: Writer, batches: Sequence[Sequence[str]], publishing: Publishing, progress: Progress) -> int:
    """Publish what the writer holds, then embed every document waiting for vectors: the run's own `batches` (its
    write batches, so each is embedded exactly as an ordinary write would have embedded it) and then whatever an
    earlier run left waiting, publishing every `publishing.every_seconds`. Returns the chunks embedded; what it
    embedded since the last publication is published when the writer's block ends.
    """
    waiting = writer.manifest.vectors_pending
    if not waiting:
        return 0
    run_ids = {doc_id for batch in batches for doc_id in batch}
    leftovers = [d for d in waiting if d not in run_ids]
    plan = [list(b) for b in batches] + [
        leftovers[i : i + LEFTOVER_BATCH_DOCUMENTS] for i in range(0, len(leftovers), LEFTOVER_BATCH_DOCUMENTS)
    ]
    total = writer.manifest.pending_chunks()
    writer.publish_now()
    progress.published(total)
    progress.stage("embedding", total)
    embedded = 0
    last = time.monotonic()
    for batch in plan:
        done = writer.fill_vectors(batch)
        embedded += done
        progress.advance(done)
        if time.monotonic() - last >= publishing.every_seconds and writer.manifest.vectors_pending:
            writer.publish_now()
            progress.published(writer.manifest.pending_chunks())
            last = time.monotonic()
    return embedded
