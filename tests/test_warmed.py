"""How a write run waits for a server's warm-up (server/warmed.py)."""

from __future__ import annotations

import logging
import threading

import pytest

from trident.server.warmed import WarmedGenerations


def test_a_run_waits_until_the_warm_up_has_been_through_its_generation_or_a_later_one() -> None:
    warmed = WarmedGenerations()
    assert not warmed.wait_for(3, timeout=0.0), "nothing warmed yet"
    warmed.finished(2)
    assert not warmed.wait_for(3, timeout=0.0)
    later = threading.Timer(0.05, warmed.finished, args=(4,))
    later.start()
    assert warmed.wait_for(3, timeout=60.0), "woken by the warm-up finishing a later generation"
    later.join()
    assert warmed.wait_for(4, timeout=0.0) and warmed.wait_for(1, timeout=0.0)


def test_a_warm_up_that_read_no_generation_wakes_no_one() -> None:
    warmed = WarmedGenerations()
    warmed.finished(None)  # the index was unreadable: a waiting run times out and syncs anyway
    assert not warmed.wait_for(0, timeout=0.0)


def test_once_the_warm_up_has_ended_no_run_waits_for_it() -> None:
    warmed = WarmedGenerations()
    warmed.finished(1)
    answers: list[bool] = []
    waiting = threading.Thread(target=lambda: answers.append(warmed.wait_for(2, timeout=None)))
    waiting.start()
    warmed.stopped()  # the server stops: nothing will warm generation 2 any more
    waiting.join(60)
    assert not waiting.is_alive() and answers == [False]
    assert warmed.wait_for(1)


def test_a_run_that_stops_waiting_says_so(caplog: pytest.LogCaptureFixture) -> None:
    warmed = WarmedGenerations()
    with caplog.at_level(logging.WARNING, logger="trident.server.warmed"):
        assert not warmed.wait_for(5, timeout=0.0)
    assert "had not built index version 5" in caplog.text
    caplog.clear()
    warmed.stopped()
    with caplog.at_level(logging.WARNING, logger="trident.server.warmed"):
        assert not warmed.wait_for(6, timeout=0.0)
    assert caplog.text == "", "an ended warm-up is no reason to warn"
