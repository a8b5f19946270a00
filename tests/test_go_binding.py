"""Go calls and embedded types bound by package, import and stated type: what the binder says, and the edges."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.projects import call_edges, indexed_projects
from trident.ingest.code import parse_code
from trident.ingest.languages.go_syntax import default_names
from trident.ingest.model import Reference, TargetForm
from trident.retrieval.reader import Reader
from trident.store.catalog import Catalog
from trident.store.schema import Resolution
from trident.tools.trace import Direction, trace_relationships

EXACT, INFERRED, NAME = Resolution.EXACT, Resolution.INFERRED, Resolution.NAME
MEMBER, QUALIFIED, BARE = TargetForm.MEMBER, TargetForm.QUALIFIED, TargetForm.NAME
PATH = "pkg/server/handler.go"


def _references(text: str, path: str = PATH, kind: str = "CALLS") -> list[Reference]:
    return [r for r in parse_code("shop", path, text, "go", "doc").references if r.type == kind]


def _calls(text: str, path: str = PATH) -> set[tuple[str, TargetForm, Resolution, str, str]]:
    """(caller's local name, form, resolution, owner, target) for each call; the caller without its module."""
    module = path.removesuffix(".go").replace("/", ".")
    return {
        (r.source.split(":", 2)[-1].removeprefix(module).removeprefix("."), r.form, r.resolution, r.owner, r.target)
        for r in _references(text, path)
    }


def _targets(text: str, caller: str, path: str = PATH) -> set[str]:
    return {f"{owner}::{target}" if owner else target for c, _, _, owner, target in _calls(text, path) if c == caller}


def test_a_receiver_call_is_an_exact_member_of_the_receiver_type_in_its_package() -> None:
    text = """package server

type Server struct{}

func (s *Server) Handle() { s.flush() }

func (q Queue[T]) Push(v T) { q.grow() }
"""
    calls = _calls(text)
    assert ("Server.Handle", MEMBER, EXACT, "pkg.server.Server", "flush") in calls
    # A method of a type declared in another file of the folder: the package still names the type.
    assert ("Queue.Push", MEMBER, EXACT, "pkg.server.Queue", "grow") in calls


def test_an_imported_package_call_is_qualified_by_its_import_path() -> None:
    text = """package server

import (
	"github.com/acme/shop/pkg/store"
	billing "github.com/acme/shop/internal/billing/v2"
	"gopkg.in/yaml.v3"
	"github.com/go-chi/chi/v5"
)

func run() {
	store.Open("db")
	billing.Charge(1)
	yaml.Unmarshal(nil, nil)
	chi.NewRouter()
}
"""
    assert _targets(text, "run") == {
        "github.com.acme.shop.pkg.store.Open",
        "github.com.acme.shop.internal.billing.v2.Charge",
        "gopkg.in.yaml.v3.Unmarshal",
        "github.com.go-chi.chi.v5.NewRouter",
    }
    assert all(r.form is QUALIFIED and r.resolution is EXACT for r in _references(text))


def test_default_import_names_follow_the_package_name_conventions() -> None:
    assert default_names("github.com/go-chi/chi/v5") == ["v5", "chi"]
    assert default_names("gopkg.in/yaml.v3") == ["yaml"]
    assert default_names("github.com/mattn/go-isatty") == ["isatty"]
    assert default_names("net/http") == ["http"]


def test_a_last_path_element_wins_over_a_name_guessed_from_a_major_version() -> None:
    text = """package server

import (
	"k8s.io/api/core/v1"
	"github.com/acme/core"
)

func run() {
	core.Start()
	v1.Pod()
}
"""
    assert _targets(text, "run") == {"github.com.acme.core.Start", "k8s.io.api.core.v1.Pod"}


def test_the_standard_library_builtins_and_predeclared_types_give_no_reference() -> None:
    text = """package server

import (
	"errors"
	"fmt"
	"sync"
)

type Server struct{ mu sync.Mutex }

func (s *Server) Run(items []string) error {
	s.mu.Lock()
	fmt.Println(len(items), cap(items))
	b := []byte("x")
	_ = string(b)
	err := errors.New("x")
	return fmt.Errorf("%w", err)
}
"""
    assert _calls(text) == set()


def test_a_function_of_the_file_is_qualified_by_the_file_and_one_of_the_package_by_the_folder() -> None:
    text = """package server

func helper() {}

func run() {
	helper()
	render()
}
"""
    assert _calls(text) == {
        ("run", QUALIFIED, EXACT, "", "pkg.server.handler.helper"),
        ("run", QUALIFIED, EXACT, "", "pkg.server.render"),
    }


def test_a_file_at_the_project_root_names_its_package_by_bare_names() -> None:
    text = """package main

func main() {
	serve()
	s := NewServer()
	s.Start()
}
"""
    assert _calls(text, "main.go") == {
        ("main", QUALIFIED, EXACT, "", "serve"),
        ("main", QUALIFIED, EXACT, "", "NewServer"),
        ("main", MEMBER, INFERRED, "Server", "Start"),
    }


def test_stated_types_of_locals_parameters_and_fields_give_inferred_members() -> None:
    text = """package server

import "github.com/acme/shop/pkg/store"

type Server struct {
	pool  *store.Pool
	cache Cache
}

func (s *Server) Run(c *Client, jobs ...*Job) {
	var q *Queue
	w := &Worker{id: 1}
	l := Ledger{}
	p := new(Pipe)
	q.Push()
	w.Start()
	l.Post()
	p.Send()
	c.Do()
	jobs[0].Cancel()
	s.pool.Get()
	s.cache.Evict()
}
"""
    assert _targets(text, "Server.Run") == {
        "pkg.server.Queue::Push",
        "pkg.server.Worker",
        "pkg.server.Worker::Start",
        "pkg.server.Ledger",
        "pkg.server.Ledger::Post",
        "pkg.server.Pipe::Send",
        "pkg.server.Client::Do",
        "pkg.server.Job::Cancel",
        "github.com.acme.shop.pkg.store.Pool::Get",
        "pkg.server.Cache::Evict",
    }
    members = [r for r in _references(text) if r.form is MEMBER]
    assert members and all(r.resolution is INFERRED for r in members)


def test_a_constructor_result_type_comes_from_the_file_before_the_new_convention() -> None:
    text = """package server

import "github.com/acme/shop/pkg/store"

func NewServer() (*Router, error) { return nil, nil }

func (r *Router) client() *store.Client { return nil }

func run() {
	srv, err := NewServer()
	srv.Mount()
	srv.client().Fetch()
	db := store.NewDB()
	db.Query()
	err.Error()
}
"""
    assert _targets(text, "run") == {
        "pkg.server.handler.NewServer",
        "pkg.server.Router::Mount",
        "pkg.server.Router::client",
        "github.com.acme.shop.pkg.store.Client::Fetch",
        "github.com.acme.shop.pkg.store.NewDB",
        "github.com.acme.shop.pkg.store.DB::Query",
    }


def test_a_local_shadows_an_import_and_its_type_ends_with_its_block() -> None:
    text = """package server

import "github.com/acme/shop/pkg/store"

func run(ok bool) {
	var conn Conn
	if ok {
		conn := &Pipe{}
		conn.Flush()
		store := &Shelf{}
		store.Open()
	}
	conn.Close2()
	store.Open()
}
"""
    assert _targets(text, "run") == {
        "pkg.server.Pipe",
        "pkg.server.Pipe::Flush",
        "pkg.server.Shelf",
        "pkg.server.Shelf::Open",
        "pkg.server.Conn::Close2",
        "github.com.acme.shop.pkg.store.Open",
    }


def test_conversions_and_composite_literals_name_their_type() -> None:
    text = """package server

import "github.com/acme/shop/pkg/store"

type ID string

func Map[T any](xs []T) []T { return xs }

func run(x int) {
	_ = ID("a")
	_ = (*Pipe)(nil)
	_ = store.Item{Name: "x"}
	_ = Map[int](nil)
	_ = []Pipe{}
	_ = map[string]int{}
}
"""
    assert _calls(text) == {
        ("run", QUALIFIED, EXACT, "", "pkg.server.ID"),
        ("run", QUALIFIED, EXACT, "", "pkg.server.Pipe"),
        ("run", QUALIFIED, EXACT, "", "github.com.acme.shop.pkg.store.Item"),
        ("run", QUALIFIED, EXACT, "", "pkg.server.handler.Map"),
    }


def test_a_result_of_another_file_s_method_is_named_by_it_and_a_standard_interface_method_nothing() -> None:
    text = """package server

func run(r Reader, x interface{}) {
	v := r.Load()
	v.Settle()
	v.Close()
	v.String()
	x.(Loader).Settle()
}
"""
    # `Load` is declared in another file of the package: what it gives is named by it, for the indexer to type by
    # the result its file states; `x` is untyped: the bare name
    assert _calls(text) == {
        ("run", MEMBER, INFERRED, "pkg.server.Reader", "Load"),
        ("run", MEMBER, INFERRED, "pkg.server.Reader.Load", "Settle"),
        ("run", MEMBER, INFERRED, "pkg.server.Loader", "Settle"),
    }


def test_function_values_are_not_calls_of_a_definition() -> None:
    text = """package server

var hook = func() {}

type Server struct{ now func() Clock }

func (s *Server) run(next func()) {
	done := func() {}
	done()
	next()
	hook()
	s.now().Tick()
}
"""
    assert _calls(text) == {("Server.run", MEMBER, INFERRED, "pkg.server.Clock", "Tick")}


def test_type_switch_cases_and_ranged_collections_type_their_variables() -> None:
    text = """package server

func run(v any, jobs []*Job, byName map[string]Worker, ch chan *Task) {
	switch t := v.(type) {
	case *Pipe:
		t.Flush()
	case Conn, Shelf:
		t.Open()
	}
	for _, j := range jobs {
		j.Cancel()
	}
	for name, w := range byName {
		w.Start(name)
	}
	for task := range ch {
		task.Finish()
	}
	if c, ok := v.(*Conn); ok {
		c.Close2()
	}
}
"""
    assert _targets(text, "run") == {
        "pkg.server.Pipe::Flush",
        "Open",
        "pkg.server.Job::Cancel",
        "pkg.server.Worker::Start",
        "pkg.server.Task::Finish",
        "pkg.server.Conn::Close2",
    }


def test_a_dot_import_leaves_exported_unknown_names_as_bare_names() -> None:
    text = """package server

import . "github.com/acme/shop/pkg/store"

func run() {
	Open()
	helper()
}
"""
    assert _calls(text) == {("run", BARE, NAME, "", "Open"), ("run", QUALIFIED, EXACT, "", "pkg.server.helper")}


def test_embedded_types_are_bases_qualified_through_imports_and_the_package() -> None:
    text = """package server

import (
	"sync"

	"github.com/acme/shop/pkg/store"
)

type Server struct {
	*Base
	store.Cache
	sync.Mutex
	name string
}

type ReadCloser interface {
	Reader
	Close() error
}
"""
    bases = {(r.source.rsplit(".", 1)[-1], r.form, r.resolution, r.target) for r in _references(text, kind="INHERITS")}
    assert bases == {
        ("Server", QUALIFIED, EXACT, "pkg.server.Base"),
        ("Server", QUALIFIED, EXACT, "github.com.acme.shop.pkg.store.Cache"),
        ("ReadCloser", QUALIFIED, EXACT, "pkg.server.Reader"),
    }


def test_a_call_on_a_field_of_a_struct_declared_elsewhere_is_only_a_name() -> None:
    text = """package server

func (s *Server) run() { s.db.Query() }
"""
    assert _calls(text) == {("Server.run", BARE, NAME, "", "Query")}


def test_a_conversion_and_an_append_are_values_of_their_type_and_a_local_type_is_no_package_type() -> None:
    text = """package server

type Pipe struct{}

var fallback = &Pipe{}

func run(p *Pipe, pipes []*Pipe) {
	(*Pipe)(p).Flush()
	append(pipes, p)[0].Close2()
	fallback.Drain()
}

func local() {
	type Pipe struct{}
	_ = Pipe{}
}
"""
    assert _targets(text, "run") == {
        "pkg.server.Pipe",
        "pkg.server.Pipe::Flush",
        "pkg.server.Pipe::Close2",
        "pkg.server.Pipe::Drain",
    }
    assert _targets(text, "local") == set()


def test_each_result_of_a_call_types_the_name_it_is_given() -> None:
    text = """package server

func dial() (*Conn, *Pipe) { return nil, nil }

func run() {
	c, p := dial()
	c.Close2()
	p.Flush()
}
"""
    assert _targets(text, "run") == {"pkg.server.handler.dial", "pkg.server.Conn::Close2", "pkg.server.Pipe::Flush"}


# --- end to end: the edges the index makes of them ---

PROJECTS: dict[str, dict[str, str]] = {
    "lib": {
        "go.mod": "module github.com/acme/lib\n",
        "client/client.go": (
            "package client\n\n"
            "type Client struct{ base string }\n\n"
            "func NewClient(base string) *Client { return &Client{base: base} }\n"
        ),
        "client/do.go": (
            "package client\n\n"
            "// Do sends a request; declared apart from its type.\n"
            "func (c *Client) Do(path string) error { return nil }\n"
        ),
    },
    "app": {
        "go.mod": "module example.com/app\n",
        "internal/writer/sync.go": (
            "package writer\n\n"
            "type SyncWriter struct{}\n\n"
            "func (w *SyncWriter) Write(b []byte) { w.flush() }\n\n"
            "func (w *SyncWriter) flush() {}\n"
        ),
        "internal/writer/async.go": (
            "package writer\n\n"
            "type AsyncWriter struct{}\n\n"
            "func (w *AsyncWriter) Write(b []byte) { w.flush() }\n\n"
            "func (w *AsyncWriter) flush() {}\n"
        ),
        "internal/store/store.go": (
            "package store\n\ntype Store struct{}\n\nfunc (s *Store) Get(key string) string { return key }\n"
        ),
        "internal/server/server.go": (
            "package server\n\n"
            "import (\n"
            '\t"example.com/app/internal/store"\n'
            '\t"github.com/acme/lib/client"\n'
            ")\n\n"
            "type Server struct {\n\tstore *store.Store\n}\n\n"
            "func (s *Server) Handle(key string) string {\n"
            "\tc := client.NewClient(key)\n"
            "\tc.Do(key)\n"
            "\treturn s.store.Get(normalize(key))\n"
            "}\n"
        ),
        "internal/server/keys.go": "package server\n\nfunc normalize(key string) string { return key }\n",
        "internal/router/route.go": (
            "package router\n\n"
            "type Route struct{ name string }\n\n"
            "func (r *Route) Subrouter() *Router { return &Router{} }\n\n"
            "type Router struct{ routes []*Route }\n\n"
            "func (r *Router) Path(p string) *Route { return &Route{name: p} }\n\n"
            "func build(p string) *Route { return &Route{name: p} }\n"
        ),
        "internal/ids/id.go": (
            "package ids\n\ntype ID [4]byte\n\nfunc (i ID) Version() int { return 1 }\n\ntype Name string\n"
        ),
        "internal/ids/parse.go": (
            "package ids\n\n"
            "func Parse(s string) ID { return ID{} }\n\n"
            "func Check(s string) int {\n"
            "\tid := Parse(s)\n"
            "\treturn id.Version()\n"
            "}\n"
        ),
        "internal/router/walk.go": (
            "package router\n\n"
            "func Walk(r *Router) {\n"
            '\tr.Path("/g").Subrouter()\n'
            '\tsub := build("/h")\n'
            "\tsub.Subrouter()\n"
            "}\n"
        ),
        "main.go": "package main\n\nfunc main() { serve() }\n",
        "serve.go": "package main\n\nfunc serve() {}\n",
    },
}
SYNC_WRITE = "method:app:internal.writer.sync.SyncWriter.Write"
SYNC_FLUSH = "method:app:internal.writer.sync.SyncWriter.flush"
ASYNC_WRITE = "method:app:internal.writer.async.AsyncWriter.Write"
ASYNC_FLUSH = "method:app:internal.writer.async.AsyncWriter.flush"
HANDLE = "method:app:internal.server.server.Server.Handle"
STORE_GET = "method:app:internal.store.store.Store.Get"
NORMALIZE = "function:app:internal.server.keys.normalize"
CLIENT_DO = "method:lib:client.do.Client.Do"
NEW_CLIENT = "function:lib:client.client.NewClient"


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    # the app first: its calls into the library resolve when the library arrives
    cat = indexed_projects(tmp_path_factory.mktemp("go_binding"), PROJECTS, ("app", "lib"))
    yield cat
    cat.close()


def test_a_receiver_call_in_each_twin_type_links_only_to_its_own_method(catalog: Catalog) -> None:
    callers = trace_relationships(
        Reader.open(catalog), SYNC_FLUSH, direction=Direction.IN, relation_types=["CALLS"], max_hops=1
    )
    assert [(e.source, e.resolution) for e in callers.edges] == [(SYNC_WRITE, Resolution.EXACT)]
    edges = call_edges(catalog)
    assert edges[(ASYNC_WRITE, ASYNC_FLUSH)].resolution == Resolution.EXACT
    assert (ASYNC_WRITE, SYNC_FLUSH) not in edges


def test_a_typed_field_call_links_to_the_method_of_the_fields_package(catalog: Catalog) -> None:
    edge = call_edges(catalog)[(HANDLE, STORE_GET)]
    assert edge.resolution == Resolution.INFERRED


def test_an_imported_constructor_and_its_result_link_into_the_other_project(catalog: Catalog) -> None:
    edges = call_edges(catalog)
    assert edges[(HANDLE, NEW_CLIENT)].resolution == Resolution.EXACT
    assert edges[(HANDLE, CLIENT_DO)].resolution == Resolution.INFERRED  # a method declared apart from its type


def test_a_call_into_another_file_of_the_package_links_by_the_package_name(catalog: Catalog) -> None:
    edges = call_edges(catalog)
    assert edges[(HANDLE, NORMALIZE)].resolution == Resolution.EXACT
    assert edges[("function:app:main.main", "function:app:serve.serve")].resolution == Resolution.EXACT  # root files


def test_the_result_of_a_function_or_method_of_another_file_is_typed_by_what_it_states(catalog: Catalog) -> None:
    walk, route = "function:app:internal.router.walk.Walk", "internal.router.route"
    edges = call_edges(catalog)
    assert edges[(walk, f"method:app:{route}.Router.Path")].resolution == Resolution.INFERRED
    assert edges[(walk, f"function:app:{route}.build")].resolution == Resolution.EXACT
    # `r.Path("/g").Subrouter()` and `sub := build("/h")`: each a *Route, as route.go states
    assert edges[(walk, f"method:app:{route}.Route.Subrouter")].resolution == Resolution.INFERRED


def test_a_named_type_with_methods_is_a_type_whatever_its_underlying_type(catalog: Catalog) -> None:
    ids = {e.id for e in catalog.entities()}
    assert "class:app:internal.ids.id.ID" in ids  # `type ID [4]byte` with a method
    assert "class:app:internal.ids.id.Name" not in ids  # `type Name string` alone: no type to speak of
    check, version = "function:app:internal.ids.parse.Check", "method:app:internal.ids.id.ID.Version"
    assert call_edges(catalog)[(check, version)].resolution == Resolution.INFERRED  # `id := Parse(s)`, another file
