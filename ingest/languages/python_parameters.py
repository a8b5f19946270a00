"""What a Python file's names and its functions' parameters are: the qualified name a name the module binds stands
for, the one type an annotation states, and each parameter's type — its annotation's, else what the file's own calls
pass it (`python_arguments`).

The ground floor of the binder (`python_types` reads a file's declarations on it, `python_scope` binds calls).
"""

from __future__ import annotations

import builtins
import sys
from collections.abc import Set as AbstractSet
from dataclasses import replace

import tree_sitter as ts

from trident.ingest.languages import node_text
from trident.ingest.languages.python_arguments import (
    GENERATOR,
    HELD,
    INSTANCE,
    Passed,
    Signature,
    passed_as,
    signature,
    wrapped_by,
)
from trident.ingest.languages.python_facts import Scope
from trident.ingest.languages.python_syntax import (
    annotated_name,
    callable_only,
    element_annotation,
    element_items,
    element_name,
    held_class_name,
    held_element_name,
    item_name,
    key_name,
    name_alone,
    parameter_nodes,
    returned_values,
    star_parameter,
    union_names,
    varargs_node,
)
from trident.ingest.model import ATTRIBUTE_MARK, RETURNED_PLACE, STARRED_PLACE, parameter_attribute


class PythonParameters:
    """The names one file binds and the parameters of its functions."""

    def __init__(self, path: str, module: str, passed: Passed | None = None) -> None:
        self.path, self.module = path, module
        self.names: dict[str, str] = {}  # module-level name -> qualified name
        self.type_vars: dict[str, str] = {}  # `T = TypeVar("T", bound="Foo")`: T -> "Foo" as written
        self.type_aliases: dict[str, str] = {}  # `TextType = Union[str, "Text"]`: TextType -> "Text" as written
        self.star_modules: list[str] = []  # `from .core import *`: the modules a name the file does not bind may be of
        self.assigned: set[str] = set()  # the names the module's top-level assignments bind
        self.union_aliases: dict[str, list[str]] = {}  # `Tree = Union["Element", "Hash"]`: Tree -> each, as written
        self.callable_aliases: set[str] = set()  # `_HookExec: TypeAlias = Callable[...]`: says only "callable"
        self.passed: Passed = passed or {}  # what the file's calls pass its functions' untyped parameters
        self.signatures: dict[str, Signature] = {}  # qualified function or method -> its parameters
        self.defined_at: dict[int, str] = {}  # where a function's `def` starts (byte) -> its qualified name
        self.found: dict[str, dict[str, set[tuple[str, str]]]] = {}  # what this pass saw passed (`passed`'s next)

    def says_callable(self, annotation: ts.Node | None) -> bool:
        """Whether a parameter's annotation says no more than that its value is callable, or there is none: what
        callers pass says what the value is (`callable_only`; a name the file gives such an annotation, `Optional`
        too)."""
        return annotation is None or callable_only(annotation, self.callable_aliases)

    def held_parameters(self, function: ts.Node) -> dict[str, str]:
        """Parameter -> the class it holds, for parameters annotated `type[Foo]`."""
        nodes = parameter_nodes(function)
        found = {name: self._named_type(held_class_name(annotation)) for name, annotation in nodes}
        for name, values in self._passed_to(function).items():
            if len(held := passed_as(values, HELD)) == 1 and not found.get(name):  # `Callable[...]` too
                found[name] = held[0]  # `run(self.render)`, `apply(Foo)` from this file
        return {name: held for name, held in found.items() if held}

    def passed_several(self, function: ts.Node, kind: str) -> dict[str, list[str]]:
        """Parameter -> the classes of the values (INSTANCE) or the functions and classes (HELD) this file's calls
        pass it, where they pass several."""
        found = {name: passed_as(values, kind) for name, values in self._passed_to(function).items()}
        return {name: names for name, names in found.items() if len(names) > 1}

    def wrapped_parameters(self, function: ts.Node) -> dict[str, list[str]]:
        """Parameter -> the functions a decorator applied more widely is given (jinja2's `@optimizeconst` over ten
        `visit_*` methods): its wrapper's call of the parameter runs one of them."""
        found = {name: wrapped_by(values) for name, values in self._passed_to(function).items()}
        return {name: functions for name, functions in found.items() if functions}

    def generator_parameters(self, function: ts.Node) -> dict[str, list[str]]:
        """Parameter -> the generator functions whose generators this file's calls pass it (`self.wrap(stream)` with
        `stream = self.tokeniter(...)`), where every value passed is one."""
        found = {name: passed_as(values, GENERATOR) for name, values in self._passed_to(function).items()}
        return {name: functions for name, functions in found.items() if functions}

    def saw_passed(self, function: str, parameter: str, value: tuple[str, str]) -> None:
        """Note, for the next pass, that a call of this file passes `function`'s `parameter` a value."""
        self.found.setdefault(function, {}).setdefault(parameter, set()).add(value)

    def open_parameters(self, function: ts.Node) -> dict[str, str]:
        """Parameter -> what the indexer reads it holds (`mod.f@(cache#0)`), for each parameter of a function of the
        file that states no annotation: the values calls of any file pass it, by place or keyword (`PASSES`)."""
        found = self.signatures.get(self.defined_at.get(function.start_byte, ""))
        unannotated = {name for name, annotation in parameter_nodes(function) if self.says_callable(annotation)}
        return self._read_as_passed(function, found.untyped & unannotated) if found is not None else {}

    def foreign_parameters(self, function: ts.Node) -> dict[str, str]:
        """Parameter -> what the indexer reads it holds, for each parameter annotated with one name another module
        gives (`func: Optional[F]` after `from ._types import F`): that may be a type variable bound to `Callable`
        or a callable alias there, which says only "callable" and this file cannot tell from a class, so a call of
        the parameter may run what callers pass it too."""
        foreign = set()
        for name, annotation in parameter_nodes(function):
            written = name_alone(annotation)
            bound = self.names.get(written, "")
            if bound and not bound.startswith(f"{self.module}.") and not standard(bound):
                foreign.add(name)
        return self._read_as_passed(function, foreign)

    def _read_as_passed(self, function: ts.Node, names: AbstractSet[str]) -> dict[str, str]:
        """Each of a function's parameters `names` -> its slot as the indexer reads what calls pass there
        (`mod.f@(cache#0)`, by place or keyword)."""
        qualified = self.defined_at.get(function.start_byte, "")
        found = self.signatures.get(qualified)
        if found is None:
            return {}
        skipped = 1 if found.bound_first else 0
        places = {name: at - skipped for at, name in enumerate(found.positional) if at >= skipped}
        return {
            name: f"{qualified}{ATTRIBUTE_MARK}{parameter_attribute(name, places.get(name))}"
            for name in sorted(names)
            if name in places or name in found.keyword_only
        }

    def open_star(self, function: ts.Node) -> dict[str, str]:
        """A function's `*args` parameter, unannotated or annotated only as callable, -> what the indexer reads each
        of its elements holds (`mod.f@(fns#0+)`): the values calls of any file pass at its place and after."""
        qualified = self.defined_at.get(function.start_byte, "")
        found = self.signatures.get(qualified)
        star = star_parameter(function)
        if found is None or star is None or not self.says_callable(star[1]):
            return {}
        place = len(found.positional) - (1 if found.bound_first else 0)  # (the positionals end at it)
        return {star[0]: f"{qualified}{ATTRIBUTE_MARK}{parameter_attribute(star[0], f'{place}{STARRED_PLACE}')}"}

    def returned_parameters(self, function: ts.Node) -> dict[str, str]:
        """The first parameter, unannotated, of a function the file's function or method defines in its body and
        returns (`def wrap(f): ...` then `return wrap` in `recurse`), as the indexer reads what a call of the outer
        call's result passes it (`@recurse(Identifier)` over `def group`: group): `mod.recurse@(f#=0)`."""
        parent = function.parent
        block = parent.parent if parent is not None and parent.type == "decorated_definition" else parent
        outer = block.parent if block is not None and block.type == "block" else None
        qualified = self.defined_at.get(outer.start_byte, "") if outer is not None else ""
        if outer is None or qualified not in self.signatures:
            return {}
        name = node_text(function.child_by_field_name("name"))
        if not any(v.type == "identifier" and node_text(v) == name for v in returned_values(outer)[0]):
            return {}
        first = next(iter(parameter_nodes(function)), None)
        if first is None or first[1] is not None or first[0] != (signature(function, False).positional or ("",))[0]:
            return {}
        return {first[0]: f"{qualified}{ATTRIBUTE_MARK}{parameter_attribute(first[0], f'{RETURNED_PLACE}0')}"}

    def _passed_to(self, function: ts.Node) -> dict[str, frozenset[tuple[str, str]]]:
        return self.passed.get(self.defined_at.get(function.start_byte, ""), {})

    def element_parameters(self, function: ts.Node) -> dict[str, str]:
        """Parameter -> the type of its elements, for parameters annotated `list[Foo]`, `Sequence[Foo]`, ..., and
        `*args: Foo`."""
        found = {name: self._named_type(element_name(t)) for name, t in parameter_nodes(function)}
        if gathered := varargs_node(function):
            found[gathered[0]] = self._annotation(gathered[1])
        return {name: element for name, element in found.items() if element}

    def element_union_parameters(self, function: ts.Node) -> dict[str, list[str]]:
        """Parameter -> the classes each of its elements may be, for parameters annotated `list[A | B]`,
        `Sequence[Union[A, B]]`, ..., and `*args: A | B`."""
        found = {name: self.union_types(element_annotation(t)) for name, t in parameter_nodes(function)}
        if gathered := varargs_node(function):
            found[gathered[0]] = self.union_types(gathered[1])
        return {name: types for name, types in found.items() if types}

    def held_element_parameters(self, function: ts.Node) -> dict[str, str]:
        """Parameter -> the class each of its elements is, for parameters annotated `Sequence[type[Foo]]`: a class or
        one deriving from it, not an instance."""
        found = {name: self._named_type(held_element_name(t)) for name, t in parameter_nodes(function)}
        return {name: held for name, held in found.items() if held}

    def key_parameters(self, function: ts.Node) -> dict[str, str]:
        """Parameter -> the class of its keys, for parameters annotated `dict[Key, int]`, `set[Key]`, ..."""
        found = {name: self._named_type(key_name(t)) for name, t in parameter_nodes(function)}
        return {name: key for name, key in found.items() if key}

    def element_item_parameters(self, function: ts.Node) -> dict[str, list[str]]:
        """Parameter -> the type at each place of its tuple elements, for parameters annotated `list[tuple[Key,
        Item]]`, `Iterable[Tuple[str, Foo]]`, ... (`for key, item in body:`)."""
        found = {name: self.element_item_types(t) for name, t in parameter_nodes(function)}
        return {name: items for name, items in found.items() if any(items)}

    def element_item_types(self, annotation: ts.Node | None) -> list[str]:
        """The qualified type at each place of the tuples a container annotation holds ("" where it states none)."""
        return [self._annotation(item) for item in element_items(annotation)]

    def union_parameters(self, function: ts.Node) -> dict[str, list[str]]:
        """Parameter -> its classes, for parameters annotated with a union of classes this file names (`obj: Command |
        Parameter`): a call on it may run either's method."""
        found = {name: self.union_types(t) for name, t in parameter_nodes(function) if not self.says_callable(t)}
        return {name: types for name, types in found.items() if types}

    def union_types(self, annotation: ts.Node | None) -> list[str]:
        """The qualified classes of a union annotation (`A | B`, `Union[A, B]`), when the file names every one; []
        otherwise."""
        written = union_names(annotation) or ([name] if (name := annotated_name(annotation)) else [])
        expanded = [member for name in written for member in self.union_aliases.get(name, [name])]
        types = list(dict.fromkeys(self._named_type(name) for name in expanded))
        return types if len(types) > 1 and all(types) else []

    def item_parameters(self, function: ts.Node) -> dict[str, str]:
        """Parameter -> what a subscript of it gives, for parameters annotated `dict[str, Foo]`, `Mapping[str, Foo]`,
        `list[Foo]`, ... (`handlers[kind].run()`, `handlers.get(kind)`, `handlers.values()`)."""
        found = {name: self._named_type(item_name(t)) for name, t in parameter_nodes(function)}
        return {name: item for name, item in found.items() if item}

    def _signature(self, function: ts.Node, method: bool) -> Signature:
        """A function's signature, its open parameters those no annotation types as a class of a project (none,
        `Callable[...]`, `Any`, a union)."""
        found = signature(function, method)
        stated = {name: self._annotation(annotation) for name, annotation in parameter_nodes(function) if annotation}
        open_ = {name for name, typed in stated.items() if not typed or standard(typed)}
        receiver = {found.positional[0]} if found.bound_first else set()  # its class's instance, whatever is passed
        return replace(found, untyped=(found.untyped | open_) - receiver)

    def _parameters(self, function: ts.Node) -> dict[str, str]:
        """Parameter -> its stated type ("" when none), in order: its annotation's, else the one class of the values
        this file's calls pass it (`render(console)` with `console = Console()`); not for a parameter annotated with
        a union of classes (`selector: Tree`: any of them, not the one a call here happens to pass)."""
        stated = {
            name: "" if self.says_callable(annotation) else self._annotation(annotation)  # (what callers pass says)
            for name, annotation in parameter_nodes(function)
        }
        unions = self.union_parameters(function)
        for name, values in self._passed_to(function).items():
            open_ = name in stated and name not in unions and (not stated[name] or standard(stated[name]))
            if open_ and len(types := passed_as(values, INSTANCE)) == 1:
                stated[name] = types[0]
        return stated

    def _bound(self, name: str, scope: Scope) -> str:
        """The qualified name an import or definition binds `name` to here (function imports first), else ""."""
        return scope.names.get(name) or self.names.get(name, "")

    def _annotation(self, node: ts.Node | None) -> str:
        """The qualified name of the one type an annotation states ("" for none, a union or a container)."""
        return self._named_type(annotated_name(node))

    def _named_type(self, text: str) -> str:
        if text in self.callable_aliases:  # `Callable[...]` by another name, a callback protocol: no class's instance
            return ""
        if text in self.type_vars:  # what a type variable may be is a class of its bound (a project's class)
            bound = self._qualified(self.type_vars[text])
            return "" if standard(bound) else bound
        if text in self.type_aliases:  # a union of one class and builtin values: that class
            return self._qualified(self.type_aliases[text])
        return self._qualified(text)

    def _qualified(self, text: str) -> str:
        head, _, rest = text.partition(".")
        bound = self.names.get(head, "") if head.isidentifier() else ""
        bound = bound or self.star_name(head, Scope("", ""))
        return f"{bound}.{rest}" if bound and rest else bound

    def star_name(self, name: str, scope: Scope) -> str:
        """A name the file binds nowhere, where it imports every name of one module (`from .core import *` in
        pyparsing's `common.py`): that module's (where Python finds it: `Word(nums)` makes a `core.Word`); "" where
        it imports so from several modules or none, for a builtin, and for a name of the function's own."""
        if len(self.star_modules) != 1 or not name.isidentifier() or name in BUILTIN_NAMES or name in self.names:
            return ""
        if name in self.assigned:
            return ""
        own = (scope.types, scope.held, scope.open_params, scope.open_held, scope.callables, scope.names)
        if name == scope.receiver or any(name in names for names in own):
            return ""
        return f"{self.star_modules[0]}.{name}"


BUILTIN_NAMES = frozenset(dir(builtins))  # what a name no statement of a module binds is, before a star import's


def standard(qualified: str) -> bool:
    """Whether a type is the standard library's (`typing.Callable`, `typing.IO`): no project's class."""
    return qualified.split(".", 1)[0] in sys.stdlib_module_names
