"""Go syntax the binder's rules read (`go`): imports and the names they bind, the names a function declares and the
scopes each is visible in, the parts of a declaration, and which packages and methods belong to the language rather
than to a project."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache

import tree_sitter as ts

from trident.ingest.languages import language_for, node_text
from trident.ingest.languages.scope_rules import Local

# Top-level folders of the standard library: an import path starting with one of them (and no domain) names
# code no project defines.
STANDARD_ROOTS = frozenset(
    {
        "C",  # cgo
        *("archive", "bufio", "builtin", "bytes", "cmp", "compress", "container", "context", "crypto"),
        *("database", "debug", "embed", "encoding", "errors", "expvar", "flag", "fmt", "go", "hash", "html"),
        *("image", "index", "internal", "io", "iter", "log", "maps", "math", "mime", "net", "os", "path"),
        *("plugin", "reflect", "regexp", "runtime", "slices", "sort", "strconv", "strings", "structs", "sync"),
        *("syscall", "testing", "text", "time", "unicode", "unique", "unsafe", "weak"),
    }
)
PREDECLARED_TYPES = frozenset(
    {
        *("any", "bool", "byte", "comparable", "complex64", "complex128", "error", "float32", "float64"),
        *("int", "int8", "int16", "int32", "int64", "rune", "string"),
        *("uint", "uint8", "uint16", "uint32", "uint64", "uintptr"),
    }
)
# Methods of the standard interfaces Go values are most often called through (error, fmt.Stringer, io, sync,
# context): on a receiver of unknown type, such a call is far more likely the standard library's than the one
# project method that happens to share the name.
INTERFACE_METHODS = frozenset(
    {
        *("Error", "Unwrap", "String"),
        *("Read", "Write", "Close", "Seek", "ReadAt", "WriteAt", "WriteString", "ReadFrom", "WriteTo"),
        *("Lock", "Unlock", "RLock", "RUnlock", "Wait", "Done", "Deadline", "Err", "Value"),
    }
)
FUNCTIONS = frozenset({"function_declaration", "method_declaration", "func_literal"})
# Nodes that declare names inside a function (its parameters, `var`, `:=`, `range`, `case v := <-ch`, a type
# switch's variable), found by one query per function rather than a walk in Python over every node.
_DECLARING = (
    *FUNCTIONS,
    *("var_declaration", "const_declaration", "short_var_declaration", "range_clause", "receive_statement"),
    "type_switch_statement",
)
# Nodes that open a block: a name declared in one is visible to its end (a clause of `if`, `for`, `switch` and
# `select`, and each case, is its own implicit block).
SCOPES = frozenset(
    {
        *FUNCTIONS,
        *("block", "if_statement", "for_statement", "expression_switch_statement", "type_switch_statement"),
        *("select_statement", "expression_case", "type_case", "default_case", "communication_case"),
    }
)
# Wrappers around the type a type expression names: `*T`, `(T)`, `T[int]`.
_WRAPPERS = frozenset({"pointer_type", "parenthesized_type", "generic_type"})
_MAJOR_VERSION = re.compile(r"v\d+")


def is_standard(path: str) -> bool:
    """`net/http`, `fmt`: the standard library (its first element has no dot and is one of its folders)."""
    return path.split("/", 1)[0] in STANDARD_ROOTS


def default_names(path: str) -> list[str]:
    """The names a plain import of `path` may bind: its package name, which Go takes from the package clause,
    so the last element and its conventional cleanings (`chi/v5` -> `chi`, `yaml.v3` -> `yaml`, `go-isatty` ->
    `isatty`, `opentracing-go` -> `opentracing`)."""
    parts = [p for p in path.split("/") if p]
    if not parts:
        return []
    names = [parts[-1]]
    if _MAJOR_VERSION.fullmatch(parts[-1]) and len(parts) > 1:
        names.append(parts[-2])
    cleaned = re.sub(r"\.v\d+$", "", names[-1])
    cleaned = cleaned.removeprefix("go-").removesuffix("-go").removesuffix(".go")
    names.append(cleaned.replace("-", "_"))
    return [n for n in dict.fromkeys(names) if n.isidentifier()]


def imports(root: ts.Node) -> tuple[dict[str, str], bool]:
    """The file's imports: local name -> import path (an alias wins over a default name), and whether some
    package is imported with `.` (its exported names then read as unqualified)."""
    named: dict[str, str] = {}
    by_default: list[tuple[list[str], str]] = []
    dot = False
    for declaration in root.named_children:
        if declaration.type != "import_declaration":
            continue
        specs = [s for c in declaration.named_children for s in ([c] if c.type == "import_spec" else c.named_children)]
        for spec in (s for s in specs if s.type == "import_spec"):
            alias, path = node_text(spec.child_by_field_name("name")), node_text(spec.child_by_field_name("path"))
            path = path.strip('"`')
            dot = dot or alias == "."
            if alias and alias not in (".", "_"):
                named[alias] = path
            elif not alias:
                by_default.append((default_names(path), path))
    guessed: dict[str, str] = {}
    for rank in range(max((len(names) for names, _ in by_default), default=0)):  # every last element first
        for names, path in by_default:
            if rank < len(names):
                guessed.setdefault(names[rank], path)
    return {**guessed, **named}, dot


def named_type(node: ts.Node | None) -> ts.Node | None:
    """The named part of a type expression: `*pkg.T[int]` -> `pkg.T`; anything else as it is."""
    while node is not None and node.type in _WRAPPERS:
        node = node.child_by_field_name("type") or (node.named_children[0] if node.named_child_count else None)
    return node


def element_type(node: ts.Node) -> ts.Node | None:
    """The element a slice, array, map (its value) or channel type holds; None for any other type."""
    if node.type in ("slice_type", "array_type", "implicit_length_array_type"):
        return node.child_by_field_name("element")
    if node.type in ("map_type", "channel_type"):
        return node.child_by_field_name("value")
    return None


def scope_of(node: ts.Node) -> ts.Node:
    """The block a declaration's names are visible in (the function itself for its parameters)."""
    current = node.parent
    while current is not None and current.type not in SCOPES:
        current = current.parent
    return current if current is not None else node


@cache
def _declaring_query() -> ts.Query:
    return ts.Query(language_for("go"), "[" + " ".join(f"({kind})" for kind in _DECLARING) + "] @declaring")


def declarations(node: ts.Node) -> list[Local]:
    """The names a function declares (its closures' are their own), each with where it is seen and what states its
    type, in the order written; of the tree's root, the package-level variables and constants of the file."""
    if node.type == "source_file":
        return _package_variables(node)
    found: list[Local] = []
    for declaring in _own_declaring(node):
        kind = declaring.type
        if kind in FUNCTIONS:
            _declare_parameters(declaring, found)
        elif kind in ("var_declaration", "const_declaration"):
            for names, stated, values in value_specs(declaring):
                for name, (kind_node, value, part) in zip(names, _given(names, stated, values), strict=True):
                    visible = name.parent.end_byte if name.parent is not None else name.end_byte
                    _note(found, Local(node_text(name), _span(scope_of(name)), visible, kind_node, value, part))
        elif kind == "type_switch_statement":
            _declare_cases(declaring, found)
        else:
            _declare_assigned(declaring, found)
    return found


def _own_declaring(function: ts.Node) -> list[ts.Node]:
    """The declaring nodes of a function, itself first, not inside a closure of it."""
    found = ts.QueryCursor(_declaring_query()).captures(function).get("declaring", [])
    ordered = sorted(found, key=lambda n: (n.start_byte, -n.end_byte))
    own: list[ts.Node] = []
    closure_end = -1
    for node in ordered:
        if node.start_byte < closure_end:
            continue
        if node.type == "func_literal" and node.id != function.id:
            closure_end = node.end_byte
            continue
        own.append(node)
    return own


def _package_variables(root: ts.Node) -> list[Local]:
    found: list[Local] = []
    for declaration in root.named_children:
        if declaration.type in ("var_declaration", "const_declaration"):
            for names, stated, values in value_specs(declaration):
                for name, (kind, value, part) in zip(names, _given(names, stated, values), strict=True):
                    _note(found, Local(node_text(name), _span(root), root.start_byte, kind, value, part))
    return found


def _given(
    names: list[ts.Node], stated: ts.Node | None, values: list[ts.Node]
) -> list[tuple[ts.Node | None, ts.Node | None, int]]:
    """(stated type, value, which of its values) for each declared name: the stated type, else its own value, else
    the one value's results in order (`c, err := dial()`, `v, ok := m[k]`)."""
    if stated is not None:
        return [(stated, None, 0)] * len(names)
    if len(values) == len(names):
        return [(None, value, 0) for value in values]
    if len(values) == 1:
        return [(None, values[0], part) for part in range(len(names))]
    return [(None, None, 0)] * len(names)


def _declare_parameters(function: ts.Node, found: list[Local]) -> None:
    """A function's receiver, parameters and named results, seen in all of it; a variadic one's type is a slice of the
    type it states (its declaration's node, `element` reads)."""
    span = _span(function)
    for part in ("receiver", "parameters", "result"):
        for names, written, variadic in parameters(function.child_by_field_name(part)):
            kind = written.parent if variadic and written is not None else written
            for name in names:
                _note(found, Local(node_text(name), span, function.start_byte, kind, receiver=part == "receiver"))


def _declare_cases(switch: ts.Node, found: list[Local]) -> None:
    """`switch t := v.(type)`: in a case naming one type, t has that type; in any other, none stated."""
    alias = switch.child_by_field_name("alias")
    names = [n for n in (alias.named_children if alias is not None else []) if n.type == "identifier"]
    for case in (c for c in switch.named_children if c.type in ("type_case", "default_case")):
        types = case.children_by_field_name("type")
        kind = types[0] if len(types) == 1 else None
        for name in names:
            _note(found, Local(node_text(name), _span(case), case.start_byte, kind))


def _declare_assigned(node: ts.Node, found: list[Local]) -> None:
    """`a, err := f()`, `for i, v := range xs`, `case v := <-ch`: each name seen after the statement, to the end of
    its block; a name its block declares already keeps its type where the value's is unknown."""
    names, values = assigned(node)
    ranged = node.type == "range_clause"
    given = [(None, values[0] if values else None, part) for part in range(len(names))] if ranged else None
    for name, (kind, value, part) in zip(names, given or _given(names, None, values), strict=True):
        local = Local(node_text(name), _span(scope_of(name)), node.end_byte, kind, value, part, ranged, redeclares=True)
        _note(found, local)


def _note(found: list[Local], local: Local) -> None:
    if local.name and local.name != "_":
        found.append(local)


def _span(node: ts.Node) -> tuple[int, int]:
    return node.start_byte, node.end_byte


def parameters(holder: ts.Node | None) -> Iterator[tuple[list[ts.Node], ts.Node | None, bool]]:
    """(names, type, variadic) for each declaration of a parameter list (`a, b int`, `args ...T`, an unnamed
    `error`)."""
    for declaration in holder.named_children if holder is not None else []:
        if declaration.type in ("parameter_declaration", "variadic_parameter_declaration"):
            names, written = declaration.children_by_field_name("name"), declaration.child_by_field_name("type")
            yield names, written, declaration.type == "variadic_parameter_declaration"


def results(function: ts.Node) -> Iterator[ts.Node | None]:
    """The type of each result a function declares, in order: `(c *Client, err error)`, `*Client`."""
    result = function.child_by_field_name("result")
    if result is None or result.type != "parameter_list":
        yield from [result] if result is not None else []
        return
    for names, written, _ in parameters(result):
        yield from [written] * max(len(names), 1)


def type_parameters(node: ts.Node) -> dict[str, ts.Node | None]:
    """The type parameters a generic function or type declares, or a method's receiver names (`List[T]`); each stands
    for no project's type (`parameters_outside`), so none is given its constraint."""
    if node.type not in ("function_declaration", "method_declaration", "type_spec"):
        return {}
    holder = node.child_by_field_name("type_parameters")
    declared = holder.named_children if holder is not None else []
    found: set[str] = {node_text(n) for d in declared for n in d.children_by_field_name("name")}
    if node.type == "method_declaration":
        for _, written, _ in parameters(node.child_by_field_name("receiver")):
            while written is not None and written.type in ("pointer_type", "parenthesized_type"):
                written = written.named_children[0] if written.named_child_count else None
            arguments = written.child_by_field_name("type_arguments") if written is not None else None
            if arguments is not None:
                found.update(node_text(a) for a in arguments.named_children)
    return dict.fromkeys(found)


def value_specs(declaration: ts.Node) -> Iterator[tuple[list[ts.Node], ts.Node | None, list[ts.Node]]]:
    """(names, stated type, values) for each spec of a `var` or `const` declaration, grouped or not."""
    for child in declaration.named_children:
        specs = child.named_children if child.type in ("var_spec_list", "const_spec_list") else [child]
        for spec in specs:
            if spec.type in ("var_spec", "const_spec"):
                yield spec.children_by_field_name("name"), spec.child_by_field_name("type"), _values(spec)


def assigned(node: ts.Node) -> tuple[list[ts.Node], list[ts.Node]]:
    """(names, values) of a short variable declaration, a `range` or a `case v := <-ch`; ([], []) for a plain
    assignment (`=`), which declares nothing."""
    if not any(c.type == ":=" for c in node.children):
        return [], []
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    names = [n for n in (left.named_children if left is not None else []) if n.type == "identifier"]
    return names, _values(node) if node.type == "short_var_declaration" else ([right] if right is not None else [])


def embedded_types(body: ts.Node | None) -> Iterator[ts.Node]:
    """The types a struct embeds (its fields without a name) and an interface embeds."""
    if body is not None and body.type == "struct_type":
        fields = next((c for c in body.named_children if c.type == "field_declaration_list"), None)
        for declaration in fields.named_children if fields is not None else []:
            written = declaration.child_by_field_name("type")
            if declaration.type == "field_declaration" and declaration.child_by_field_name("name") is None and written:
                yield written
    elif body is not None and body.type == "interface_type":
        for element in body.named_children:
            if element.type == "type_elem" and element.named_child_count == 1:
                yield element.named_children[0]


def struct_fields(body: ts.Node | None) -> Iterator[tuple[str, ts.Node]]:
    """(field name, type) for each field of a struct type; an embedded type's field is named after the type."""
    fields = next((c for c in body.named_children if c.type == "field_declaration_list"), None) if body else None
    for declaration in fields.named_children if fields is not None else []:
        written = declaration.child_by_field_name("type")
        if declaration.type != "field_declaration" or written is None:
            continue
        names = declaration.children_by_field_name("name")
        if names:
            yield from ((node_text(n), written) for n in names)
        else:
            base = named_type(written)
            name = base.child_by_field_name("name") if base is not None and base.type == "qualified_type" else base
            yield node_text(name), written


def is_constructor(name: str) -> bool:
    """`NewClient`: by Go convention a constructor of `Client`."""
    return len(name) > 3 and name.startswith("New") and name[3].isupper()


def _values(node: ts.Node) -> list[ts.Node]:
    holder = node.child_by_field_name("value") or node.child_by_field_name("right")
    if holder is None:
        return []
    return list(holder.named_children) if holder.type == "expression_list" else [holder]
