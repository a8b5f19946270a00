"""The answering side keeps no state in its modules (scripts/check_answering_state.py, run by `make lint`): the
check passes on the code as it is, and flags each kind of state it names."""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from trident.retrieval.answer_state import AnswerState
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.views import GenerationViews

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "check_answering_state.py"


def _checker() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_answering_state", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_the_answering_side_holds_no_module_level_state() -> None:
    assert _checker().main() == 0


@pytest.mark.parametrize(
    ("source", "kind"),
    [
        ("_cache = {}\n", "module-level state"),
        ("_seen: dict[str, int] = {}\n", "module-level state"),
        ("import threading\n_lock = threading.Lock()\n", "module-level state"),
        ("from concurrent.futures import ThreadPoolExecutor\nPOOL = ThreadPoolExecutor(4)\n", "module-level state"),
        ("import functools\n@functools.lru_cache(maxsize=None)\ndef f(x):\n    return x\n", "process-wide memo"),
        ("import threading\ndef f():\n    threading.Thread(target=print).start()\n", "thread started outside"),
    ],
)
def test_each_kind_of_state_is_flagged(source: str, kind: str) -> None:
    found = list(_checker().problems(Path("tools/example.py"), ast.parse(source)))
    assert found and any(kind in problem for problem in found)


def test_tables_of_constants_and_patterns_are_not_state() -> None:
    source = "import re\nUNITS = {'ms': 0.001}\nWORD = re.compile('x')\nNAMES = frozenset({'a'})\n"
    assert list(_checker().problems(Path("retrieval/example.py"), ast.parse(source))) == []


def test_each_reader_has_its_own_pool_and_memories_and_drops_them_with_it() -> None:
    one, other = GenerationViews(RetrievalSettings()), GenerationViews(RetrievalSettings())
    assert one.state.pool is not other.state.pool and one.state.hashes is not other.state.hashes
    assert one.state.submit(sum, [1, 2]).result(timeout=60) == 3
    pool = one.state.pool
    del one
    import gc

    gc.collect()
    with pytest.raises(RuntimeError, match="shutdown"):
        pool.submit(sum, [1])  # the reader was dropped: its pool with it
    assert isinstance(other.state, AnswerState)


def test_a_background_count_that_fails_says_so_and_settles(caplog: pytest.LogCaptureFixture) -> None:
    state = AnswerState(threads=2)

    def broken() -> int:
        raise OSError("the folder went away")

    with caplog.at_level("ERROR", logger="trident.retrieval.answer_state"):
        assert state.pending.last("key", broken, max_age=0.0) == 0  # nothing counted yet: the last count is 0
        assert state.pending.settled(60)
    assert "counting key in the background failed" in caplog.text and "the folder went away" in caplog.text
    assert state.pending.last("key", lambda: 3, max_age=1e9) == 0, "the failed count was remembered as no change"
