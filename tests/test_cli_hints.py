"""The command line prints the calls the tools' answers suggest as `trident` commands a terminal user can paste."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

from tests.conftest import EXAMPLES
from trident.cli.hints import in_terminal


def test_each_suggested_call_becomes_the_command_that_does_the_same() -> None:
    text = (
        "no hits for 'x'; projects left out 3 hit(s): search(query=\"it's here\", top_k=3, projects=['a', 'b']) "
        "shows them; more: trace_relationships(entity='method:p:m.C.f', relation_types=['CALLS'], max_hops=2, "
        "min_resolution='name', explain=True) and status(offset=35)"
    )
    searched = shlex.join(["trident", "search", "it's here", "--top-k", "3", "--project", "a", "--project", "b"])
    assert in_terminal(text) == (
        f"no hits for 'x'; projects left out 3 hit(s): {searched} "
        "shows them; more: trident trace method:p:m.C.f --relation-type CALLS --max-hops 2 --min-resolution name "
        "--explain and trident status --offset 35"
    )
    assert in_terminal("a call it cannot read: search(query=x) stays") == "a call it cannot read: search(query=x) stays"
    assert in_terminal("research(nothing)") == "research(nothing)"


def test_an_empty_search_in_the_terminal_names_the_command_that_shows_the_hits(tmp_path: Path) -> None:
    env = {**os.environ, "TRIDENT_HOME": str(tmp_path / "home")}
    run = [sys.executable, "-m", "trident.cli.main"]
    indexed = subprocess.run([*run, "index", str(EXAMPLES / "auth")], env=env, capture_output=True, text=True)
    assert indexed.returncode == 0, indexed.stderr
    found = subprocess.run(
        [*run, "search", "RotatingKeyStore", "--strategy", "lexical", "--project", "nowhere"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert found.returncode == 0, found.stderr
    assert "trident search RotatingKeyStore" in found.stdout and "search(query=" not in found.stdout, found.stdout
