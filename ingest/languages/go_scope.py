"""Go name binding: what each call, conversion, composite literal and embedded type of a file refers to.

Go's package is its folder, so a name of the package is qualified by the folder (`pkg/server/handler.go` ->
`pkg.server`), as the indexer knows every definition of the folder; a function of this very file is qualified by
the file's module, exactly as its entity is. Each call is described as precisely as the file allows, for the
indexer to finish (`trident.ingest.code_index`):
- `s.m()` in `func (s *Server) ...`: member `m` of the package's `Server` (exact); `Server.m(s)` too.
- `server.New()` through `import "github.com/o/r/pkg/server"` (or `srv "..."`): `github.com.o.r.pkg.server.New`
  (exact), which the indexer matches by its longest known tail; the standard library's packages give nothing.
- `helper()`, `Foo(x)`, `Foo{...}`, `&pkg.Foo{}`: the function or type of this package or an imported one (exact).
- `x.m()` where the code states x's type (a parameter, `var x *Foo`, `x := &Foo{}`, `x := NewFoo()` with a result
  type this file states, else `pkg.NewFoo()` taken to make a `pkg.Foo`, a struct field `s.pool.Get()`, a type
  switch case, a ranged slice): member `m` of that type (inferred).
- `x.m()` where x is what a function or method of another file of the package gives (`r.Path("/g").Subrouter()`,
  `sub := build(p)`): member `m` of what that function's own file states it returns (`returned`), which the indexer
  looks up by the function's name (inferred).
- anything else (an untyped receiver, a package variable of another file): the bare name, which the indexer keeps
  only when one entity of the project has it. Builtins, predeclared types, function values and the standard
  library give nothing.
Scoping is lexical, as Go's: a name declared in a block is seen from the end of its declaration to the end of the
block, shadowing the imports, the package and the blocks around it.
"""

from __future__ import annotations

import posixpath
from collections import defaultdict

import tree_sitter as ts

from trident.ingest.languages import node_text, terminal_name
from trident.ingest.languages.binding import Target
from trident.ingest.languages.go import BUILTINS, CLASS_TYPES, method_receivers
from trident.ingest.languages.go_syntax import (
    FUNCTIONS,
    INTERFACE_METHODS,
    PREDECLARED_TYPES,
    Declarations,
    Locals,
    assigned,
    element_type,
    embedded_types,
    imports,
    is_constructor,
    is_standard,
    named_type,
    parameters,
    results,
    scope_of,
    struct_fields,
    type_parameters,
    type_specs,
    value_specs,
)
from trident.ingest.model import TargetForm
from trident.store.schema import Resolution

# A type as the binder knows it: a qualified name, or one of these.
UNKNOWN = ""  # the code does not state it
FOREIGN = "-"  # a type no project defines: predeclared, the standard library's, a literal or function type
SLICE, CHANNEL = "[]", "<-"  # prefixes: a slice, array or map of (its values), a channel of, the type after them
MAX_DEPTH = 24  # sub-expressions followed to type a receiver (`a.b().c.d()`); beyond, the type is unknown
_NO_LOCALS = Locals()  # at the package level: never written to


def is_named(kind: str) -> bool:
    """Whether a type is a qualified name (something a project may define methods on)."""
    return kind not in (UNKNOWN, FOREIGN) and not kind.startswith((SLICE, CHANNEL))


def element(kind: str) -> str:
    """The type a slice, map or channel holds; unknown for any other type."""
    return kind[2:] if kind.startswith((SLICE, CHANNEL)) else UNKNOWN


class GoBinder:
    """Binds one Go file's calls and embedded types, one site at a time."""

    def __init__(self, root: ts.Node, path: str, module: str) -> None:
        self.module = module
        self.package = posixpath.dirname(path).replace("/", ".")
        self.imports: dict[str, str] = {}  # local name -> import path
        self.dot_import = False  # a package imported with `.`: an unknown exported name may be its
        self.defined: dict[str, str] = {}  # package-level name of this file -> "func", "type" or "var"
        self.aliases: dict[str, str] = {}  # `type A = B` -> B's type
        self.results: dict[str, list[str]] = {}  # function of this file -> its result types
        self.methods: dict[str, dict[str, list[str]]] = defaultdict(dict)  # type -> method -> result types
        self.fields: dict[str, dict[str, str]] = defaultdict(dict)  # struct type -> field -> type
        self.variables: dict[str, str] = {}  # package-level variable or constant of this file -> type
        # What a call of a function or method of another file of the package gives, named by that function (the
        # indexer types it by the result the function's own file states): `pkg.Router.Path`
        self.results_elsewhere: set[str] = set()
        self.plain_types: set[str] = set()  # this file's types that are no entity (see `go.is_class`)
        self.receivers = method_receivers(root)
        self._declarations = Declarations(root)
        self._locals: dict[int, Locals] = {}  # top-level declaration's node id -> its local names
        self._read_names(root)
        self._read_types(root)

    # --- first pass: what the file imports and defines, and the types its definitions state ---

    def _read_names(self, root: ts.Node) -> None:
        self.imports, self.dot_import = imports(root)
        for node in root.named_children:
            if node.type == "function_declaration":
                self.defined[node_text(node.child_by_field_name("name"))] = "func"
            elif node.type == "type_declaration":
                self.defined.update((node_text(s.child_by_field_name("name")), "type") for s in type_specs(node))
            elif node.type in ("var_declaration", "const_declaration"):
                self.defined.update((node_text(n), "var") for names, _, _ in value_specs(node) for n in names)

    def _read_types(self, root: ts.Node) -> None:
        declarations = root.named_children
        for node in (n for n in declarations if n.type == "type_declaration"):
            for spec in type_specs(node):
                self._read_type(spec)
        for node in (n for n in declarations if n.type in ("function_declaration", "method_declaration")):
            params = type_parameters(node)
            returned = [self._type(t, params) for t in results(node)]
            name = node_text(node.child_by_field_name("name"))
            if node.type == "function_declaration":
                self.results[name] = returned
            else:
                receiver = parameters(node.child_by_field_name("receiver"))
                owner = next((self._type(t, params) for _, t, _ in receiver), UNKNOWN)
                if is_named(owner):
                    self.methods[owner][name] = returned
        for node in (n for n in declarations if n.type in ("var_declaration", "const_declaration")):
            for names, stated, values in value_specs(node):
                kinds = self._value_types(names, stated, values, _NO_LOCALS)
                self.variables.update((node_text(n), k) for n, k in zip(names, kinds, strict=True))

    def _read_type(self, spec: ts.Node) -> None:
        name, body = node_text(spec.child_by_field_name("name")), spec.child_by_field_name("type")
        if (body is None or body.type not in CLASS_TYPES) and name not in self.receivers:
            self.plain_types.add(self._type_named(name))  # no entity: nothing to type a call's result by
        if spec.type == "type_alias":
            self.aliases[name] = self._type(body, set())
        elif body is not None and body.type == "struct_type":
            params, owner = type_parameters(spec), self._type_named(name)
            for held, written in struct_fields(body):
                self.fields[owner][held] = self._type(written, params)
                if written.type == "function_type":  # `s.now()` returns what the field's function type says
                    self.methods[owner][held] = [self._type(t, params) for t in results(written)]

    # --- names ---

    def _in_package(self, name: str) -> str:
        return f"{self.package}.{name}" if self.package else name

    def _function_named(self, name: str) -> str:
        """A function of this file by its entity's qualified name; of another file of the package by the package."""
        return f"{self.module}.{name}" if self.defined.get(name) == "func" else self._in_package(name)

    def _type_named(self, name: str) -> str:
        """A type by its package's name: its methods may be declared in any file of the package."""
        if name in self.aliases:
            return self.aliases[name]
        if name in self.defined:
            return self._in_package(name)
        if name in PREDECLARED_TYPES:
            return FOREIGN
        if self.dot_import and name[:1].isupper():
            return UNKNOWN  # maybe the dot-imported package's
        return self._in_package(name)

    def _imported(self, package: str, name: str) -> str:
        path = self.imports.get(package)
        if path is None:
            return UNKNOWN
        return FOREIGN if is_standard(path) else f"{path.replace('/', '.')}.{name}"

    def _type(self, node: ts.Node | None, params: set[str]) -> str:
        """The type a type expression names: `*Foo`, `pkg.Foo[int]`, `[]*Foo` (a slice of Foo), `chan Job`."""
        node = named_type(node)
        if node is None:
            return UNKNOWN
        if node.type in ("type_identifier", "identifier"):
            name = node_text(node)
            return FOREIGN if name in params else self._type_named(name)
        if node.type in ("qualified_type", "selector_expression"):
            package = node.child_by_field_name("package") or node.child_by_field_name("operand")
            name_node = node.child_by_field_name("name") or node.child_by_field_name("field")
            return self._imported(node_text(package), node_text(name_node))
        inner = element_type(node)
        if inner is not None:
            held = self._type(inner, params)
            return f"{CHANNEL if node.type == 'channel_type' else SLICE}{held}" if held else UNKNOWN
        return FOREIGN if node.type in ("function_type", "interface_type", "struct_type") else UNKNOWN

    # --- calls and bases ---

    def call(self, node: ts.Node, callee: ts.Node) -> Target | None:
        local = self._locals_at(node)
        if node.type == "call_expression":
            return self._called(callee, local, 0)
        return self._constructed(callee, local)  # a conversion `T(x)` or a composite literal `T{...}`

    def returned(self, node: ts.Node) -> Target | None:
        """The package's type a function or method states as its first result (`func (r *Router) Path(...) *Route`
        -> pkg.Route), for calls of it in other files."""
        if node.type not in ("function_declaration", "method_declaration"):
            return None
        kind = next((self._type(t, type_parameters(node)) for t in results(node)), UNKNOWN)
        if not is_named(kind) or kind in self.plain_types:  # `type UUID [16]byte` is no entity: nothing to type by
            return None
        return Target(TargetForm.QUALIFIED, kind, Resolution.EXACT)

    def base(self, name: str, node: ts.Node) -> Target | None:
        params = type_parameters(node)
        for written in embedded_types(node.child_by_field_name("type")):
            if terminal_name(written) == name:
                kind = self._type(written, params)
                if is_named(kind):
                    return Target(TargetForm.QUALIFIED, kind, Resolution.EXACT)
                return None if kind == FOREIGN else Target(TargetForm.NAME, name, Resolution.NAME)
        return Target(TargetForm.NAME, name, Resolution.NAME)

    def _constructed(self, written: ts.Node, local: Locals) -> Target | None:
        base = named_type(written)
        if base is not None and base.type == "type_identifier" and self.defined.get(node_text(base)) == "func":
            return Target(TargetForm.QUALIFIED, self._function_named(node_text(base)), Resolution.EXACT)  # `F[int](x)`
        kind = self._type(written, local.type_params)
        if is_named(kind):
            return Target(TargetForm.QUALIFIED, kind, Resolution.EXACT)
        name = terminal_name(written)
        return Target(TargetForm.NAME, name, Resolution.NAME) if kind == UNKNOWN and name else None

    def _called(self, callee: ts.Node, local: Locals, depth: int) -> Target | None:
        if callee.type == "identifier":
            return self._called_name(node_text(callee), local, callee.start_byte)
        if callee.type == "selector_expression":
            return self._called_member(callee, local)
        if depth >= MAX_DEPTH:
            return None
        if callee.type == "parenthesized_expression" and callee.named_child_count == 1:
            return self._called(callee.named_children[0], local, depth + 1)
        operand = callee.child_by_field_name("operand")
        if callee.type == "unary_expression" and operand is not None:  # `(*Foo)(x)` converts to a pointer type
            return (
                self._called(operand, local, depth + 1)
                if node_text(callee.child_by_field_name("operator")) == "*"
                else None
            )
        return None  # a closure, a function value held in a map, a call's result

    def _called_name(self, name: str, local: Locals, at: int) -> Target | None:
        if local.find(name, at) is not None or name in self.variables or name in local.type_params:
            return None  # a function value: no definition of that name is called
        kind = self.defined.get(name)
        if kind == "func":
            return Target(TargetForm.QUALIFIED, self._function_named(name), Resolution.EXACT)
        if kind != "type" and (name in BUILTINS or name in PREDECLARED_TYPES):
            return None
        if self.dot_import and name[:1].isupper() and not kind:
            return Target(TargetForm.NAME, name, Resolution.NAME)
        target = self._type_named(name) if kind else self._in_package(name)
        return Target(TargetForm.QUALIFIED, target, Resolution.EXACT)

    def _called_member(self, selector: ts.Node, local: Locals) -> Target | None:
        operand, member = selector.child_by_field_name("operand"), node_text(selector.child_by_field_name("field"))
        if operand is None or not member:
            return None
        if operand.type == "identifier":
            name = node_text(operand)
            declared = local.find(name, operand.start_byte)
            if declared is not None and declared.receiver:
                return self._member(declared.kind, member, Resolution.EXACT)
            if declared is None and name not in self.variables:
                if name in self.imports:
                    package = self._imported(name, member)
                    return Target(TargetForm.QUALIFIED, package, Resolution.EXACT) if package != FOREIGN else None
                if self.defined.get(name) == "type":  # a method expression `Server.Handle(s)`
                    return self._member(self._type_named(name), member, Resolution.EXACT)
        return self._member(self._expression(operand, local, 0), member, Resolution.INFERRED)

    def _member(self, owner: str, member: str, resolution: Resolution) -> Target | None:
        if owner == UNKNOWN or (owner in self.results_elsewhere and member in INTERFACE_METHODS):
            return None if member in INTERFACE_METHODS else Target(TargetForm.NAME, member, Resolution.NAME)
        if not is_named(owner) or member in self.fields.get(owner, {}):
            return None  # a builtin or standard type's method, or a struct field holding a function
        return Target(TargetForm.MEMBER, member, resolution, owner=owner)

    # --- types of expressions ---

    def _expression(self, node: ts.Node, local: Locals, depth: int) -> str:
        """The type of an expression, as far as the file states it (remembered per expression)."""
        known = local.typed.get(node.id)
        if known is None:
            known = self._typed(node, local, depth) if depth < MAX_DEPTH else UNKNOWN
            if local is not _NO_LOCALS:
                local.typed[node.id] = known
        return known

    def _typed(self, node: ts.Node, local: Locals, depth: int) -> str:
        kind, operand = node.type, node.child_by_field_name("operand")
        if kind == "identifier":
            declared = local.find(node_text(node), node.start_byte)
            return declared.kind if declared is not None else self.variables.get(node_text(node), UNKNOWN)
        if kind == "selector_expression" and operand is not None:
            if operand.type == "identifier" and self._is_package(operand, local):
                return FOREIGN if is_standard(self.imports[node_text(operand)]) else UNKNOWN
            owner = self._expression(operand, local, depth + 1)
            field = node_text(node.child_by_field_name("field"))
            return FOREIGN if owner == FOREIGN else self.fields.get(owner, {}).get(field, UNKNOWN)
        if kind == "call_expression":
            return next(iter(self._results(node, local, depth)), UNKNOWN)
        if kind in ("composite_literal", "type_conversion_expression", "type_assertion_expression"):
            return self._type(node.child_by_field_name("type"), local.type_params)
        if kind in ("unary_expression", "parenthesized_expression", "slice_expression", "index_expression"):
            inner = operand or (node.named_children[0] if node.named_child_count else None)
            held = self._expression(inner, local, depth + 1) if inner is not None else UNKNOWN
            operator = node_text(node.child_by_field_name("operator"))
            if kind == "index_expression" or operator == "<-":
                return element(held)
            return held if operator in ("", "&", "*") else FOREIGN
        if kind in ("func_literal", "interpreted_string_literal", "raw_string_literal", "int_literal"):
            return FOREIGN
        return UNKNOWN

    def _is_package(self, name: ts.Node, local: Locals) -> bool:
        text = node_text(name)
        return text in self.imports and local.find(text, name.start_byte) is None and text not in self.variables

    def _results(self, call: ts.Node, local: Locals, depth: int) -> list[str]:
        """The types a call returns, as far as the file states them; by convention, `NewFoo()` makes a Foo."""
        function, arguments = call.child_by_field_name("function"), call.child_by_field_name("arguments")
        first = arguments.named_children[0] if arguments is not None and arguments.named_child_count else None
        if function is not None and function.type == "identifier":
            name = node_text(function)
            if local.find(name, function.start_byte) is not None or name in self.variables:
                return []
            if name in ("new", "make") and first is not None and name not in self.defined:
                return [self._type(first, local.type_params)]
            if name in self.results:
                return self.results[name]
            if self.defined.get(name) == "type" or name in PREDECLARED_TYPES:
                return [self._type_named(name)]
            if is_constructor(name):
                return [self._type_named(name[3:])]
            return self._elsewhere(self._in_package(name)) if name not in BUILTINS and name not in self.defined else []
        operand = function.child_by_field_name("operand") if function is not None else None
        if function is None or function.type != "selector_expression" or operand is None:
            return []
        member = node_text(function.child_by_field_name("field"))
        if operand.type == "identifier" and self._is_package(operand, local):
            kind = self._imported(node_text(operand), member[3:])
            return [kind] if kind == FOREIGN or is_constructor(member) else []
        owner = self._expression(operand, local, depth + 1)
        if owner == FOREIGN:
            return [FOREIGN]
        if member in self.methods.get(owner, {}) or not is_named(owner) or owner in self.results_elsewhere:
            return self.methods.get(owner, {}).get(member, [])
        return self._elsewhere(f"{owner}.{member}")  # a method declared in another file of the package

    def _elsewhere(self, function: str) -> list[str]:
        """What a call of `function`, declared in another file, gives: named by the function, for the indexer."""
        self.results_elsewhere.add(function)
        return [function]

    # --- local names ---

    def _locals_at(self, node: ts.Node) -> Locals:
        top = self._declarations.top_level(node)
        if top is None:
            return _NO_LOCALS
        found = self._locals.get(top.id)
        if found is None:
            found = self._locals[top.id] = self._declared_in(top)
        return found

    def _declared_in(self, top: ts.Node) -> Locals:
        """Every name a top-level declaration declares inside it, with its stated type, in the order written."""
        local = Locals(type_params=type_parameters(top) if top.type in FUNCTIONS else set())
        for node in self._declarations.within(top):
            kind = node.type
            if node.id == top.id and kind not in FUNCTIONS:
                continue  # a package-level `var`: its names are the package's
            if kind in FUNCTIONS:
                self._declare_parameters(node, local)
            elif kind in ("var_declaration", "const_declaration"):
                for names, stated, values in value_specs(node):
                    for name, found in zip(names, self._value_types(names, stated, values, local), strict=True):
                        visible = name.parent.end_byte if name.parent is not None else name.end_byte
                        local.add(node_text(name), scope_of(name), visible, found)
            elif kind == "type_switch_statement":
                self._declare_cases(node, local)
            else:
                names, values = assigned(node)
                kinds = self._value_types(names, None, values, local)
                if kind == "range_clause":
                    kinds = self._ranged(names, values, local)
                for name, found in zip(names, kinds, strict=True):
                    local.add(node_text(name), scope_of(name), node.end_byte, found)
        return local

    def _declare_parameters(self, function: ts.Node, local: Locals) -> None:
        for part in ("receiver", "parameters", "result"):
            for names, written, variadic in parameters(function.child_by_field_name(part)):
                kind = self._type(written, local.type_params)
                if variadic:
                    kind = f"{SLICE}{kind}" if kind else UNKNOWN
                for name in names:
                    local.add(node_text(name), function, function.start_byte, kind, receiver=part == "receiver")

    def _declare_cases(self, switch: ts.Node, local: Locals) -> None:
        """`switch t := v.(type)`: in a case naming one type, t has that type."""
        alias = switch.child_by_field_name("alias")
        names = [n for n in (alias.named_children if alias is not None else []) if n.type == "identifier"]
        for case in (c for c in switch.named_children if c.type in ("type_case", "default_case")):
            types = case.children_by_field_name("type")
            kind = self._type(types[0], local.type_params) if len(types) == 1 else UNKNOWN
            for name in names:
                local.add(node_text(name), case, case.start_byte, kind)

    def _value_types(
        self, names: list[ts.Node], stated: ts.Node | None, values: list[ts.Node], local: Locals
    ) -> list[str]:
        """The type each declared name gets: the stated one, else its value's (a call's results in order)."""
        if stated is not None:
            return [self._type(stated, local.type_params)] * len(names)
        if len(values) == len(names):
            return [self._expression(v, local, 0) for v in values]
        if len(values) == 1 and values[0].type == "call_expression":
            return (self._results(values[0], local, 0) + [UNKNOWN] * len(names))[: len(names)]
        if len(values) == 1 and names:  # `v, ok := m[k]`, `x.(T)`, `<-ch`
            return [self._expression(values[0], local, 0)] + [FOREIGN] * (len(names) - 1)
        return [UNKNOWN] * len(names)

    def _ranged(self, names: list[ts.Node], values: list[ts.Node], local: Locals) -> list[str]:
        """`for i, v := range xs`: v is what xs holds; over a channel, the one name is."""
        ranged = self._expression(values[0], local, 0) if values else UNKNOWN
        held = [element(ranged)] if ranged.startswith(CHANNEL) else [UNKNOWN, element(ranged)]
        return (held + [UNKNOWN] * len(names))[: len(names)]


def bind_go(root: ts.Node, path: str, module: str) -> GoBinder:
    """The binder of one parsed Go file (`path`, its module name `module`)."""
    return GoBinder(root, path, module)
