"""The collector pause used while building in-memory views of an index."""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

from trident.host.gc_pause import paused_gc


@contextmanager
def _held_in_another_thread(block: Callable[[], AbstractContextManager[None]]) -> Iterator[None]:
    """`block()` entered by another thread for as long as this one is inside."""
    entered, release = threading.Event(), threading.Event()

    def hold() -> None:
        with block():
            entered.set()
            release.wait(5)

    other = threading.Thread(target=hold)
    other.start()
    entered.wait(5)
    try:
        yield
    finally:
        release.set()
        other.join()


def test_collection_resumes_only_when_the_last_pause_ends() -> None:
    assert gc.isenabled()
    with _held_in_another_thread(paused_gc):
        with paused_gc():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the other thread's pause is still under way
    assert gc.isenabled()


def test_a_collector_switched_off_beforehand_stays_off() -> None:
    gc.disable()
    try:
        with paused_gc():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_an_error_inside_the_pause_still_resumes_collection() -> None:
    try:
        with paused_gc():
            raise KeyError("boom")
    except KeyError:
        pass
    assert gc.isenabled()


class _Cycle:
    """An object in a reference cycle: only a cyclic collection frees it."""

    def __init__(self) -> None:
        self.me = self


def _collected_cycle() -> tuple[_Cycle, list[bool]]:
    import weakref

    cycle = _Cycle()
    freed: list[bool] = []
    weakref.finalize(cycle, freed.append, True)
    return cycle, freed


def test_a_frozen_heap_leaves_older_objects_out_of_collections_until_the_last_block_ends() -> None:
    from trident.host.gc_pause import frozen_heap

    old, old_freed = _collected_cycle()
    with _held_in_another_thread(frozen_heap):
        with frozen_heap():
            assert gc.get_freeze_count() > 0
            del old
            new, new_freed = _collected_cycle()
            del new
            gc.collect()
            assert new_freed == [True], "what the block made is still collected"
            assert old_freed == [], "what was alive before is left alone"
        gc.collect()
        assert old_freed == [] and gc.get_freeze_count() > 0  # the other block is still under way
    assert gc.get_freeze_count() == 0
    gc.collect()
    assert old_freed == [True]


def test_an_index_run_writes_with_the_heap_frozen(tmp_path: Path) -> None:
    import shutil

    from tests.conftest import EXAMPLES, index_into
    from trident.embedding.hash_embedder import HashEmbedder
    from trident.store.catalog import Catalog

    class Watching:
        def __init__(self) -> None:
            self.frozen: list[int] = []

        def stage(self, name: str, total: int) -> None:
            self.frozen.append(gc.get_freeze_count())

        def advance(self, n: int = 1) -> None:
            pass

        def published(self, chunks_waiting: int) -> None:
            pass

    project = tmp_path / "billing"
    shutil.copytree(EXAMPLES / "billing", project)
    catalog = Catalog(tmp_path / "index", "default", HashEmbedder())
    try:
        progress = Watching()
        index_into(catalog, project, "billing", progress=progress)
        assert progress.frozen and all(count > 0 for count in progress.frozen)
        assert gc.get_freeze_count() == 0
    finally:
        catalog.close()


def test_a_resolver_builds_its_indexes_with_collection_paused() -> None:
    """The entity directory and the code index allocate a few hundred thousand acyclic objects per build at 100K
    chunks: collections meanwhile doubled a one-file edit's resolver build, so both build with the collector off."""
    from trident.ingest.code_index import CodeIndex
    from trident.store.names.directory import EntityDirectory
    from trident.store.schema import Entity

    functions = [
        Entity(
            id=f"function:p:m.f{i}", name=f"f{i}", type="Function", project="p", qualified_name=f"m.f{i}", path="m.py"
        )
        for i in range(3)
    ]
    collecting: list[bool] = []

    def watched() -> Iterator[Entity]:
        for entity in functions:
            collecting.append(gc.isenabled())
            yield entity

    assert EntityDirectory(watched()).named("f1") and CodeIndex(watched()) is not None
    assert collecting == [False] * 6
    assert gc.isenabled()


def test_survivors_frozen_inside_a_block_stay_out_of_collections_until_it_ends() -> None:
    from trident.host.gc_pause import freeze_survivors, frozen_heap

    with frozen_heap():
        kept, kept_freed = _collected_cycle()
        freeze_survivors()  # what the block holds now (a run's resolver) is left alone too
        del kept
        gc.collect()
        assert kept_freed == []
        made, made_freed = _collected_cycle()
        del made
        gc.collect()
        assert made_freed == [True], "what is made afterwards is still collected"
    assert gc.get_freeze_count() == 0
    gc.collect()
    assert kept_freed == [True]


def test_survivors_are_not_frozen_outside_a_block() -> None:
    from trident.host.gc_pause import freeze_survivors

    freeze_survivors()
    assert gc.get_freeze_count() == 0


def test_what_a_pause_inside_a_write_run_built_is_frozen_with_the_run_and_only_then() -> None:
    from trident.host.gc_pause import frozen_heap

    with paused_gc():
        outside = [[i] for i in range(100)]
    assert gc.get_freeze_count() == 0, "no write run: nothing is frozen"
    with frozen_heap():
        before = gc.get_freeze_count()
        with paused_gc():
            built = [[i] for i in range(1000)]  # a view or a resolver built during a run
        assert gc.get_freeze_count() >= before + len(built)
    assert gc.get_freeze_count() == 0
    assert len(outside) == 100
