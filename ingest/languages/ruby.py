"""Ruby: classes and modules; methods (`def m`, `def self.m`) and top-level methods; `#` comments above a
definition as its description; `require` and `require_relative` as imports; the superclass and the modules a class
includes as bases (included modules first: they come before the superclass in its ancestors).

Calls are bound by what the file proves (`scope_rules`): a bare call and `self.m` are methods of the enclosing
class or module (through its bases), `super` the same method of its bases; `Foo.new` constructs Foo; a class or
module of another file is found by its short name (the one of the project with that name), as is the class an
instance variable or local is made from (`@audit = Auditor.new` then `@audit.record(x)`, `inferred`); the rest by
name, labelled `name`."""

from __future__ import annotations

import posixpath
from collections.abc import Iterator

import tree_sitter as ts

from trident.ingest.languages import LanguageSpec, node_text
from trident.ingest.languages.rules_binder import rules_binder
from trident.ingest.languages.scope_rules import ScopeRules, within
from trident.store.names.code_paths import module_name

TYPES = frozenset({"class", "module"})
BODIES = frozenset({"method", "singleton_method"})
_CONSTANTS = frozenset({"constant", "scope_resolution"})
_REQUIRES = frozenset({"require", "require_relative", "load"})
_MIXINS = frozenset({"include", "prepend"})


def _grammar() -> object:
    import tree_sitter_ruby

    return tree_sitter_ruby.language()


def constant_name(node: ts.Node | None) -> str:
    """A class or module as written, with dots: `Foo` -> Foo, `Shop::Foo` -> Shop.Foo, `::Foo` -> .Foo."""
    if node is None or node.type not in _CONSTANTS:
        return ""
    return node_text(node).replace("::", ".")


def _method_of(node: ts.Node) -> str:
    """The name of the method a node is in ("" outside any)."""
    at = node.parent
    while at is not None and at.type not in BODIES:
        at = at.parent
    return node_text(at.child_by_field_name("name")) if at is not None else ""


def _split(node: ts.Node, callee: ts.Node) -> tuple[ts.Node | None, str] | None:
    """`notify(r)` -> (None, notify); `self.notify(r)`, `@gateway.charge(o)` -> (the receiver, the method); `super`
    -> (super, the enclosing method's name)."""
    if callee.type == "super":
        return (callee, name) if (name := _method_of(node)) else None
    name = node_text(callee) if callee.type in ("identifier", "constant") else ""
    if not name or name in _REQUIRES or name in _MIXINS:
        return None
    return node.child_by_field_name("receiver"), name


def _constructed(node: ts.Node, callee: ts.Node) -> str:
    """`Receipt.new(r)`, `Shop::Receipt.new` -> the class constructed."""
    if node_text(callee) != "new":
        return ""
    return constant_name(node.child_by_field_name("receiver"))


def declared(node: ts.Node) -> Iterator[tuple[str, ts.Node]]:
    """What an instance variable of a class (`@audit = Auditor.new` in any of its methods) or a local of a method
    (`x = Receipt.new(r)`) is made from: (the variable as written, the class's constant)."""
    in_class = node.type in TYPES
    variable = "instance_variable" if in_class else "identifier"
    for at in within(node.child_by_field_name("body"), TYPES if in_class else TYPES | BODIES):
        if at.type == "assignment" and (made := _made(at.child_by_field_name("right"))) is not None:
            left = at.child_by_field_name("left")
            if left is not None and left.type == variable:
                yield node_text(left), made


def _made(value: ts.Node | None) -> ts.Node | None:
    """The class constant of `Foo.new(...)`, None for any other value."""
    if value is None or value.type != "call" or node_text(value.child_by_field_name("method")) != "new":
        return None
    receiver = value.child_by_field_name("receiver")
    return receiver if receiver is not None and receiver.type in _CONSTANTS else None


def _callee(node: ts.Node, self_type: str) -> str:
    return node_text(node) if node.type in ("identifier", "constant") else ""


RULES = ScopeRules(
    types=TYPES,
    functions=frozenset({"method"}),
    split=_split,
    constructed=_constructed,
    self_receivers=frozenset({"self"}),
    base_receivers=frozenset({"super"}),
    implicit_self=True,
    written=constant_name,
    bodies=BODIES,
    declared=declared,
    short_types=True,
    constant_receivers=True,
)


def read_imports(node: ts.Node, path: str, module: str) -> list[str]:
    """`require "json"` -> json; `require_relative "gateway/payment"` -> the module of that file beside this one."""
    if node_text(node.child_by_field_name("method")) not in _REQUIRES:
        return []
    arguments = node.child_by_field_name("arguments")
    first = arguments.named_children[0] if arguments is not None and arguments.named_child_count else None
    if first is None or first.type != "string":
        return []
    written = "".join(node_text(c) for c in first.named_children if c.type == "string_content")
    if not written:
        return []
    if node_text(node.child_by_field_name("method")) == "require_relative":
        written = posixpath.normpath(posixpath.join(posixpath.dirname(path), written))
    return [module_name(written if written.endswith(".rb") else f"{written}.rb")]


def read_bases(node: ts.Node) -> list[str]:
    """`class A < Base; include Audit; include Log; end` -> Log, Audit, Base: the included modules, last first,
    then the superclass (Ruby's ancestors order)."""
    mixins: list[str] = []
    body = node.child_by_field_name("body")
    for statement in body.named_children if body is not None else []:
        if statement.type == "call" and node_text(statement.child_by_field_name("method")) in _MIXINS:
            arguments = statement.child_by_field_name("arguments")
            mixins += [constant_name(a) for a in arguments.named_children] if arguments is not None else []
    superclass = node.child_by_field_name("superclass")
    written = superclass.named_children[0] if superclass is not None and superclass.named_child_count else None
    parent = constant_name(written)
    return [n for n in dict.fromkeys([*reversed(mixins), parent]) if n]


SPECS = {
    "ruby": LanguageSpec(
        name="ruby",
        grammar=_grammar,
        classes=TYPES,
        functions=frozenset({"method"}),
        methods=frozenset({"singleton_method"}),
        calls={"call": "method"},
        imports=frozenset({"call"}),
        read_imports=read_imports,
        read_bases=read_bases,
        read_callee=_callee,
        bind=rules_binder(RULES),
    )
}
