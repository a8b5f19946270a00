"""The collector pause used while building in-memory views of an index."""

from __future__ import annotations

import gc
import threading

from trident.store.gc_pause import paused_gc


def test_collection_resumes_only_when_the_last_pause_ends() -> None:
    assert gc.isenabled()
    entered, release = threading.Event(), threading.Event()

    def hold() -> None:
        with paused_gc():
            entered.set()
            release.wait(5)

    other = threading.Thread(target=hold)
    other.start()
    entered.wait(5)
    with paused_gc():
        assert not gc.isenabled()
    assert not gc.isenabled()  # the other thread's pause is still under way
    release.set()
    other.join()
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
