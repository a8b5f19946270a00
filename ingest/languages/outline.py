"""The outline of one source file: its definitions, nested as written, and the calls, imports and bases in it.

A single walk over the tree-sitter tree, driven by a LanguageSpec; the chunker lays the outline out and turns
its names into entity ids. Rows are 0-based, as tree-sitter counts them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

import tree_sitter as ts

from trident.ingest.languages import LanguageSpec, node_text, terminal_name
from trident.ingest.languages.binding import BaseSite, CallSite, DefinitionSite, Found
from trident.store.schema import EntityType

DESCRIPTION_CHARS = 300
_NAME = re.compile(r"~?[\w$#]+[!?=]?")  # Ruby names end in `!`, `?` or `=`; a C++ destructor is `~Circle`
_COMMENT_OPEN = re.compile(r"^\s*(?:/\*+!?|//[/!]?|#+|\*+(?!/)|-{2,})")  # `--` opens Lua's
_COMMENT_CLOSE = re.compile(r"\*+/\s*$")
# C# XML documentation: the summary's tags go, a reference keeps the name it refers to (`<see cref="Foo"/>`), and
# the tags that follow the summary (`<param>`, `<returns>`, ...) end the first paragraph as `@param` does.
_XML_SUMMARY = re.compile(r"</?summary>|</?c>|</?para>")
_XML_REFERENCE = re.compile(r"<(?:see|seealso|paramref|typeparamref)\s+(?:cref|name|langword)=\"([^\"]*)\"\s*/>")
_XML_SECTIONS = ("<param", "<typeparam", "<returns", "<remarks", "<exception", "<example", "<value")


@dataclass(eq=False)
class Symbol:
    """A definition in the outline; `kind` None marks a container (Rust `impl`/`mod`): a chunk, no entity."""

    kind: str | None
    name: str
    local: str  # qualified within the file: "OrderService.checkout"
    owner: str  # local name of the class it belongs to, "" if none
    start: int  # 0-based first row, decorators, attributes and the doc comment above included
    end: int  # 0-based last row
    description: str = ""
    children: list[Symbol] = field(default_factory=list)
    namespace: str = ""  # the namespace it is declared in (C#, PHP), dotted: `Acme.Billing`
    extends: str = ""  # the type an extension method extends, by its short name (C#)

    def names(self) -> tuple[str, ...]:
        """Its name, `Class.method`, its local name and, in a namespace, the name code writes for it; an extension
        method's also as a member of the type it extends (`IReader.Read`)."""
        if self.kind is None:
            return ()
        owned = f"{self.owner.rsplit('.', 1)[-1]}.{self.name}" if self.owner else self.name
        written = (f"{self.namespace}.{self.local}",) if self.namespace else ()
        extended = (f"{self.extends}.{self.name}",) if self.extends else ()
        return tuple(dict.fromkeys((self.name, owned, self.local, *written, *extended)))

    def walk(self) -> Iterator[Symbol]:
        yield self
        for child in self.children:
            yield from child.walk()


@dataclass(frozen=True)
class _Scope:
    parent: Symbol | None  # where definitions found here attach; None is the file's top level
    prefix: str = ""  # local name that qualifies definitions found here
    owner: str = ""  # local name of the class whose methods are defined here
    caller: str = ""  # local name of the entity calls here are made from; "" is the module
    self_type: str = ""  # the type `Self` / the receiver means here
    in_function: bool = False
    namespace: str = ""  # the enclosing namespace blocks' names, dotted (C#'s `namespace A { ... }`)


def _last_row(node: ts.Node) -> int:
    """A node that ends with its newline (Rust `///` comments) ends on the row before."""
    end = node.end_point
    return end.row - 1 if end.column == 0 and end.row > node.start_point.row else end.row


def _first_paragraph(lines: list[str]) -> str:
    """The first paragraph of a docstring or doc comment, stopping at `@param`-style tags."""
    kept: list[str] = []
    for line in (raw.strip() for raw in lines):
        if not line and not kept:
            continue
        if not line or line.startswith(("@", *_XML_SECTIONS)):
            break
        kept.append(line)
    return " ".join(" ".join(kept).split())[:DESCRIPTION_CHARS].rstrip()


def docstring(body: ts.Node | None) -> str:
    """First paragraph of the string a Python block (or module) opens with, "" without one."""
    first = body.named_children[0] if body is not None and body.named_child_count else None
    while first is not None and first.type == "comment":
        first = first.next_named_sibling
    if first is None or first.type != "expression_statement" or first.named_child_count != 1:
        return ""
    string = first.named_children[0]
    if string.type != "string":
        return ""
    content = "".join(node_text(c) for c in string.named_children if c.type == "string_content")
    return _first_paragraph(content.splitlines())


def _comment_lines(comments: list[ts.Node]) -> list[str]:
    lines = (line for c in comments for line in node_text(c).splitlines())
    return [_xml_doc(_COMMENT_CLOSE.sub("", _COMMENT_OPEN.sub("", line, count=1))) for line in lines]


def _xml_doc(line: str) -> str:
    """A line of C# XML documentation as its text: `<summary>Charges <see cref="Order"/>.</summary>` ->
    `Charges Order.` (other lines as they are)."""
    if "<" not in line:
        return line
    return _XML_SUMMARY.sub("", _XML_REFERENCE.sub(r"\1", line))


class Outline:
    """The definitions of one file and the calls, imports and bases found on the way, by row."""

    def __init__(self, spec: LanguageSpec, source: bytes, path: str, module: str) -> None:
        self.spec, self.source, self.path, self.module = spec, source, path, module
        self.units: list[Symbol] = []
        self.calls: list[tuple[str, str, int]] = []  # (caller local, callee, row)
        self.imports: list[tuple[str, int]] = []
        self.bases: list[tuple[str, str, int]] = []  # (class local, base, row)
        self.found: list[Found] = []  # each call, base and definition met, for the language's binder (in walk order)
        self.namespace = ""  # the namespace a statement declared for what follows it (`namespace App;`)

    def walk(self, root: ts.Node) -> None:
        # Iterative: deeply nested expressions (long `a + b + ...` chains) would overflow recursion.
        stack = [(child, _Scope(None)) for child in reversed(root.named_children)]
        while stack:
            node, scope = stack.pop()
            stack.extend(reversed(self._visit(node, scope)))

    def _visit(self, node: ts.Node, scope: _Scope) -> list[tuple[ts.Node, _Scope]]:
        if node.type in self.spec.namespaces and not scope.in_function:
            return self._namespace(node, scope)
        if not scope.in_function:
            if node.type in self.spec.wrappers:
                inner = [(c, k) for c in node.named_children if (k := self._kind(c, scope))]
                if len(inner) == 1:
                    definition, kind = inner[0]
                    defined, children = self._define(definition, kind, node, scope)
                    # Decorators and the like are walked as part of what they decorate.
                    return [(c, defined) for c in node.named_children if c.id != definition.id] + children
            elif found := self._kind(node, scope):
                return self._define(node, found, node, scope)[1]
        self._record(node, scope)
        return [(c, scope) for c in node.named_children]

    def _namespace(self, node: ts.Node, scope: _Scope) -> list[tuple[ts.Node, _Scope]]:
        """A namespace block's children, walked in it; a namespace statement (`namespace App;`) names the namespace
        of the rest of the file."""
        # (Kotlin's `package a.b` names it with no field; C++'s `namespace { ... }` is anonymous: no name)
        named = node.child_by_field_name("name") or next(
            (c for c in node.named_children if c.type in ("qualified_identifier", "identifier")), None
        )
        name = node_text(named).replace("\\", ".").replace("::", ".").strip(".")
        if node.child_by_field_name("body") is None:
            self.namespace = name
            return []
        within = replace(scope, namespace=".".join(n for n in (scope.namespace, name) if n))  # (anonymous: the same)
        return [(c, within) for c in node.named_children]

    def _kind(self, node: ts.Node, scope: _Scope) -> str | None:
        spec = self.spec
        if node.type in spec.classes and spec.accepts_class(node) and self._name(node):
            return "class"
        if (node.type in spec.functions or (scope.owner and node.type in spec.methods)) and self._name(node):
            return "function"
        if node.type in spec.containers and node.child_by_field_name("body") is not None:
            return "container" if terminal_name(node.child_by_field_name(spec.containers[node.type])) else None
        if node.type in spec.assignments and len(self._assigned(node)) == 1:
            return "assignment"
        return None

    def _assigned(self, node: ts.Node) -> list[tuple[str, ts.Node]]:
        """(name, value) for each function or class bound by `const f = () => ...` or a class field."""
        if node.child_by_field_name("value") is not None:
            declarators = [node]
        else:
            declarators = [d for d in node.named_children if d.type == "variable_declarator"]
        kinds = self.spec.function_values | self.spec.class_values
        found: list[tuple[str, ts.Node]] = []
        for declarator in declarators:
            value, name = declarator.child_by_field_name("value"), self._name(declarator)
            if value is not None and value.type in kinds and name:
                found.append((name, value))
        return found

    def _leading(self, outer: ts.Node) -> tuple[int, list[ts.Node]]:
        """First row of the comments and attributes directly above a definition, and those comments."""
        start, comments = outer.start_point.row, list[ts.Node]()
        kinds = self.spec.comments | self.spec.attributes
        prev = outer.prev_named_sibling
        parent = outer.parent
        first = parent.named_child(0) if parent is not None and prev is None else None
        if parent is not None and first is not None and first.id == outer.id:
            prev = parent.prev_named_sibling  # a comment above a body's first statement is the body's (Ruby)
        while prev is not None and prev.type in kinds and _last_row(prev) >= start - 1 and self._alone(prev):
            if prev.type in self.spec.comments:
                comments.insert(0, prev)
            start, prev = prev.start_point.row, prev.prev_named_sibling
        return start, comments

    def _name(self, node: ts.Node) -> str:
        text = self.spec.read_name(node)
        return text if _NAME.fullmatch(text) else ""

    def _alone(self, node: ts.Node) -> bool:
        """Whether nothing precedes the node on its line (a trailing comment belongs to the code before it)."""
        line_start = self.source.rfind(b"\n", 0, node.start_byte) + 1
        return not self.source[line_start : node.start_byte].strip()

    def _define(
        self, node: ts.Node, kind: str, outer: ts.Node, scope: _Scope
    ) -> tuple[_Scope, list[tuple[ts.Node, _Scope]]]:
        """Add the definition to the outline; returns its scope and the children to walk in it."""
        spec, body, name = self.spec, node, self._name(node)
        if kind == "assignment":
            name, body = self._assigned(node)[0]
            kind = "class" if body.type in spec.class_values else "function"
        start, comments = self._leading(outer)
        end, row = _last_row(outer), node.start_point.row
        namespace = scope.namespace or self.namespace
        if kind == "container":
            name = terminal_name(node.child_by_field_name(spec.containers[node.type]))
            impl = node.type in spec.impls
            # An impl inside an inline `mod` holds the methods of that module's type: `inner.Foo.m`.
            symbol = Symbol(None, name, _join(scope.prefix, name), scope.owner, start, end, namespace=namespace)
            trait = terminal_name(node.child_by_field_name("trait")) if impl else ""
            if trait:
                self._base(symbol.local, trait, node, row)
            owner = symbol.local if impl else ""
            inner = _Scope(symbol, symbol.local, owner, scope.caller, name if impl else "", namespace=namespace)
        else:
            described = docstring(body.child_by_field_name("body")) if spec.docstrings else ""
            description = described or _first_paragraph(_comment_lines(comments))
            if kind == "class":
                local = _join(scope.prefix, name)
                symbol = Symbol(
                    EntityType.CLASS, name, local, scope.owner, start, end, description, namespace=namespace
                )
                for base in spec.read_bases(body):
                    self._base(local, base, node, row)
                self.found.append(DefinitionSite(local, row, node, node, function=False))
                inner = _Scope(symbol, local, local, local, name, namespace=namespace)
            else:
                owner = scope.owner or (spec.read_owner(node) if spec.read_owner else "")
                local = f"{owner}.{name}" if owner else _join(scope.prefix, name)
                etype = EntityType.METHOD if owner else EntityType.FUNCTION
                extends = spec.read_extended(node) if spec.read_extended is not None else ""
                symbol = Symbol(
                    etype, name, local, owner, start, end, description, namespace=namespace, extends=extends
                )
                self_type = owner.rsplit(".", 1)[-1] if owner else scope.self_type
                inner = _Scope(symbol, local, "", local, self_type, in_function=True, namespace=namespace)
                self.found.append(DefinitionSite(local, row, node, body, function=True))
        (scope.parent.children if scope.parent is not None else self.units).append(symbol)
        parsed = spec.read_body(node) if spec.read_body is not None and kind == "function" else None
        return inner, [(c, inner) for c in (parsed if parsed is not None else body).named_children]

    def _base(self, local: str, base: str, node: ts.Node, row: int) -> None:
        self.bases.append((local, base, row))
        self.found.append(BaseSite(local, row, base, node))

    def _record(self, node: ts.Node, scope: _Scope) -> None:
        spec, row = self.spec, node.start_point.row
        if node.type in spec.calls:
            field_name = spec.calls[node.type]  # "": the callee is the first named child (PHP's `new Foo`)
            target = node.child_by_field_name(field_name) if field_name else next(iter(node.named_children), None)
            callee = spec.read_callee(target, scope.self_type) if target is not None else ""
            if callee and callee not in spec.skip_calls:
                self.calls.append((scope.caller, callee, row))
            if target is not None:
                self.found.append(CallSite(scope.caller, row, node, target))
        if node.type in spec.imports:
            self.imports.extend((t, row) for t in spec.read_imports(node, self.path, self.module))


def _join(prefix: str, name: str) -> str:
    return f"{prefix}.{name}" if prefix else name
