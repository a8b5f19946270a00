"""The methods a statement or an operator runs without naming them (`python_implicit` reads which), bound on values
whose class the code states: a dunder looked up through the class's bases, a generator's body where it is consumed,
the `__hash__`/`__eq__` a lookup in a keyed container runs, the `__hash__` a set or dict written out runs on its
elements or keys, the `__eq__` comparing containers of stated elements runs.

A layer of the binder between what a file states for others (`python_exports`) and the binding of its calls
(`python_scope`), which owns the bindings these append to.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable

import tree_sitter as ts

from trident.ingest.languages import node_text
from trident.ingest.languages.binding import BoundCall, Target
from trident.ingest.languages.python_exports import PythonExports
from trident.ingest.languages.python_facts import ClassFacts, Scope
from trident.ingest.languages.python_implicit import (
    ATTRIBUTE_HOOKS,
    CONTAINER_RUNS,
    HASHING_BUILTINS,
    ITERATION,
    Run,
    keyed_containers,
)
from trident.ingest.languages.python_parameters import standard
from trident.ingest.languages.python_syntax import (
    call_arguments,
    named_as_class,
)
from trident.ingest.model import (
    ATTRIBUTE_MARK,
    ELEMENTS_MARK,
    GENERATED_MARK,
    PARAMETER_OPEN,
    TargetForm,
)
from trident.store.schema import Resolution

GENERATOR_RUNS = frozenset({"__next__", "__anext__"})  # what runs a generator's body (`iter(g)` gives g itself)
# What a statement runs on a container -> what it runs on each of its elements: comparing it (`==`, `!=`) compares
# them, formatting it (a list's `str()` and `repr()` alike) formats each with `repr()`
ELEMENTS_RUN = {"__eq__": "__eq__", "__ne__": "__eq__", "__repr__": "__repr__", "__str__": "__repr__"}
# What a statement runs on a tuple -> what it runs on each of its items: hashing it hashes them, comparing or
# formatting it as on a container (`ELEMENTS_RUN`)
THROUGH_TUPLES = {"__hash__": "__hash__", **ELEMENTS_RUN}
# Methods whose receiver is the class itself (as in a classmethod's `cls`): what a statement runs on it is the
# metaclass's, not the class's own
CLASS_RECEIVING = frozenset({"__new__", "__init_subclass__", "__class_getitem__"})


class PythonImplicitCalls(PythonExports):
    """Binds the calls a file's statements and operators make without naming them."""

    def _implicit_calls(self, runs: Iterable[Run], scope: Scope) -> None:
        """The methods a statement or an operator runs without naming them (`python_implicit`), on a value whose class
        the code states: each bound by the lookup through the class's bases (a class that defines none gets no
        edge); a builtin the file rebinds runs nothing of the value's, and a standard library type is no project's. A
        call's result formatted, compared or tested for truth is most often a builtin value: only what iterating,
        entering or indexing it runs is looked up."""
        for run in runs:
            if run.builtin and (self._bound(run.builtin, scope) or {run.builtin} & (scope.types.keys() | scope.held)):
                continue
            value = run.value
            if run.reflecting is not None and self._compared_knowingly(run.reflecting, scope):
                continue  # (`a == b` with a's class known: a's `__eq__` runs, and b's only if it declines)
            if run.method in THROUGH_TUPLES and value.type == "tuple":  # `hash((self.origin, self.key))`: each's
                self._implicit_calls([Run(e, THROUGH_TUPLES[run.method]) for e in value.named_children], scope)
                continue
            if run.method in THROUGH_TUPLES and (elements := self._tuple_of(value, scope)) is not None:
                self._elements_run(elements, scope, THROUGH_TUPLES[run.method])  # `hash(tuple(self.expansion))`
                continue
            if run.method in GENERATOR_RUNS and (generators := self.generator_of(value, scope)):
                # a generator's body runs where it is consumed (`next(self._iter)`, `for t in stream`); one the
                # caller's own receiver makes (`"".join(self.iter_tokens(ts))`) runs as the call's own edge says:
                # on that receiver, so a subclass's override of it runs instead
                own = self._made_on_receiver(value, scope)
                for function in [g for g in generators if g != own]:
                    target = Target(TargetForm.QUALIFIED, function, Resolution.INFERRED)
                    self.result.calls.append(BoundCall(scope.caller, value.start_point.row, target))
                continue
            if run.method in GENERATOR_RUNS and (opened := _opened(self.drawn_on(value, scope), scope)):
                # a parameter's: the bodies of the generators callers in any file pass it (`take(n, repeat_last(x))`)
                target = Target(TargetForm.QUALIFIED, f"{opened}{GENERATED_MARK}", Resolution.INFERRED)
                self.result.calls.append(BoundCall(scope.caller, value.start_point.row, target))
            if run.method in ITERATION:  # `for x in islice(items, n)`: what iterating items runs
                value = self.drawn_on(value, scope, through_iter=False)
            if value.type == "call" and run.method not in CONTAINER_RUNS and not self._constructs_class(value, scope):
                continue  # (`hash(Specifier(spec))`, `Version(a) == Version(b)`: the class it makes)
            if scope.cls is not None and value.type == "identifier" and node_text(value) == scope.receiver:
                if _receives_class(scope) or _sets_plainly(run.method, scope.cls):
                    continue  # (`cls._instance = ...` in `__new__` runs the metaclass's `__setattr__`)
                typed, resolution = scope.cls.qualified, Resolution.EXACT
            else:
                typed = self._stated_class(value, scope)
                resolution = Resolution.INFERRED
            given = value.type == "identifier" and node_text(value) in scope.given_either  # (a parameter's union may
            either = scope.alternatives.get(node_text(value), []) if given else []  # be narrowed out: `if not ...`)
            if not typed and value.type == "attribute" and len(several := self._attribute_types(value, scope)) > 1:
                either = several  # `f"{self.selector!r}"` with `selector: Tree`, a union: each class's `__repr__`
            owners = [t for t in ([typed] if typed else either) if t.split(".", 1)[0] not in sys.stdlib_module_names]
            for owner in owners:  # (a variable holding an instance of either of two classes: each one's)
                target = Target(TargetForm.MEMBER, run.method, resolution, owner=owner)
                self.result.calls.append(BoundCall(scope.caller, value.start_point.row, target))
            if not owners and run.method in ELEMENTS_RUN and value.type in ("identifier", "attribute"):
                self._elements_run(value, scope, ELEMENTS_RUN[run.method])  # `f"{self.args!r}"`, `args: list[Token]`

    def _made_on_receiver(self, value: ts.Node, scope: Scope) -> str:
        """The method a consumed value is a call of on the caller's own receiver (`self.iter_tokens(ts)`, also
        through `iter(...)`), its qualified name; "" for any other value. (A generator such a method returns, made by
        another, `return self.token_range(...)`, is that other's body: it runs here.)"""
        made = self.drawn_on(value, scope)
        function = made.child_by_field_name("function") if made.type == "call" else None
        owner = (
            function.child_by_field_name("object") if function is not None and function.type == "attribute" else None
        )
        if scope.cls is None or owner is None or node_text(owner) != scope.receiver:
            return ""
        return self._callee(made, scope)

    def _imported_instance(self, value: ts.Node, scope: Scope) -> str:
        """A name imported from another module of a project, as the indexer reads an instance that module gives it
        (`from ._structures import Infinity`: `_structures@Infinity`, the class of `Infinity = InfinityType()` there);
        "" for anything else (a class or function imported binds no member this way)."""
        name = node_text(value) if value.type == "identifier" else ""
        if not name or name in scope.types or name in scope.held or name in scope.local_classes:
            return ""
        module, _, imported = self._bound(name, scope).rpartition(".")
        return f"{module}{ATTRIBUTE_MARK}{imported}" if module and module != self.module else ""

    def _elements_run(self, container: ts.Node, scope: Scope, method: str) -> None:
        """`method` of each element of a container whose elements' class the code states (`ELEMENTS_RUN`):
        `self._specs == other._specs` with `frozenset(map(Specifier, specs))` runs `Specifier.__eq__`,
        `f"{self.arguments!r}"` with `arguments: list[Token]` runs `Token.__repr__`."""
        element = self._element_type(container, scope)
        if element and not standard(element) and ELEMENTS_MARK not in element:
            target = Target(TargetForm.MEMBER, method, Resolution.INFERRED, owner=element)
            self.result.calls.append(BoundCall(scope.caller, container.start_point.row, target))

    def _hashed_keys(self, nodes: list[ts.Node], scope: Scope) -> None:
        """A lookup in a mapping or set whose keys' class the code states (`key in self._map`, `self._map[key]`,
        `self._map.get(key)`) hashes the key and compares it with the keys of the same hash: runs that class's
        `__hash__` and `__eq__` (the indexer finds them through its bases; a class defining neither gets no edge)."""
        for container in keyed_containers(nodes):
            key = self.keys_of(container, scope)
            if key and not standard(key):
                for method in ("__hash__", "__eq__"):
                    target = Target(TargetForm.MEMBER, method, Resolution.INFERRED, owner=key)
                    self.result.calls.append(BoundCall(scope.caller, container.start_point.row, target))

    def _constructs_class(self, call: ts.Node, scope: Scope) -> bool:
        """Whether a call makes an instance of the class it names (`Specifier(spec)`): its result is of that class."""
        made = self._constructed(call, scope)
        return bool(made) and named_as_class(made) and self._receiver_type(call, scope) == made

    def _mapped_constructions(self, nodes: list[ts.Node], scope: Scope) -> None:
        """`map(Requirement, lines)` calls the class on each element: a construction of it."""
        for call in (n for n in nodes if n.type == "call"):
            if made := self._mapped_class(call, scope):
                target = Target(TargetForm.QUALIFIED, made, Resolution.INFERRED)
                self.result.calls.append(BoundCall(scope.caller, call.start_point.row, target))

    def _hashed_elements(self, nodes: list[ts.Node], scope: Scope) -> None:
        """A set built of values whose class the code states (`frozenset(map(Specifier, specs))`, `{a, b}`,
        `{Item(n) for n in names}`) hashes each: runs that class's `__hash__`."""
        for node in nodes:
            if node.type == "dictionary":  # `{univ.Integer.tagSet: IntegerDecoder()}`: each key's
                self._hashed_dictionary_keys(node, scope)
                continue
            if node.type in ("set", "set_comprehension"):
                given: ts.Node | None = node
            else:
                function = node.child_by_field_name("function") if node.type == "call" else None
                written = node_text(function) if function is not None else ""
                arguments = call_arguments(node) if written in HASHING_BUILTINS else []
                given = arguments[0] if arguments and not self._bound(written, scope) else None
            element = self._elements_given(given, scope) if given is not None else ""
            if element and not standard(element.removesuffix(ELEMENTS_MARK)):
                target = Target(TargetForm.MEMBER, "__hash__", Resolution.INFERRED, owner=element)
                self.result.calls.append(BoundCall(scope.caller, node.start_point.row, target))

    def _hashed_dictionary_keys(self, dictionary: ts.Node, scope: Scope) -> None:
        """A dict written out hashes each of its keys: runs the `__hash__` of each key's class the code states."""
        keys = (pair.child_by_field_name("key") for pair in dictionary.named_children if pair.type == "pair")
        for key in (k for k in keys if k is not None):
            typed = self._value_type(key, scope.types, scope) or self._read_on_class(key, scope)
            if typed and not standard(typed.partition(ATTRIBUTE_MARK)[0]) and ELEMENTS_MARK not in typed:
                target = Target(TargetForm.MEMBER, "__hash__", Resolution.INFERRED, owner=typed)
                self.result.calls.append(BoundCall(scope.caller, key.start_point.row, target))

    def _compared_knowingly(self, left: ts.Node, scope: Scope) -> bool:
        """Whether the left operand of a comparison is of a class the code states (its own method is bound); a value
        written out (`"x" == b`, a builtin's, declines another class) or of no known class is not."""
        if left.type not in ("identifier", "attribute", "call", "subscript"):
            return False
        typed = self._stated_class(left, scope)
        return bool(typed) and f"{ATTRIBUTE_MARK}{PARAMETER_OPEN}" not in typed  # (not what callers pass a parameter)

    def _stated_class(self, value: ts.Node, scope: Scope) -> str:
        """The class a value is, as the code states it or the indexer reads it (a parameter's, an imported
        instance's); "" when unknown."""
        return self.passed_type(value, scope) or self._imported_instance(value, scope)

    def _tuple_of(self, value: ts.Node, scope: Scope) -> ts.Node | None:
        """The one argument of a `tuple(...)` or `frozenset(...)` call the file does not rebind
        (`tuple(self.expansion)`): what holds the elements it is made of; None for any other value."""
        function = value.child_by_field_name("function") if value.type == "call" else None
        written = node_text(function) if function is not None else ""
        arguments = (
            call_arguments(value) if written in ("tuple", "frozenset") and not self._bound(written, scope) else []
        )
        return arguments[0] if len(arguments) == 1 and arguments[0].type in ("identifier", "attribute") else None

    def _read_on_class(self, node: ts.Node, scope: Scope) -> str:
        """An attribute read on a class a module defines (`univ.Integer.tagSet`), as the indexer reads what the class
        or a base states it holds (`Class@attribute`); "" for anything else."""
        owner = node.child_by_field_name("object") if node.type == "attribute" else None
        written = node_text(owner) if owner is not None and owner.type in ("identifier", "attribute") else ""
        head = written.partition(".")[0]
        local = (scope.types, scope.held, scope.open_params, scope.callables)
        if not written or head == scope.receiver or any(head in names for names in local):
            return ""
        cls = self._qualified(written)
        if not cls or not named_as_class(cls) or standard(cls):
            return ""
        return f"{cls}{ATTRIBUTE_MARK}{node_text(node.child_by_field_name('attribute'))}"


def _opened(value: ts.Node, scope: Scope) -> str:
    """What the indexer reads callers pass a parameter being consumed (`f@(iterable#1)`); "" for any other value."""
    return scope.open_params.get(node_text(value), "") if value.type == "identifier" else ""


def _receives_class(scope: Scope) -> bool:
    """Whether the caller's receiver is its class, not an instance: `cls` (a classmethod's, by the convention the
    binder reads it by), or the first parameter of `__new__`, `__init_subclass__`, `__class_getitem__`."""
    return scope.receiver == "cls" or scope.caller.rpartition(".")[2] in CLASS_RECEIVING


def _sets_plainly(method: str, cls: ClassFacts) -> bool:
    """Whether setting (or deleting) an attribute of the class's own instance runs no hook of the project's: the
    class defines none and derives from nothing (most classes; no reference is kept for each `self.x = v`)."""
    return method in ATTRIBUTE_HOOKS and not cls.derived and method not in cls.methods
