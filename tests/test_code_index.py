"""The code index: names as each language imports them, and tails of names written from outside the project."""

from __future__ import annotations

from trident.ingest.code_index import CodeIndex
from trident.ingest.model import Reference, TargetForm
from trident.store.schema import Entity, Resolution

HANDLE = Entity(
    id="function:lib:billing.handler.Handle",
    name="Handle",
    type="Function",
    project="lib",
    qualified_name="billing.handler.Handle",
    path="billing/handler.go",
)


def _call(target: str) -> Reference:
    return Reference("function:app:x", "CALLS", target, "chunk", ("Function",), TargetForm.QUALIFIED, Resolution.EXACT)


def test_a_go_import_path_finds_the_package_folder_by_its_tail() -> None:
    found, resolution = CodeIndex([HANDLE]).resolve(_call("github.com.acme.lib.billing.Handle"), "app", "cmd/main.go")
    assert [e.id for e in found] == [HANDLE.id] and resolution is Resolution.EXACT


def test_a_name_in_the_files_own_package_is_never_matched_by_its_tail_elsewhere() -> None:
    # `billing.Handle` written in app/billing/main.go is app's own package: lib's billing.Handle is not it.
    found, _ = CodeIndex([HANDLE]).resolve(_call("app.billing.Handle"), "app", "app/billing/main.go")
    assert found == []
    found, _ = CodeIndex([HANDLE]).resolve(_call("billing.Handle"), "app", "billing/main.go")
    assert found == []


def test_python_names_are_never_matched_by_tail() -> None:
    handle = HANDLE.model_copy(update={"path": "billing/handler.py", "id": "function:lib:py"})
    found, _ = CodeIndex([handle]).resolve(_call("acme.billing.handler.Handle"), "app", "app/main.py")
    assert found == []


def test_a_member_of_a_package_type_outside_the_index_is_not_matched_by_class_and_method_alone() -> None:
    query = Entity(
        id="method:db:src.pool.Pool.query",
        name="query",
        type="Method",
        project="db",
        qualified_name="src.pool.Pool.query",
        path="src/pool.ts",
    )
    member = Reference("method:app:x", "CALLS", "query", "chunk", ("Method",), TargetForm.MEMBER, Resolution.INFERRED)
    found, _ = CodeIndex([query]).resolve(member.__class__(**{**member.__dict__, "owner": "pg.Pool"}), "app", "a.ts")
    assert found == []  # `import {Pool} from 'pg'`: pg is not indexed
    found, _ = CodeIndex([query]).resolve(
        member.__class__(**{**member.__dict__, "owner": "db.src.pool.Pool"}), "app", "a.ts"
    )
    assert [e.id for e in found] == [query.id]
