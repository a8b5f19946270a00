"""C with structure: functions (named inside their declarator, old-style parameter lists too), structs, function-like
macros (their bodies' calls read as C), the comment above a definition as its description, `#include` as imports
(`buf.h` beside `buf.c`: two modules); calls bound by what C states — a function the file defines, else the
project's one top-level function of that name (what the linker binds); a call of a parameter or a struct field (a
function pointer) links nothing, nor does a name two files define. A file whose `#ifdef` splits a statement is read
in its first configuration. A small real-shaped project of four files, indexed with the real engines."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.projects import edges_out, indexed_projects
from trident.ingest.walker import FILE_TYPES
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.schema import DocumentKind

HEADER = """#ifndef BUF_H
#define BUF_H

/* A growable byte buffer. */
struct buf {
    char *data;
    int len;
};

int buf_grow(struct buf *b, int size);

/* Twice a length. */
static inline int twice(int n) { return n * 2; }

/* Grows the buffer when full, then appends one byte. */
#define BUF_PUSH(b, c) \\
    (((b)->len < 8 || buf_grow((b), twice((b)->len))) ? ((b)->data[(b)->len++] = (c)) : 0)

#endif
"""
BUF = """#include <stdlib.h>
#include "buf.h"

static int clamp(int n) { return n < 0 ? 0 : n; }

/* Grows the buffer to at least size bytes. */
int buf_grow(struct buf *b, int size)
{
    b->data = realloc(b->data, clamp(size));
    return b->data != 0;
}

int buf_len(b)
    struct buf *b;
{
    return clamp(b->len);
}
"""
WRITER = """#include "buf.h"

struct sink { int (*write)(const char *s); };

static int clamp(int n) { return n > 8 ? 8 : n; }

int write_all(struct buf *b, struct sink *out, int (*flush)(void))
{
    int n = buf_len(b);
    BUF_PUSH(b, 0);
    out->write(b->data);
    flush();
    return clamp(n);
}

int checked(struct buf *b)
{
#ifdef STRICT
    if (b->len > 0 && buf_len(b) > 1) {
#else
    if (b->len > 0) {
#endif
        return buf_grow(b, 16);
    }
    return 0;
}

int flush(void) { return 0; }
"""
MAIN = """int main(void)
{
    return clamp(3) + buf_len(0);
}
"""
FILES = {"src/buf.h": HEADER, "src/buf.c": BUF, "src/writer.c": WRITER, "src/main.c": MAIN}


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    cat = indexed_projects(tmp_path_factory.mktemp("c"), {"cbuf": FILES}, ("cbuf",))
    yield cat
    cat.close()


def _calls(catalog: Catalog, views: GenerationViews, entity: str) -> dict[tuple[str, str], str]:
    return edges_out(catalog, views, entity, relation_types=["CALLS"])


def test_c_and_header_files_are_code_with_a_grammar() -> None:
    assert FILE_TYPES[".c"] == (DocumentKind.CODE, "c")
    assert FILE_TYPES[".h"] == (DocumentKind.CODE, "c")


def test_functions_structs_and_macros_are_entities_with_their_comments(catalog: Catalog) -> None:
    found = {e.id: e for e in catalog.entities() if e.project == "cbuf"}
    assert {
        "module:cbuf:src.buf",
        "module:cbuf:src.buf.h",  # the header beside its source: two modules
        "class:cbuf:src.buf.h.buf",
        "function:cbuf:src.buf.h.twice",
        "function:cbuf:src.buf.h.BUF_PUSH",
        "function:cbuf:src.buf.buf_grow",
        "function:cbuf:src.buf.buf_len",  # an old-style parameter list
        "function:cbuf:src.buf.clamp",
        "function:cbuf:src.writer.clamp",
        "function:cbuf:src.writer.checked",
    } <= set(found)
    assert "function:cbuf:src.buf.h.buf_grow" not in found  # a prototype declares, it does not define
    assert found["module:cbuf:src.buf.h"].name == "buf.h"
    assert found["class:cbuf:src.buf.h.buf"].description == "A growable byte buffer."
    assert found["function:cbuf:src.buf.buf_grow"].description == "Grows the buffer to at least size bytes."
    assert found["function:cbuf:src.buf.h.BUF_PUSH"].description.startswith("Grows the buffer when full")


def test_includes_are_imports(catalog: Catalog, views: GenerationViews) -> None:
    assert edges_out(catalog, views, "module:cbuf:src.writer", relation_types=["IMPORTS"]) == {
        ("IMPORTS", "module:cbuf:src.buf.h"): "exact"
    }


def test_calls_bind_to_the_file_s_own_function_else_the_one_the_linker_finds(
    catalog: Catalog, views: GenerationViews
) -> None:
    assert _calls(catalog, views, "function:cbuf:src.writer.write_all") == {
        ("CALLS", "function:cbuf:src.buf.buf_len"): "inferred",  # defined in another file, once in the project
        ("CALLS", "function:cbuf:src.buf.h.BUF_PUSH"): "inferred",  # a macro, called as a function is
        ("CALLS", "function:cbuf:src.writer.clamp"): "exact",  # this file's static clamp, not buf.c's
        # `out->write(...)` and `flush()` (a parameter) call function pointers: neither links `flush` below
    }
    assert _calls(catalog, views, "function:cbuf:src.buf.buf_len") == {
        ("CALLS", "function:cbuf:src.buf.clamp"): "exact",
    }


def test_a_macro_s_body_calls_what_it_expands_to(catalog: Catalog, views: GenerationViews) -> None:
    assert _calls(catalog, views, "function:cbuf:src.buf.h.BUF_PUSH") == {
        ("CALLS", "function:cbuf:src.buf.buf_grow"): "inferred",
        ("CALLS", "function:cbuf:src.buf.h.twice"): "exact",
    }


def test_a_name_two_files_define_is_not_guessed(catalog: Catalog, views: GenerationViews) -> None:
    assert _calls(catalog, views, "function:cbuf:src.main.main") == {
        ("CALLS", "function:cbuf:src.buf.buf_len"): "inferred",  # `clamp`: two files' static functions, neither
    }


def test_an_ifdef_splitting_a_statement_is_read_in_its_first_configuration(
    catalog: Catalog, views: GenerationViews
) -> None:
    assert _calls(catalog, views, "function:cbuf:src.writer.checked") == {
        ("CALLS", "function:cbuf:src.buf.buf_len"): "inferred",
        ("CALLS", "function:cbuf:src.buf.buf_grow"): "inferred",
    }
    found = {e.id for e in catalog.entities() if e.project == "cbuf"}
    assert "function:cbuf:src.writer.flush" in found  # the definitions after the split are still read


def test_impact_reads_c_files_and_every_language_with_a_binder_as_bound() -> None:
    from trident.retrieval.impact_reasons import UNBOUND_SUFFIXES

    assert {".c", ".h", ".cpp", ".hpp", ".cs", ".php", ".rb"}.isdisjoint(
        UNBOUND_SUFFIXES
    )  # were once listed as text only
    assert {".dart", ".hs", ".zsh"} <= UNBOUND_SUFFIXES
