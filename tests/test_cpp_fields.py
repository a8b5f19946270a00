"""C++ whose class is declared in a header and whose methods are defined in a `.cpp`: a field the header declares
(`Document* doc_;`), also a base's, types the calls its methods make on it (`doc_->NewElement()`), and a call's
result is what the function states it returns (`FirstChild()->Name()`), across files, and a class written
without its namespace (`using namespace xml;`) is the project's one class of that name — never a same-named member
of an unrelated class. Indexed with the real engines."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.projects import edges_out, indexed_projects
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog

DOC_H = """#pragma once

namespace xml {

class Document;
class Element;

class Node {
 public:
  Element* FirstChild();
  void Insert(Node* n);

 protected:
  Document* doc_;
};

class Element : public Node {
 public:
  const char* Name() const;
  void Rename();
};

class Document : public Node {
 public:
  Element* NewElement(const char* name);
};

/* Same-named members of an unrelated class. */
class Other {
 public:
  Element* NewElement(const char* name);
  const char* Name() const;
};

}  // namespace xml
"""
DOC = """#include "doc.h"

namespace xml {

Element* Node::FirstChild() { return 0; }

void Node::Insert(Node* n) {
  doc_->NewElement("a");
  FirstChild()->Name();
  this->doc_->NewElement("b");
}

const char* Element::Name() const { return "e"; }

void Element::Rename() { doc_->NewElement("c")->Name(); }

Element* Document::NewElement(const char* name) { return 0; }

Element* Other::NewElement(const char* name) { return 0; }

const char* Other::Name() const { return "o"; }

}  // namespace xml
"""


MAIN = """#include "doc.h"

using namespace xml;

int main() {
  Document doc;
  doc.NewElement("x")->Name();
  return 0;
}
"""


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    cat = indexed_projects(
        tmp_path_factory.mktemp("cpp_fields"),
        {"xml": {"src/doc.h": DOC_H, "src/doc.cpp": DOC, "src/main.cpp": MAIN}},
        ("xml",),
    )
    yield cat
    cat.close()


def test_a_field_the_header_declares_types_its_calls_in_the_cpp_file(catalog: Catalog, views: GenerationViews) -> None:
    calls = edges_out(catalog, views, "method:xml:src.doc.Node.Insert", relation_types=["CALLS"])
    assert calls == {
        ("CALLS", "method:xml:src.doc.Document.NewElement"): "inferred",  # `doc_->`, `this->doc_->`: not Other's
        ("CALLS", "method:xml:src.doc.Node.FirstChild"): "exact",
        ("CALLS", "method:xml:src.doc.Element.Name"): "inferred",  # what `FirstChild()` states it returns
    }


def test_a_base_s_field_and_a_call_s_result_chain_across_files(catalog: Catalog, views: GenerationViews) -> None:
    calls = edges_out(catalog, views, "method:xml:src.doc.Element.Rename", relation_types=["CALLS"])
    assert calls == {  # `doc_` is Node's, `NewElement` gives an Element
        ("CALLS", "method:xml:src.doc.Document.NewElement"): "inferred",
        ("CALLS", "method:xml:src.doc.Element.Name"): "inferred",
    }


def test_a_class_written_without_its_namespace_is_the_project_s_one_class_of_that_name(
    catalog: Catalog, views: GenerationViews
) -> None:
    calls = edges_out(catalog, views, "function:xml:src.main.main", relation_types=["CALLS"])
    assert calls == {  # `using namespace xml;` then `Document doc;`
        ("CALLS", "method:xml:src.doc.Document.NewElement"): "inferred",
        ("CALLS", "method:xml:src.doc.Element.Name"): "inferred",
    }
