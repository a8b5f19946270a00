"""TypeScript callbacks across files, indexed with the real engines: an untyped parameter of an arrow function passed
to a function another file declares is what that function states its callback's parameter is (rxjs's
`operate((source, subscriber) => source.subscribe(...))`, `operate`'s `init: (liftedSource: Observable<T>,
subscriber: Subscriber<R>) => void`), never a same-named method of an unrelated class; a callback passed to what no
file types (`[1].forEach(x => x.next())`) stays untyped."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.projects import edges_out, indexed_projects
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog

FILES = {
    "src/Observable.ts": "export class Observable<T> {\n  subscribe(s: unknown): void {}\n}\n",
    "src/Subscriber.ts": "export class Subscriber<T> {\n  next(value: T): void {}\n}\n",
    "src/Other.ts": "export class Other {\n  subscribe(): void {}\n  next(): void {}\n}\n",
    "src/lift.ts": (
        "import { Observable } from './Observable';\n"
        "import { Subscriber } from './Subscriber';\n\n"
        "export function operate<T, R>(\n"
        "  init: (liftedSource: Observable<T>, subscriber: Subscriber<R>) => void,\n"
        "): void {}\n"
    ),
    "src/map.ts": (
        "import { operate } from './lift';\n\n"
        "export function map(project: (value: number) => number) {\n"
        "  return operate((source, subscriber) => {\n"
        "    source.subscribe(subscriber);\n"
        "    subscriber.next(project(1));\n"
        "  });\n"
        "}\n\n"
        "export function each() {\n"
        "  [1, 2].forEach((item) => item.next());\n"
        "}\n"
    ),
}


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    cat = indexed_projects(tmp_path_factory.mktemp("ts_callbacks"), {"rx": FILES}, ("rx",))
    yield cat
    cat.close()


def test_a_callback_s_parameters_are_what_the_function_it_is_passed_to_states(
    catalog: Catalog, views: GenerationViews
) -> None:
    calls = edges_out(catalog, views, "function:rx:src.map.map", relation_types=["CALLS"])
    assert calls == {
        ("CALLS", "function:rx:src.lift.operate"): "exact",
        ("CALLS", "method:rx:src.Observable.Observable.subscribe"): "inferred",  # not Other's
        ("CALLS", "method:rx:src.Subscriber.Subscriber.next"): "inferred",
    }


def test_a_callback_passed_to_the_runtime_stays_untyped(catalog: Catalog, views: GenerationViews) -> None:
    calls = edges_out(catalog, views, "function:rx:src.map.each", relation_types=["CALLS"])
    assert calls == {}  # `next` is defined twice: no guess, and `forEach` types nothing
