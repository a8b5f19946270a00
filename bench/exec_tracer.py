"""A pytest plugin that records which functions of one package call which while its test suite runs, the chains of
the package's frames each of those calls started under (real call chains, up to the first frame of other code), and
during which tests each function ran. Stand-alone (standard library and pytest only): `bench/executed_calls.py`
copies it into its cache and loads it with `-p exec_tracer` in a throwaway venv.

Set by the caller, in the environment:
    EXEC_TRACER_ROOT     the package's root (the extracted sdist); every path recorded is relative to it
    EXEC_TRACER_SOURCE   the folder of the package's own code (not its tests), inside the root
    EXEC_TRACER_OUT      where the JSON trace is written when pytest ends

On Python 3.12+ the hook is `sys.monitoring` (PY_START: the started code's frame is the callback's caller, and its
`f_back` the caller's; code outside the package is disabled after its first start, so it costs nothing after). On an
older Python it falls back to `sys.setprofile` (every call of every function reaches Python, several times slower;
the trace is the same). A generator's body starts at its first `next()`, so its caller is whoever first resumed it.
"""

from __future__ import annotations

import json
import os
import re
import sys
import threading
import time
from types import CodeType, FrameType
from typing import Any

import pytest

ROOT = os.path.realpath(os.environ["EXEC_TRACER_ROOT"])
SOURCE = os.path.realpath(os.environ["EXEC_TRACER_SOURCE"]) + os.sep
OUT = os.environ["EXEC_TRACER_OUT"]
COLLECTING = ""  # the "test" of code run outside any test: imports and collection
STACK_FRAMES = 10  # package frames kept of the stack each package call starts on (chains of up to 6 calls, nested code)
VERSION = 4  # of what a trace holds: a trace of another version is made again (`bench/executed_calls.py`)
TEST_FOLDERS = {"test", "tests", "testing"}  # folders of the tests' code inside the package's own folder
HARNESS = re.compile(r"[\\/](_pytest|pytest|pluggy)[\\/]")  # pytest's own code (pluggy: its hooks' caller)
MAX_STACKS = 400_000  # distinct stacks kept, the first met (the suite's order is its own: the same on every run)


class Recorder:
    def __init__(self) -> None:
        self.inside: dict[str, bool] = {}  # co_filename -> whether it is package code
        self.pairs: dict[tuple[CodeType, CodeType], set[int]] = {}  # (caller, callee) -> call-site lines
        self.ran: dict[str, set[CodeType]] = {COLLECTING: set()}  # test node id -> package code it ran
        self.current = self.ran[COLLECTING]
        self.testing = COLLECTING  # the test node id running now
        self.harness: dict[str, set[CodeType]] = {}  # test node id -> package code only pytest itself ran in it
        self.test_side: dict[str, bool] = {}  # co_filename -> whether it is the tests' code
        self.tests: dict[str, Any] = {}  # test node id -> [path, qualname, line] of the test function
        self.outcomes: dict[str, str] = {}  # test node id -> its worst outcome (a test's subtests report apart)
        self.stacks: dict[tuple[CodeType, ...], None] = {}  # the package frames a call started under, outermost first

    def package_code(self, code: CodeType) -> bool:
        known = self.inside.get(code.co_filename)
        if known is None:
            known = self.inside[code.co_filename] = os.path.realpath(code.co_filename).startswith(SOURCE)
        return known

    def test_code(self, code: CodeType) -> bool:
        """Whether code is the tests' (test modules, conftest files, the helpers beside them): in the root and
        outside the package's own code, or in a file or folder named as tests are (never `<frozen runpy>`, `<string>`:
        no file, which a relative path would put in the root; but a doctest's examples, `<doctest ...>`)."""
        known = self.test_side.get(code.co_filename)
        if known is None:
            path = os.path.realpath(code.co_filename)
            name = os.path.basename(path)
            parts = os.path.relpath(path, ROOT).split(os.sep)
            known = self.test_side[code.co_filename] = code.co_filename.startswith("<doctest") or (
                os.path.isabs(code.co_filename)
                and path.startswith(ROOT + os.sep)
                and (
                    not path.startswith(SOURCE)
                    or name == "conftest.py"
                    or name.startswith("test_")
                    or name.endswith("_test.py")
                    or any(part in TEST_FOLDERS for part in parts[:-1])
                )
            )
        return known

    def pytest_code(self, code: CodeType) -> bool:
        """Whether code is pytest's own (or pluggy's, where pluggy is not the package under test)."""
        return not self.package_code(code) and bool(HARNESS.search(code.co_filename))

    def run_by_harness(self, code: CodeType, caller: FrameType | None) -> bool:
        """Whether a call was made by pytest itself, not by the test (a package pytest runs on — pluggy — is called
        by pytest around every test): the first frame out of the package's own code is pytest's, and no frame of the
        tests' code is under it (`pytest.raises(E, f)` calls f for the test). A call from other code (an event loop
        running a callback the test scheduled, a doctest's examples, a thread) is the test's."""
        if self.test_code(code):
            return False
        frame = caller
        while frame is not None and self.package_code(frame.f_code) and not self.test_code(frame.f_code):
            frame = frame.f_back
        if frame is None or not self.pytest_code(frame.f_code):
            return False
        while frame is not None:
            if self.test_code(frame.f_code):
                return False
            frame = frame.f_back
        return True

    def started(self, code: CodeType, caller: FrameType | None) -> None:
        if code not in self.current:
            if self.current is not self.ran[COLLECTING] and self.run_by_harness(code, caller):
                self.harness.setdefault(self.testing, set()).add(code)
            else:
                self.current.add(code)
        if caller is not None and self.package_code(caller.f_code):
            # Every call site: few per pair (the caller's lines that call this callee); a body's lines of defaults
            # and bases tell which definition each of its calls belongs to.
            self.pairs.setdefault((caller.f_code, code), set()).add(caller.f_lineno or 0)
            if len(self.stacks) < MAX_STACKS:
                self.stacks.setdefault(self.stack(code, caller), None)

    def stack(self, code: CodeType, caller: FrameType) -> tuple[CodeType, ...]:
        """The package frames the call of `code` runs under, up to the first frame of other code (a test, pytest,
        the standard library): one real chain of calls, outermost first."""
        frames = [code]
        frame: FrameType | None = caller
        while frame is not None and len(frames) < STACK_FRAMES and self.package_code(frame.f_code):
            frames.append(frame.f_code)
            frame = frame.f_back
        return tuple(reversed(frames))

    def document(self, mode: str, seconds: float) -> dict[str, Any]:
        codes = sorted(
            {c for pair in self.pairs for c in pair}
            | {c for ran in self.ran.values() for c in ran}
            | {c for ran in self.harness.values() for c in ran}
            | {c for stack in self.stacks for c in stack},
            key=key,
        )
        number = {c: i for i, c in enumerate(codes)}
        return {
            "version": VERSION,
            "python": sys.version.split()[0],
            "mode": mode,
            "seconds": round(seconds, 1),
            "outcomes": {o: list(self.outcomes.values()).count(o) for o in sorted(set(self.outcomes.values()))},
            "functions": [list(key(c)) for c in codes],
            "pairs": sorted([number[a], number[b], sorted(lines)] for (a, b), lines in self.pairs.items()),
            "ran": {test: sorted(number[c] for c in ran) for test, ran in sorted(self.ran.items()) if ran},
            "run_by_pytest": {  # what pytest itself ran during a test and the test did not (not counted in `ran`)
                test: sorted(number[c] for c in codes_ if c not in self.ran.get(test, ()))
                for test, codes_ in sorted(self.harness.items())
            },
            "tests": self.tests,
            "stacks": sorted([number[c] for c in stack] for stack in self.stacks),
            "stacks_full": len(self.stacks) >= MAX_STACKS,  # the later stacks were not kept
        }


def key(code: CodeType) -> tuple[str, str, int]:
    return relative(code.co_filename), code.co_qualname, code.co_firstlineno


def relative(filename: str) -> str:
    return os.path.relpath(os.path.realpath(filename), ROOT).replace(os.sep, "/")


RECORDER = Recorder()
STOP: list[Any] = []  # how to stop the hook that was started
STARTED = time.perf_counter()


def _start_monitoring() -> str:
    monitoring = sys.monitoring  # type: ignore[attr-defined]
    tool = next(i for i in range(6) if monitoring.get_tool(i) is None)
    monitoring.use_tool_id(tool, "exec_tracer")
    STOP.append(lambda: monitoring.set_events(tool, 0))

    def on_start(code: CodeType, offset: int) -> object:
        if not RECORDER.package_code(code):
            return monitoring.DISABLE
        RECORDER.started(code, sys._getframe(1).f_back)
        return None

    monitoring.register_callback(tool, monitoring.events.PY_START, on_start)
    monitoring.set_events(tool, monitoring.events.PY_START)
    return "sys.monitoring"


def _start_profile() -> str:
    def on_event(frame: FrameType, event: str, arg: object) -> None:
        if event == "call" and RECORDER.package_code(frame.f_code):
            RECORDER.started(frame.f_code, frame.f_back)

    sys.setprofile(on_event)
    threading.setprofile(on_event)
    STOP.append(lambda: (sys.setprofile(None), threading.setprofile(None)))  # type: ignore[arg-type]
    return "sys.setprofile"


MODE = _start_monitoring() if hasattr(sys, "monitoring") else _start_profile()


def _enter(item: pytest.Item) -> None:
    RECORDER.current = RECORDER.ran.setdefault(item.nodeid, set())
    RECORDER.testing = item.nodeid


def _leave() -> None:
    RECORDER.current = RECORDER.ran[COLLECTING]
    RECORDER.testing = COLLECTING


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> object:
    RECORDER.tests[item.nodeid] = _test_location(item)
    _enter(item)
    try:
        return (yield)
    finally:
        _leave()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> object:
    _enter(item)
    try:
        return (yield)
    finally:
        _leave()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> object:
    _enter(item)
    try:
        return (yield)
    finally:
        _leave()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    worst = ("passed", "skipped", "failed")
    before = RECORDER.outcomes.get(report.nodeid, "passed")
    if report.when == "call" or report.outcome != "passed":
        RECORDER.outcomes[report.nodeid] = max(before, report.outcome, key=worst.index)


def _test_location(item: pytest.Item) -> list[object] | None:
    """Where the test function is defined: [path, qualname, first line], None for an item that is no function."""
    function = getattr(item, "obj", None)
    function = getattr(function, "__func__", function)  # a unittest method, bound
    while hasattr(function, "__wrapped__"):
        function = function.__wrapped__
    code = getattr(function, "__code__", None)
    return list(key(code)) if isinstance(code, CodeType) else None


def pytest_unconfigure(config: pytest.Config) -> None:
    for stop in STOP:
        stop()
    document = RECORDER.document(MODE, time.perf_counter() - STARTED)
    with open(OUT + ".partial", "w", encoding="utf-8") as out:
        json.dump(document, out)
    os.replace(OUT + ".partial", OUT)
