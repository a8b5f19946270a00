"""Shell with structure: functions (both ways of writing one) with the comment above as description, `source`d and
`.`-read files as imports, a command naming a function of the file as an exact call, a function of a sourced file as
a name guess, and a command held in a variable naming nothing. A small real-shaped project of two scripts, indexed
with the real engines."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.projects import edges_out, indexed_projects
from trident.ingest.walker import FILE_TYPES
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.schema import DocumentKind

UTIL = """# Writes a line to the log.
log_msg() {
  echo "$(date) $*" >> "$LOG"
}

die() {
  log_msg "fatal: $*"
  exit 1
}
"""
DEPLOY = """#!/usr/bin/env bash
DIR="$(cd "$(dirname "$0")" && pwd)"
source ./lib/util.sh
. "$DIR/lib/util.sh"

# Prints how to run this.
usage() {
  echo "usage: deploy TARGET"
}

function deploy {
  local notify=$2
  [ -n "$1" ] || usage
  log_msg "deploying $1"
  $notify "$1"
  rsync -a build/ "$1":
}

deploy "$@"
"""
FILES = {"bin/lib/util.sh": UTIL, "bin/deploy.sh": DEPLOY}


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    cat = indexed_projects(tmp_path_factory.mktemp("bash"), {"ops": FILES}, ("ops",))
    yield cat
    cat.close()


def test_shell_scripts_are_code_with_a_grammar() -> None:
    assert FILE_TYPES[".sh"] == (DocumentKind.CODE, "bash")
    assert FILE_TYPES[".bash"] == (DocumentKind.CODE, "bash")


def test_functions_are_entities_with_their_comments(catalog: Catalog) -> None:
    found = {e.id: e for e in catalog.entities() if e.project == "ops"}
    assert {
        "function:ops:bin.deploy.usage",
        "function:ops:bin.deploy.deploy",  # `function deploy { ... }`
        "function:ops:bin.lib.util.log_msg",
        "function:ops:bin.lib.util.die",
    } <= set(found)
    assert found["function:ops:bin.deploy.usage"].description == "Prints how to run this."
    assert found["function:ops:bin.lib.util.log_msg"].description == "Writes a line to the log."


def test_sourced_files_are_imports(catalog: Catalog, views: GenerationViews) -> None:
    assert edges_out(catalog, views, "module:ops:bin.deploy", relation_types=["IMPORTS"]) == {
        ("IMPORTS", "module:ops:bin.lib.util"): "exact",
    }


def test_commands_call_the_file_s_functions_and_guess_a_sourced_one(catalog: Catalog, views: GenerationViews) -> None:
    assert edges_out(catalog, views, "function:ops:bin.deploy.deploy", relation_types=["CALLS"]) == {
        ("CALLS", "function:ops:bin.deploy.usage"): "exact",
        ("CALLS", "function:ops:bin.lib.util.log_msg"): "name",  # defined in a sourced file: the one of that name
        # `$notify "$1"` runs whatever the caller passed; `rsync` and `echo` are no functions of the project
    }
    assert edges_out(catalog, views, "function:ops:bin.lib.util.die", relation_types=["CALLS"]) == {
        ("CALLS", "function:ops:bin.lib.util.log_msg"): "exact",
    }
