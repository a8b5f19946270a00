"""A long-lived writer's resolver, kept from one index run to the next and patched with what changed between them.

A run binds its documents' references and mentions against every entity of the index: built afresh, the entity
directory, its mention forms and the code index take 0.75 s of Python at 100K chunks, most of a one-file edit's run
before it publishes. A watcher (`trident watch`, a server's) runs again and again over an index that changed little
in between, so it keeps the last run's directory and code index here, and the next run patches them (both patches
give what a fresh build would: tests/test_directory_patch.py, tests/test_code_index_patch.py). What changed is found
by comparing the kept entities with those the graph holds as the run begins, so another writer's runs in between
(`trident index`, another watcher) are taken in as well.
"""

from __future__ import annotations

from collections.abc import Sequence

from trident.ingest.code_index import CodeIndex
from trident.ingest.linking import Resolver
from trident.store.names.directory import EntityDirectory, entity_changes, worth_patching
from trident.store.schema import Entity


class KeptResolver:
    """The entity directory and code index of a writer's last run; one writer uses it at a time (the write lock)."""

    def __init__(self) -> None:
        self._directory: EntityDirectory | None = None
        self._code: CodeIndex | None = None

    def resolver(
        self,
        existing: Sequence[Entity],
        added: Sequence[Entity],
        bases: Sequence[tuple[str, str]],
        returns: Sequence[tuple[str, str]] = (),
    ) -> Resolver:
        """A resolver over the `existing` entities (those the graph holds as the run begins but the ones of the
        documents it rewrites), the ones it `added` (the first of an id, the existing first), the class `bases` and
        the functions' stated `returns`: the last run's, patched, when one is kept and little changed."""
        directory, code = self._directory, self._code
        if directory is not None and code is not None:
            stale, fresh = entity_changes(directory.by_id, existing)
            if worth_patching(len(stale) + len(fresh), len(directory.by_id)):
                self._directory = directory.patched(stale, [*fresh, *added])
                self._code = code.patched(stale, [*fresh, *added], bases, returns)
                return Resolver(self._directory, self._code)
        everything = [*existing, *added]
        self._directory, self._code = EntityDirectory(everything), CodeIndex(everything, bases, returns)
        return Resolver(self._directory, self._code)
