"""C++ a library writes with its own annotation macros (jsoncpp's `JSONCPP_TEMPLATE_DELETE`, `JSON_API`, leveldb's
`EXCLUSIVE_LOCKS_REQUIRED(mu_)`): a file that does not parse is read again with them blanked, so a class holding one
is still a class with its methods, on the rows it is written on; a macro that is a call stays a call."""

from __future__ import annotations

from trident.ingest.code import parse_code
from trident.ingest.languages.cpp_macros import without_annotation_macros

HEADER = """namespace Json {

JSONCPP_NORETURN void throwRuntimeError(String const& msg);

class Value {
 public:
  template <typename T> T as() const JSONCPP_TEMPLATE_DELETE;
  JSONCPP_DEPRECATED("Use size() instead.")
  int length() const;
  int size() const { return count_; }
  void clear() EXCLUSIVE_LOCKS_REQUIRED(mutex_);

 private:
  int count_ GUARDED_BY(mutex_);
};

String JSON_API valueToString(int value);

}  // namespace Json
"""


def test_a_class_with_annotation_macros_keeps_its_definitions() -> None:
    extraction = parse_code("json", "include/json/value.h", HEADER, "cpp", "doc")
    found = {e.qualified_name: e for e in extraction.entities}
    assert "include.json.value.h.Value" in found
    assert found["include.json.value.h.Value"].type == "Class"
    assert found["include.json.value.h.Value.size"].type == "Method"


def test_blanking_keeps_the_rows_and_the_declarations() -> None:
    source = HEADER.encode()
    blanked = without_annotation_macros(source)
    assert len(blanked) == len(source)
    assert blanked.count(b"\n") == source.count(b"\n")
    for macro in (b"JSONCPP_NORETURN", b"JSONCPP_TEMPLATE_DELETE", b"JSONCPP_DEPRECATED", b"EXCLUSIVE_LOCKS_REQUIRED"):
        assert macro not in blanked
    assert b"GUARDED_BY" not in blanked and b"JSON_API" not in blanked
    assert b"T as() const" in blanked and b"int count_" in blanked and b"String          valueToString(" in blanked


def test_a_macro_that_is_a_call_stays() -> None:
    source = b"void run() {\n  if (ready) RUN_ALL_TESTS(x);\n  while (more(y)) STEP_ONCE;\n  return CHECK_OK(z);\n}\n"
    assert without_annotation_macros(source) == source
