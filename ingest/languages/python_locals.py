"""What a function's statements say of its local values, as the binder walks them: `x = Foo()`, `x: Foo`, `with Foo()
as x`, `self.x = ...`, `for x in self.items` (a container stating its elements' type), an `isinstance(x, Foo)` branch,
a comprehension's variable, a variable holding what a built-name lookup gave (`f = self.get_visitor(node)`)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

import tree_sitter as ts

from trident.ingest.languages import node_text
from trident.ingest.languages.binding import Target
from trident.ingest.languages.python_arguments import (
    GENERATOR,
    HELD,
    INSTANCE,
    OWN_CODE,
    Signature,
    call_slots,
    signature,
)
from trident.ingest.languages.python_facts import MAX_ATTRIBUTE_TYPES, ClassFacts, Scope
from trident.ingest.languages.python_fixtures import is_fixture
from trident.ingest.languages.python_fluent import gives_receiver
from trident.ingest.languages.python_lookups import built_lookup
from trident.ingest.languages.python_parameters import standard
from trident.ingest.languages.python_syntax import (
    MAPPING_LOOKUPS,
    assigned_pairs,
    call_arguments,
    class_asked,
    descendants,
    either_side,
    element_name,
    elements_kept,
    global_names,
    held_class_name,
    imported_names,
    indexed_names,
    is_classmethod,
    is_empty_list,
    is_index,
    is_static,
    is_super,
    isinstance_test,
    item_name,
    leaves,
    literal_items,
    literal_key,
    local_names,
    named_as_class,
    negated_isinstance,
    nested_functions,
    parameter_defaults,
    returned_values,
    statements,
    subclass_test,
    super_named,
    unpacked_names,
    unwrapped,
    unwraps_itself,
    written,
)
from trident.ingest.languages.python_types import PythonTypes
from trident.ingest.model import (
    ATTRIBUTE_MARK,
    CALLED_MARK,
    ELEMENTS_MARK,
    ENTERED_MARK,
    GENERATED_MARK,
    OWN_CODE_MARK,
    PARAMETER_OPEN,
    PREFIX_MARK,
    TABLE_MARK,
    TargetForm,
)
from trident.store.schema import Resolution

# Standard library functions giving a value of the type of their first argument.
# Builtin types an `isinstance` tuple may test beside a project's class (`isinstance(other, (str, Specifier))`).
BUILTIN_TYPES = frozenset({"str", "bytes", "int", "float", "bool", "list", "tuple", "dict", "set", "frozenset"})
SAME_TYPE = frozenset({"copy.copy", "copy.deepcopy", "dataclasses.replace"})
# The methods of a dict or list that change what it holds.
TAKEN_ELEMENT = frozenset({"pop", "popleft"})  # methods of a list, set or deque that give one of its elements
MUTATORS = frozenset({"update", "setdefault", "pop", "popitem", "clear", "append", "extend", "insert", "remove"})
SUBCLASS_KEY = "\x1f"  # between a table key and the subclass whose table holds it: a key no literal writes


# what a value passed is beside its name, by kind (a class or function itself: CALLED_MARK)
VALUE_MARKS = {INSTANCE: "", OWN_CODE: OWN_CODE_MARK}
CALL_FORMS = (TargetForm.QUALIFIED, TargetForm.MEMBER, TargetForm.NAME)  # the calls whose passes are kept


@dataclass(frozen=True)
class SetType:
    """In a block's walk: a variable's type from here on ("": none), how an `isinstance` test narrows it in a branch
    and where the branch ends; `if_untyped`: only when the variable has no type there (a branch that may not run
    left it untyped: the type it had before flows on past the branch); `alternatives`, where given: the classes it is
    one of from here on (`isinstance(x, (A, B))`), () for none."""

    variable: str
    type: str
    if_untyped: bool = False
    alternatives: tuple[str, ...] | None = None


@dataclass(frozen=True)
class SetHeld:
    """In a block's walk: the class a variable holds from here on, one deriving from it (`issubclass(x, Base)` tested
    before), or nothing ("")."""

    variable: str
    held: str
    bounded: bool = True


@dataclass(frozen=True)
class KeepOpen:
    """In a block's walk: past an `if` without `else`, a parameter the branch gave a value of its own (`if not
    postvisit: postvisit = lambda node: None`) may still hold what its callers pass (`opened`, as the indexer reads
    them; `held`: a function or class they pass)."""

    variable: str
    opened: str
    held: bool


@dataclass(frozen=True)
class MergeHeld:
    """In a block's walk: the end of a statement whose branches (`if`/`elif`/`else`, `try`/`except`, `match`) may each
    give a variable a different class or function to hold."""

    statement: ts.Node


class PythonLocals(PythonTypes):
    """The local types of one file's functions, on what `PythonTypes` read of the file."""

    def read(self, root: ts.Node) -> None:
        super().read(root)
        self.module_items.update(self._module_items(root))
        for qualified, function in self.definitions.items():
            # `-> type[ShellComplete] | None`: what it returns is the class itself, which a call of it constructs
            stated = self._named_type(held_class_name(function.child_by_field_name("return_type")))
            returned = [stated] if stated else self._returned_callables(qualified, function)
            if len(returned) == 1:
                self.returned_held[qualified] = returned[0]
            elif returned:
                self.returned_several[qualified] = returned
        for qualified, function in self.definitions.items():  # `return serializer_factory()`: what it makes
            if qualified in self.returns:
                continue
            made = (
                self._fixture_made(qualified, function)
                or self._member_returned(qualified, function)
                or self._item_returned(function)
            )
            if made:
                self.returns[qualified] = made
                self.return_rows[qualified] = function.start_point.row
                self.inferred_returns.add(qualified)
        self._read_fluent()
        assigned = _assigned_at_top(root)
        rebound = global_names(root)
        filled = self._filled_at_top(root)
        for name, values in assigned.items():  # a table assigned once: `HANDLERS = {"get": on_get, ...}`
            table = self._table(values[0], Scope("", "")) if len(values) == 1 else {}
            if len(values) == 1 and _is_dict(values[0]):
                table |= filled.get(name, {})
            if table:
                self.tables[name] = table
            # a name given a function or class once (`_default_stdout = _cached_stream(get_stdout)`, `Handler =
            # JSONHandler`) and rebound by no function: calling it calls that
            once = len(values) == 1 and name not in rebound and name not in self.names
            if once and (held := self._held_value(values[0], Scope("", ""))):
                self.module_held[name] = held
            elif once and name not in self.tables and (typed := self._assigned_type(values[0])):
                self.module_types[name] = typed  # `_lexer_cache = LRUCache(50)`: what the file's functions read
            elif len(values) > 1 and name not in rebound | self.names.keys() and (typed := self._made_each(values)):
                self.module_types[name] = typed  # `rule_grammar = BootstrappingGrammar(...)`, later `= Grammar(...)`
        self.read_module_elements(root)  # (again, with the file's classes known: a list of several shares a base)

    def _made_each(self, values: list[ts.Node]) -> str:
        """The class every one of a module-level name's assignments makes an instance of, or the nearest base of this
        file they all derive from (a function may run between them, while the module runs); "" where one makes none
        the file states."""
        made = {self._assigned_type(value) for value in values}
        if "" in made:
            return ""
        return made.pop() if len(made) == 1 else self._shared_base(made)

    def read_module_elements(self, root: ts.Node) -> None:
        """Module-level name given a list, tuple or set written out once, rebound by no function -> the type of its
        elements (`DEFAULT_SECTIONS = [ParamSection(...), ...]`), read before the classes' attributes, which may be
        built of it (`self.sections = {s.title: s for s in DEFAULT_SECTIONS}`: a list of one class is known then);
        one given an instance of a class the file names, that class (`module_made`)."""
        rebound = global_names(root)
        for name, values in _assigned_at_top(root).items():
            once = len(values) == 1 and name not in rebound and name not in self.names
            listed = once and values[0].type in ("list", "tuple", "set")
            if listed and (element := self._elements_given(values[0], Scope("", ""))):
                self.module_elements[name] = element
            made = self._constructed(values[0], Scope("", "")) if once and values[0].type == "call" else ""
            if made and named_as_class(made) and not standard(made):
                self.module_made[name] = made
            mapped = once and values[0].type in ("dictionary", "dictionary_comprehension")
            if mapped and (item := self._items_given(values[0], Scope("", ""))):
                self.module_items[name] = item  # `TYPE_MAP = {int: IntegerEncoder(), ...}`: each is an item encoder

    def _filled_at_top(self, root: ts.Node) -> dict[str, dict[str, str]]:
        """Module-level name -> key -> the function or class a module-level statement puts there (`_parser_creators[
        'lalr'] = create_lalr_parser`, after `_parser_creators = {}`): the table a registry fills as the module runs."""
        filled: dict[str, dict[str, str]] = {}
        for left, right in _assignments_at_top(root):
            table = left.child_by_field_name("value") if left.type == "subscript" else None
            key = literal_key(left.child_by_field_name("subscript")) if table is not None else None
            if table is None or table.type != "identifier" or key is None:
                continue
            if held := self._held_value(right, Scope("", "")):
                filled.setdefault(node_text(table), {})[key] = held
        return filled

    def _assigned_type(self, value: ts.Node) -> str:
        """The type a module-level assignment states for its name, given its value."""
        assignment = value.parent
        return self._stated_type(assignment, {}, None) if assignment is not None else ""

    def _table(self, value: ts.Node, scope: Scope) -> dict[str, str]:
        """Key -> the function or class a dict or list literal holds there (`{"a": f}`, `[f, g]`), those it holds."""
        held = {key: self._held_value(item, scope) for key, item in literal_items(value)}
        return {key: name for key, name in held.items() if name}

    def _table_given(self, value: ts.Node, scope: Scope) -> dict[str, str]:
        """What an attribute is given to hold as a table: a dict or list literal of functions, classes or bound
        methods (`{"get": self.do_get}`)."""
        return self._table(value, scope) if value.type in ("dictionary", "list") else {}

    def _table_of(self, node: ts.Node | None, scope: Scope) -> dict[str, str]:
        """Key -> function or class of the table `node` is: a local or module table by its name, one another module
        defines (`from .filters import FILTERS`), or an attribute a class gives a table (`self.routes`, a copy of a
        module's: `self.filters = DEFAULT_FILTERS.copy()`), of this file's classes or another's
        (`eval_ctx.environment.filters`); {} for anything else. A table of another file is one item, its name marked
        for the indexer (`TABLE_MARK`), under a key no literal is."""
        if node is not None and node.type == "identifier":
            return self._table_named(node_text(node), scope) or self._imported_table(node_text(node), scope)
        owner = node.child_by_field_name("object") if node is not None and node.type == "attribute" else None
        if node is None or owner is None:
            return {}
        attribute = node_text(node.child_by_field_name("attribute"))
        if scope.cls is not None and scope.receiver and node_text(owner) == scope.receiver:
            return self._class_table(scope.cls, attribute, scope)
        typed = self._receiver_type(owner, scope)
        if not typed or standard(typed):
            return {}
        if (cls := self.classes.get(typed.removeprefix(f"{self.module}."))) is not None:
            return self._class_table(cls, attribute, scope)
        return _elsewhere(f"{typed}{ATTRIBUTE_MARK}{attribute}")

    def _class_table(self, cls: ClassFacts, attribute: str, scope: Scope) -> dict[str, str]:
        """The table a class gives an attribute, with those its subclasses of this file give it in its place
        (`Date.DESERIALIZATION_FUNCS` for `self.DESERIALIZATION_FUNCS` in `DateTime`'s method), each of theirs under
        its key and the subclass (a key the code writes picks the class's own)."""
        copied = cls.copied.get(attribute, "")
        own = cls.tables.get(attribute) or self.tables.get(copied, {}) or self._imported_table(copied, scope)
        if not own:  # a base of this file gives it (`self.FUNCS` in a subclass's method)
            own = next((base.tables[attribute] for base in self.file_lineage(cls) if attribute in base.tables), {})
        below = {
            f"{key}{SUBCLASS_KEY}{sub}": held
            for sub in self.file_subclasses(cls.qualified)
            if (facts := self.by_qualified.get(sub)) is not None
            for key, held in facts.tables.get(attribute, {}).items()
        }
        return {**own, **below}

    def _imported_table(self, name: str, scope: Scope) -> dict[str, str]:
        """A module-level name another module of a project binds, as a table of that module (or none)."""
        imported = self.imported_name(name, scope) if name else ""
        return _elsewhere(imported) if imported else {}

    def table_picked(self, value: ts.Node, scope: Scope) -> list[str]:
        """What `x = TABLE[k]` or `x = TABLE.get(k)` makes x at a key the code computes: any item of a table of this
        file (a local's, the module's, an attribute's of the method's class), or of one another file defines (marked
        for the indexer, `TABLE_MARK`); [] for anything else."""
        if value.type == "call" and (function := value.child_by_field_name("function")) is not None:
            getter = function.type == "attribute" and node_text(function.child_by_field_name("attribute")) == "get"
            table_node = function.child_by_field_name("object") if getter else None  # `TABLE.get(k)`, as `TABLE[k]`
            if table_node is None:
                return []
        elif value.type == "subscript":
            table_node = value.child_by_field_name("value")
        else:
            return []
        return sorted(set(self._table_of(table_node, scope).values()))

    def imported_name(self, name: str, scope: Scope) -> str:
        """What `name` is where the file imports it from another module of a project and nothing of this function
        shadows it; "" otherwise."""
        if not name or {name} & (scope.types.keys() | scope.held.keys() | scope.tables.keys() | scope.picked.keys()):
            return ""
        imported = self._bound(name, scope)
        if not imported or imported.startswith(f"{self.module}.") or standard(imported):
            return ""
        return imported

    def _table_named(self, name: str, scope: Scope) -> dict[str, str]:
        """Key -> function or class of the dict or list literal `name` is: this function's, else the module's when
        nothing of this function shadows it; {} for none."""
        table = scope.tables.get(name)
        if table is None and scope.in_function and not {name} & (scope.types.keys() | scope.held.keys()):
            table = self.tables.get(name)
        return table or {}

    def table_called(self, subscript: ts.Node, scope: Scope) -> tuple[list[str], Resolution]:
        """What `table[key](...)` calls: the function the key holds when it is written and held (inferred), else
        every one the table holds (dispatch: the key picks one at run time); of a dict or list literal of this
        function, or of the module when no local shadows it."""
        value, key = subscript.child_by_field_name("value"), subscript.child_by_field_name("subscript")
        table = self._table_of(value, scope)
        if not table:
            return [], Resolution.NAME
        written = literal_key(key)
        if written is not None and written in table:
            return [table[written]], Resolution.INFERRED
        return sorted(set(table.values())), Resolution.DISPATCH

    def _note_mutated(self, call: ts.Node, scope: Scope) -> None:
        """`handlers.update(...)`, `.pop(...)`, `.append(...)`: what a local table holds is no longer known."""
        function = call.child_by_field_name("function")
        if (
            function is None
            or function.type != "attribute"
            or (owner := function.child_by_field_name("object")) is None
        ):
            return
        method = node_text(function.child_by_field_name("attribute"))
        if method in MUTATORS and owner.type == "identifier" and node_text(owner) in scope.tables:
            scope.tables.pop(node_text(owner))
        if method in MUTATORS and owner.type == "identifier" and node_text(owner) in scope.filling:
            self._note_filled(node_text(owner), method, call, scope)

    def _note_filled(self, name: str, method: str, call: ts.Node, scope: Scope) -> None:
        """`out = []` then `out.append(Item(...))`: the list's elements are what every append and insert gives it,
        while they all give one type (any other change, or a value of no stated type, leaves them unknown)."""
        given = call_arguments(call)
        value = given[-1] if given and method in ("append", "insert") else None
        typed = self._value_type(value, scope.types, scope) if value is not None else ""
        if typed and scope.elements.get(name, typed) == typed:
            scope.elements[name] = scope.items[name] = typed
            return
        scope.filling.discard(name)
        scope.elements.pop(name, None)
        scope.items.pop(name, None)

    def _member_returned(self, qualified: str, function: ts.Node) -> str:
        """What an unannotated method returns where every `return` gives an attribute whose type the file states
        (`return self._t`, `return self._src.state` with `state` a property of another file's class)."""
        cls = self.classes.get(qualified.removeprefix(f"{self.module}.").rpartition(".")[0])
        values, yielded = returned_values(function)
        parameters = self._parameters(function)
        receiver = next(iter(parameters), "")
        if cls is None or yielded or not values or not receiver or is_static(function):
            return ""
        scope = Scope(receiver, "", cls, receiver, dict(parameters))
        found = {self._receiver_type(value, scope) if value.type == "attribute" else "" for value in values}
        made = found.pop() if len(found) == 1 else ""
        return made if made and not standard(made.partition(ATTRIBUTE_MARK)[0]) else ""

    def _read_fluent(self) -> None:
        """The unannotated methods that give back their receiver or a copy of it (`python_fluent`): each returns an
        instance of its class. Again while one is found, for a method returning another's value (`return
        self.copy()`)."""
        pending: dict[str, tuple[ClassFacts, ts.Node, str]] = {}
        for qualified, function in self.definitions.items():
            cls = self.by_qualified.get(qualified.rpartition(".")[0])
            if cls is None or qualified in self.returns or qualified in self.generator_functions:
                continue
            receiver = next(iter(signature(function, True).positional), "")
            if receiver and not is_static(function) and not is_classmethod(function):
                pending[qualified] = (cls, function, receiver)
        found = True
        while found:  # (each pass that goes on takes a method out of `pending`: at most one pass per method)
            found = False
            for qualified, (cls, function, receiver) in list(pending.items()):
                own = partial(self._gives_own, cls)
                if gives_receiver(self.returned_nodes.get(qualified, []), receiver, self._qualified, own):
                    self.returns[qualified] = cls.qualified
                    self.return_rows[qualified] = function.start_point.row
                    self.inferred_returns.add(qualified)
                    del pending[qualified]
                    found = True

    def _gives_own(self, cls: ClassFacts, method: str) -> bool:
        """Whether a method the class defines returns an instance of the class."""
        return method in cls.methods and self.returns.get(f"{cls.qualified}.{method}") == cls.qualified

    def _module_items(self, root: ts.Node) -> dict[str, str]:
        """Module-level name -> the class a subscript of it gives, where its one assignment's annotation states it
        (`_loaded_grammars: Dict[str, "Grammar"] = {}`) and no function rebinds it."""
        rebound = global_names(root)
        found = {name: values for name, values in _assigned_at_top(root).items() if name not in rebound}
        annotated = {name: values[0].parent for name, values in found.items() if len(values) == 1}
        items = {name: item_name(a.child_by_field_name("type")) for name, a in annotated.items() if a is not None}
        return {name: typed for name, item in items.items() if (typed := self._named_type(item))}

    def _item_returned(self, function: ts.Node) -> str:
        """What an unannotated function returns where every `return` gives an item of one module-level mapping whose
        annotation states its items' class (`return _loaded_grammars[path]`, `return _loaded_grammars.setdefault(path,
        grammar)`): that class; "" otherwise."""
        values, yielded = returned_values(function)
        values = [v for v in values if v.type != "none"]
        if yielded or not values:
            return ""
        found = {self.module_items.get(_item_of(value), "") for value in values}
        made = found.pop() if len(found) == 1 else ""
        return made if made and not standard(made) else ""

    def _fixture_made(self, qualified: str, function: ts.Node) -> str:
        """What a fixture returns by calling another fixture it receives that holds a class (`return
        serializer_factory()`, where that fixture returns `partial(Serializer, ...)`): an instance of that class."""
        if not is_fixture(function):
            return ""
        owner = qualified.rpartition(".")[0]
        fixtures = self.class_fixtures.get(owner, {}) if owner != self.module else self.fixtures
        values, yielded = returned_values(function)
        made = set()
        for value in [*values, *yielded]:
            called = value.child_by_field_name("function") if value.type == "call" else None
            name = node_text(called) if called is not None and called.type == "identifier" else ""
            made.add(self.returned_held.get(f"{owner}.{fixtures[name]}", "") if name in fixtures else "")
        return made.pop() if len(made) == 1 else ""

    def _returned_callables(self, qualified: str, function: ts.Node) -> list[str]:
        """The functions or classes the `return`s of a function give, not called (`return self.on_done`, `return
        handler`; `return c_ast.Struct` on one branch, `return c_ast.Union` on another, `return iter_children_astroid
        if hasattr(node, "get_children") else iter_children_ast`, `return handler or default`), where every one gives
        one: a call of what the function returns calls one of them. A name the function binds itself (a parameter, a
        local, a nested definition) is not the module's of that name."""
        values, yielded = returned_values(function)
        values = [v for v in _alternatives(values) if v.type != "none"]
        if yielded or not values:
            return []
        nested = nested_functions(function)
        if all(v.type == "identifier" and node_text(v) in nested for v in values):
            self.closures.add(qualified)  # a closure it defines (`return wrapper`): its code is the function's own
            return []
        cls = self.by_qualified.get(qualified.rpartition(".")[0])
        signature = self.signatures[qualified]
        receiver = signature.positional[0] if cls is not None and signature.bound_first else ""
        scope = Scope(qualified, "", cls, receiver, held=self.held_parameters(function))
        own = local_names(function) - {receiver}
        if any(v.type == "identifier" and node_text(v) in own and node_text(v) not in scope.held for v in values):
            return []
        found = {self._held_value(v, scope) for v in values}
        return sorted(found) if "" not in found else []

    def _narrowed(self, node: ts.Node, scope: Scope) -> tuple[SetType, SetType] | None:
        """When an `if`/`elif` tests `isinstance(variable, Class)` of a class the file binds, or of a tuple of several
        (`isinstance(token, (Identifier, Function))`: one of them): what the variable is in the branch, and what it
        was before (to restore past it)."""
        if node.type not in ("if_statement", "elif_clause") or not scope.in_function:
            return None
        test = isinstance_test(node.child_by_field_name("condition"))
        if test is None or node_text(test[0]) == scope.receiver:
            return None
        variable = node_text(test[0])
        before = scope.types.get(variable, "")
        tested = self._tested_classes(test[1], scope)
        if len(tested) == 1:
            return SetType(variable, tested[0]), SetType(variable, before)  # (its type hides what else it may be)
        had = tuple(scope.alternatives.get(variable, ()))
        return (
            (SetType(variable, "", alternatives=tuple(tested)), SetType(variable, before, alternatives=had))
            if tested
            else None
        )

    def _tested_classes(self, tested: ts.Node, scope: Scope) -> list[str]:
        """The classes an `isinstance` test names: the one class, or those of a tuple (`_tuple_classes`)."""
        return [cls] if (cls := self._held_value(tested, scope)) else self._tuple_classes(tested, scope)

    def narrowed_parts(self, nodes: list[ts.Node], scope: Scope) -> list[tuple[ts.Node, str, list[str]]]:
        """The parts of an expression an `isinstance` test guards, outermost first, each with the variable and the
        classes it is there: the right of `isinstance(x, Foo) and x.m()`, the value of `x.m() if isinstance(x, Foo)
        else y`."""
        found: list[tuple[ts.Node, str, list[str]]] = []
        for node in nodes:
            if any(part.start_byte <= node.start_byte and node.end_byte <= part.end_byte for part, _, _ in found):
                continue
            if node.type == "boolean_operator" and node_text(node.child_by_field_name("operator")) == "and":
                test, part = isinstance_test(node.child_by_field_name("left")), node.child_by_field_name("right")
            elif node.type == "conditional_expression" and node.named_child_count == 3:
                test, part = isinstance_test(node.named_children[1]), node.named_children[0]
            else:
                continue
            if test is None or part is None or node_text(test[0]) == scope.receiver:
                continue
            if tested := self._tested_classes(test[1], scope):
                found.append((part, node_text(test[0]), tested))
        return found

    def _tuple_classes(self, classes: ts.Node, scope: Scope) -> list[str]:
        """`(str, Specifier)` or `(Identifier, Function)` tested by `isinstance`: the classes of a project it names,
        sorted, where nothing else is named but builtins (whose methods are no project's); [] otherwise."""
        if classes.type != "tuple":
            return []
        held = [self._held_value(c, scope) for c in classes.named_children]
        builtin = [node_text(c) for c, h in zip(classes.named_children, held, strict=True) if not h]
        project = sorted({h for h in held if h and not standard(h)})
        if len(project) + len(builtin) != len(held) or not set(builtin) <= BUILTIN_TYPES:
            return []
        return project if all(named_as_class(p) for p in project) else []

    def guarded(self, node: ts.Node, scope: Scope) -> SetType | None:
        """`if not isinstance(other, Requirement): return NotImplemented` (no `elif`/`else`, its block leaving): past
        the statement, the variable is of the class; None for any other statement."""
        if node.type != "if_statement" or not scope.in_function:
            return None
        test = negated_isinstance(node.child_by_field_name("condition"))
        if test is None or node_text(test[0]) == scope.receiver or not leaves(node.child_by_field_name("consequence")):
            return None
        if any(c.type in ("elif_clause", "else_clause") for c in node.named_children):
            return None
        cls = self._held_value(test[1], scope)
        return SetType(node_text(test[0]), cls) if named_as_class(cls) else None

    def _subclass_narrowed(self, node: ts.Node, scope: Scope) -> tuple[SetHeld, SetHeld, bool] | None:
        """How an `if` testing `issubclass(x, Base)` narrows x: (what x holds where the test held, what it held
        before, whether that is past the statement rather than in its consequence: `if not issubclass(x, Base):
        raise ...`); None for any other statement."""
        if node.type != "if_statement" or not scope.in_function:
            return None
        test = subclass_test(node.child_by_field_name("condition"))
        base = self._held_value(test[1], scope) if test is not None and test[0] != scope.receiver else ""
        if test is None or not named_as_class(base):
            return None
        before = SetHeld(test[0], scope.held.get(test[0], ""), test[0] in scope.bounded)
        if not test[2]:
            return SetHeld(test[0], base), before, False
        alternatives = any(c.type in ("elif_clause", "else_clause") for c in node.named_children)
        if alternatives or not leaves(node.child_by_field_name("consequence")):
            return None
        return SetHeld(test[0], base), before, True

    def set_held(self, change: SetHeld, scope: Scope) -> None:
        """Apply a `SetHeld` of the walk to the scope."""
        scope.bounded.discard(change.variable)
        if not change.held:
            scope.held.pop(change.variable, None)
            return
        scope.held[change.variable] = change.held
        if change.bounded:
            scope.bounded.add(change.variable)

    def _note_local_types(self, node: ts.Node, scope: Scope) -> None:
        """`x = Foo(...)`, `x: Foo = ...` and `with Foo() as x` in a function: x's type for the calls after; an
        import inside the function binds its names for the calls after it."""
        if node.type in ("import_statement", "import_from_statement"):
            scope.names.update(imported_names(node, self.path))
        elif node.type == "except_clause":
            self._note_caught(node, scope)
        elif node.type == "assert_statement":  # `assert isinstance(child, Row)`: child is a Row after it
            test = isinstance_test(node.named_children[0] if node.named_child_count else None)
            cls = self._held_value(test[1], scope) if test is not None and node_text(test[0]) != scope.receiver else ""
            if test is not None and cls:
                scope.types[node_text(test[0])] = cls
        elif node.type == "expression_statement" and node.named_child_count == 1:
            inner = node.named_children[0]
            left = inner.child_by_field_name("left") if inner.type == "assignment" else None
            right = inner.child_by_field_name("right")
            if left is not None and left.type == "identifier" and (right is None or right.type != "assignment"):
                self._note_variable(node_text(left), right, inner.child_by_field_name("type"), scope)
            elif left is not None and left.type == "attribute" and scope.cls is not None:
                self._note_assigned(left, inner, scope)
            elif left is not None and left.type == "subscript" and right is not None:
                self._note_item(left, right, scope)
            elif left is not None:  # `a = b = f`, `a, (b, c) = f, (g, h)`; `x, y = pair()` forgets x and y
                pairs, unknown = assigned_pairs(inner)
                for name, item in pairs:
                    self._note_variable(name, item, None, scope)
                for name in unknown:
                    self._note_variable(name, None, None, scope)
                whole = self._value_type(right, scope.types, scope) if right is not None and unknown else ""
                if whole and (names := unpacked_names(left)):  # `text, style, _ = segment` (a NamedTuple)
                    self._note_items(names, whole, scope)
                elif right is not None and right.type == "call" and unknown:
                    self._note_returned_items(unpacked_names(left), right, scope)
        elif node.type == "with_statement":
            for pattern in descendants(node, "as_pattern"):
                value = pattern.named_children[0] if pattern.named_child_count else None
                alias = pattern.child_by_field_name("alias")
                if value is not None and value.type == "call" and alias is not None and alias.named_child_count == 1:
                    made = self._entered(self._made(value, scope) or self._callee(value, scope))
                    if made and alias.named_children[0].type == "identifier":
                        scope.types[node_text(alias.named_children[0])] = made

    def _union_returned(self, value: ts.Node, scope: Scope) -> list[str]:
        """The classes of the union a call of this file's function says it returns (`-> A | B`), or of the classes a
        called parameter may hold (`SchemaClass()` over several); [] otherwise."""
        if value.type != "call":
            return []
        function = value.child_by_field_name("function")
        name = node_text(function) if function is not None and function.type == "identifier" else ""
        if name in scope.callables and name not in scope.types and name not in scope.held:
            return scope.callables[name]
        return self.union_returns.get(self._callee(value, scope), [])

    def _note_returned_items(self, names: list[str], call: ts.Node, scope: Scope) -> None:
        """`attrs, by_name = collect(cls)` where this file's `collect` states `-> tuple[list[Attribute], dict]`: each
        name is of its item's type, and its elements of the item's elements' type."""
        items = self.tuple_returns.get(self._callee(call, scope), [])
        if not names or len(items) != len(names):
            return
        for name, (kind, element, union) in zip(names, items, strict=True):
            _put(scope.types, name, kind)
            _put(scope.elements, name, element)
            _put(scope.alternatives, name, union)

    def _entered(self, made: str) -> str:
        """What `with <call> as x:` gives x, from what the call gives: a class of this file as it is; what a generator
        of this file yields (`@contextmanager`); else marked for the indexer to tell (`ENTERED_MARK`)."""
        if "." not in made or made in self.by_qualified or ATTRIBUTE_MARK in made or made.endswith(ELEMENTS_MARK):
            return made if "." in made else ""  # (a builtin's, `open(...)`, is no project's)
        if made.startswith(f"{self.module}.") and made in self.signatures:  # a function of this file
            return self.yields.get(made, "") or made
        return f"{made}{ENTERED_MARK}"

    def _note_item(self, left: ts.Node, right: ts.Node, scope: Scope) -> None:
        """`handlers["b"] = on_b`: the table holds that function at that key (at a computed key: among its values).
        An attribute of the method's class too, for the methods walked after this one (jinja2's `Parser.__init__`:
        `self.extensions[tag] = extension.parse`, each extension's bound method, later `ext = self.extensions.get(
        name)`, `ext(self)`)."""
        table, key = left.child_by_field_name("value"), literal_key(left.child_by_field_name("subscript"))
        taken = self._member_taken(right, scope)
        held = self._held_value(right, scope) or (f"{taken.owner}.{taken.name}" if taken is not None else "")
        held = held or _given_callable(right, scope)
        if table is None or not held:
            return
        if table.type == "identifier":
            known = scope.tables.setdefault(node_text(table), {})
        elif (attribute := self._own_attribute(table, scope)) and scope.cls is not None:
            known = scope.cls.tables.setdefault(attribute, {})
        else:
            return
        known[key if key is not None else f"?{len(known)}"] = held

    def _own_attribute(self, node: ts.Node, scope: Scope) -> str:
        """`self.x` in a method: "x"; "" for anything else."""
        owner = node.child_by_field_name("object") if node.type == "attribute" else None
        if owner is None or owner.type != "identifier" or node_text(owner) != scope.receiver or scope.cls is None:
            return ""
        return node_text(node.child_by_field_name("attribute"))

    def _note_assigned(self, left: ts.Node, assignment: ts.Node, scope: Scope) -> None:
        """`self.x = Foo(...)` in this function: x holds a Foo for the calls after (every branch's type kept); what
        the class's own reading could not type, the methods walked after read too (its items, what a table's item
        makes)."""
        attribute = self._own_attribute(left, scope)
        if not attribute:
            return
        found = self._stated_type(assignment, scope.types, scope)
        types = scope.assigned.setdefault(attribute, [])
        if found and found not in types and len(types) < MAX_ATTRIBUTE_TYPES:
            types.append(found)
        right, cls = assignment.child_by_field_name("right"), scope.cls
        if right is None or cls is None:
            return
        # what the class's first reading could not type, with the method's locals known (`sections = sections or
        # DEFAULT_SECTIONS`, then `self.sections = {s.title: s for s in sections}`; `create_parser =
        # _parser_creators.get(kind)`, then `self.parser = create_parser(...)`): for the methods walked after
        if attribute not in cls.items and (items := self._items_given(right, scope)):
            cls.items[attribute] = items
        given = cls.attributes.get(attribute, [])
        unstated = attribute not in cls.declared and all(ATTRIBUTE_MARK in t for t in given)  # (by this file)
        if unstated and (made := self._made_by_picked(right, scope)[:MAX_ATTRIBUTE_TYPES]):
            cls.attributes[attribute] = [*given, *(t for t in made if t not in given)]

    def _made_by_picked(self, value: ts.Node, scope: Scope) -> list[str]:
        """What a call of a variable holding one of a table's functions or classes gives (`create_parser(...)` after
        `create_parser = _parser_creators.get(kind)`): each class, and the class each function says it returns,
        where every one says one; [] otherwise."""
        function = value.child_by_field_name("function") if value.type == "call" else None
        items = picked_items(function, scope) if function is not None else []  # (another file's table: "", none made)
        made = sorted({item if named_as_class(item) else self.returns.get(item, "") for item in items})
        return made if made and "" not in made and not any(map(standard, made)) else []

    def _note_variable(self, name: str, right: ts.Node | None, annotation: ts.Node | None, scope: Scope) -> None:
        """What `name = <value>` (or `name: T = <value>`) makes the variable: a lookup's methods, a class or function
        it holds, its type, or the types of the two sides of `A() if c else B()` (each call on it may run either's
        method); nothing known when no value is written for it. `x = None` and `fn = getattr(fn, "__func__", fn)`
        change nothing: calls on it after are made where it holds what it held before (`if x: x.stop()`)."""
        if right is not None and annotation is None and (right.type == "none" or unwraps_itself(name, right)):
            return
        taken = self._member_taken(right, scope)
        _put(scope.lookups, name, (self._looked_up(right, scope) or taken) if right is not None else None)
        held = self._named_type(held_class_name(annotation)) or (self._held_value(right, scope) if right else "")
        of_value = "" if held else self._class_of_name(right, scope)
        held = held or of_value  # `cls = type(self)`: the class of the value, or one deriving from it
        either_held = self._held_either(right, scope) if right is not None and not held else None
        found = "" if held or either_held else self.declared_or_made(annotation, right, scope.types, scope)
        _put(scope.held, name, held)
        _put(scope.fixed, name, self.taken_off_class(right, scope) if held and right is not None else None)
        scope.local_classes.discard(name)
        scope.member_bases.pop(name, None)
        _put(scope.types, name, found)
        for opened in (scope.open_params, scope.open_held, scope.wrapped):  # (no longer what callers pass)
            opened.pop(name, None)
        made = self._made_by_either(right, scope) if right is not None else []  # (what the value held before)
        _put(scope.callables, name, either_held)
        scope.bounded.discard(name)
        if right is not None and unwrapped(right).type == "lambda" and scope.in_function:
            scope.plain.add(name)  # `funcs = lambda tk: imt(tk, i, m, t)`: passed on, its code is this function's
        else:
            scope.plain.discard(name)
        if held and right is not None and (cast := self.cast_arguments(right, scope)) and held_class_name(cast[0]):
            scope.bounded.add(name)  # `cast(Type[Extension], ...)`: that class or one deriving from it
        if of_value:
            scope.bounded.add(name)
        _put(scope.generators, name, self.generator_of(right, scope) if right is not None else None)
        given = held or (f"{taken.owner}.{taken.name}" if taken is not None else "")  # (`e.show`: its method)
        if given and right is not None:
            scope.held_at.setdefault(name, []).append((right.start_byte, given))
        _put(scope.picked, name, self.table_picked(right, scope) if right is not None and not held else None)
        table = self._table(right, scope) if right is not None else {}
        if right is not None and right.type in ("identifier", "attribute"):  # `env_map = self.filters`: that table
            table = self._table_of(right, scope)
        _put(scope.tables, name, table if right is not None else None)
        if table and right is not None:
            scope.tables_at.setdefault(name, []).append((right.start_byte, table))
        elements = self._named_type(element_name(annotation)) or (self._elements_given(right, scope) if right else "")
        _put(scope.elements, name, "" if held else elements)
        listed = self._listed(right, scope) if right is not None else ""
        _put(scope.items, name, self._named_type(item_name(annotation)) or listed)
        scope.filling.discard(name)
        if is_empty_list(right) and not scope.elements.get(name):
            scope.filling.add(name)
        branches = right is not None and right.type in ("boolean_operator", "conditional_expression")
        sides = {self._value_type(s, scope.types, scope) for s in either_side(right)} if branches and right else set()
        union = self.union_types(annotation) or (self._union_returned(right, scope) if right is not None else [])
        union = union or made  # `val = table_constructor(...)`, the variable holding either of two classes
        either = union or (sorted(sides) if not held and not found and "" not in sides else None)
        _put(scope.alternatives, name, either)
        if either:
            scope.given_either.add(name)
        else:
            scope.given_either.discard(name)

    def _held_either(self, value: ts.Node, scope: Scope) -> list[str] | None:
        """The classes or functions the sides of `A if c else B` (or `a or b`) are, where each is one and they are
        not the same, or those a call of a function of the file returning one of several gives: calling the variable
        given it calls either (`table_constructor = InlineTable if ... else Table`); None otherwise."""
        if (
            value.type == "call"
            and self.returned_several
            and (several := self.returned_several.get(self._callee(value, scope)))
        ):
            return several  # `klass = self._select_struct_union_class(p[1])`: either class it returns
        if value.type not in ("boolean_operator", "conditional_expression"):
            return None
        held = [self._held_value(side, scope) for side in either_side(value)]
        return sorted(set(held)) if len(set(held)) > 1 and "" not in held else None

    def _made_by_either(self, value: ts.Node, scope: Scope) -> list[str]:
        """The classes a call of a variable holding either of them makes an instance of (`val =
        table_constructor(...)`): each, where all it may hold are classes; [] otherwise."""
        function = value.child_by_field_name("function") if value.type == "call" else None
        held = held_callables(function, scope) if function is not None else []
        return held if all(map(named_as_class, held)) else []

    def _note_caught(self, clause: ts.Node, scope: Scope) -> None:
        """`except Failure as e:`: e is a Failure in the clause (`except (A, B) as e`: either)."""
        pattern = clause.child_by_field_name("value")
        alias = pattern.child_by_field_name("alias") if pattern is not None and pattern.type == "as_pattern" else None
        name = alias.named_children[0] if alias is not None and alias.named_child_count == 1 else None
        if pattern is None or name is None or name.type != "identifier" or not pattern.named_child_count:
            return
        caught = pattern.named_children[0]
        written = caught.named_children if caught.type == "tuple" else [caught]
        classes = sorted({self._held_value(c, scope) for c in written} - {""})
        variable = node_text(name)
        _put(scope.held, variable, None)
        _put(scope.types, variable, classes[0] if len(classes) == 1 and len(written) == 1 else None)
        _put(scope.alternatives, variable, classes if len(classes) == len(written) > 1 else None)

    def merge_held(self, statement: ts.Node, scope: Scope) -> None:
        """After a statement whose branches give a variable different classes or functions to hold (`report =
        _echo_aborted` in one `except`, `report = e.show` in another), a call of the variable calls each."""
        for name, given in scope.held_at.items():
            inside = sorted({held for at, held in given if statement.start_byte <= at < statement.end_byte})
            if len(inside) > 1:
                for known in (scope.held, scope.lookups, scope.types):
                    known.pop(name, None)
                scope.callables[name] = inside
        for name, tables in scope.tables_at.items():  # `env_map = self.filters` or `self.tests`: either's items
            branches = [table for at, table in tables if statement.start_byte <= at < statement.end_byte]
            if len(branches) > 1:
                scope.tables[name] = {key: held for table in branches for key, held in table.items()}

    def _elements_given(self, value: ts.Node, scope: Scope) -> str:
        """The type of each element of a local's value, where the code states it: a comprehension or a literal of
        values of one type (`[Item(n) for n in names]`, `[a, b]`), a list another value's elements fill
        (`sorted(self.items)`, `list(xs)`), what a call states it returns (`-> list[Item]`, `-> Iterator[Item]`)."""
        if value.type in ("list_comprehension", "set_comprehension", "generator_expression"):
            body = value.child_by_field_name("body")
            typed = self._comprehension_types(value.named_children, scope)
            inside = replace(scope, types={**scope.types, **typed})
            return self._value_type(body, inside.types, inside) if body is not None else ""
        if value.type in ("list", "set", "tuple"):
            known = {self._value_type(item, scope.types, scope) for item in written(value)}
            return known.pop() if len(known) == 1 else self._shared_base(known)
        if value.type in ("call", "identifier", "attribute"):
            return self._element_type(value, scope)
        if value.type in ("boolean_operator", "conditional_expression"):  # `sections or DEFAULT_SECTIONS`
            known = {self._elements_given(side, scope) for side in either_side(value)} - {""}
            return known.pop() if len(known) == 1 else ""
        return ""

    def _items_given(self, value: ts.Node, scope: Scope) -> str:
        """The type of each value of a mapping the code writes out, where they are of one (`{CLIENT: Connection(CLIENT),
        SERVER: Connection(SERVER)}`, `{k: Item(k) for k in names}`), or of one the code names whose items are known
        (`typeMap if typeMap is not None else self.TYPE_MAP`, the side given none aside): what a subscript, `.get()` or
        `.values()` of it gives; "" where a value is of none the code states, of two unrelated types, or spread in
        (`**base`)."""
        if value.type in ("identifier", "attribute"):
            return self.items_of(value, scope)
        if value.type in ("boolean_operator", "conditional_expression"):
            known = {self._items_given(side, scope) for side in either_side(value)} - {""}
            return known.pop() if len(known) == 1 else ""
        if value.type == "dictionary_comprehension":
            body = value.child_by_field_name("body")
            typed = self._comprehension_types(value.named_children, scope)
            inside = replace(scope, types={**scope.types, **typed})
            given = body.child_by_field_name("value") if body is not None and body.type == "pair" else None
            return self._value_type(given, inside.types, inside) if given is not None else ""
        pairs = written(value)
        if not pairs or any(p.type != "pair" for p in pairs):
            return ""
        values = [v for p in pairs if (v := p.child_by_field_name("value")) is not None]
        known = {self._value_type(v, scope.types, scope) for v in values}
        return known.pop() if len(known) == 1 else self._shared_base(known)

    def _shared_base(self, classes: set[str]) -> str:
        """The nearest base of this file that classes of this file all derive from (`[ParamSection(...),
        RaisesSection(...)]`: each element is a `Section`, whose method a call on one runs, or an override); "" where
        one is no class of this file or they share none here."""
        facts = [self.by_qualified.get(c) for c in sorted(classes)]
        if len(facts) < 2 or any(f is None for f in facts):
            return ""
        lineages = [[base.qualified for base in self.file_lineage(f)] for f in facts if f is not None]
        return next((base for base in lineages[0] if all(base in other for other in lineages[1:])), "")

    def _listed(self, value: ts.Node, scope: Scope) -> str:
        """What a subscript of a local list or mapping gives (`xs[0]`, `by_name[k]`): its elements, where its value
        is a list built here or a call that keeps its argument's elements (`sorted(...)`, `list(...)`); what a
        function of this file says a subscript of its result gives (`-> list[Item]`, `-> dict[str, Item]`)."""
        if value.type in ("list_comprehension", "list"):
            return self._elements_given(value, scope)
        if value.type in ("dictionary", "dictionary_comprehension"):
            return self._items_given(value, scope)
        if value.type != "call":
            return ""
        return self._kept_elements(value, scope) or self.item_returns.get(self._callee(value, scope), "")

    def _member_taken(self, node: ts.Node | None, scope: Scope) -> Target | None:
        """`text.highlight_regex` where text's class is of another file: the member a call of the variable it is
        taken into calls (the indexer finds it; a member that holds a value is never called through it)."""
        owner = node.child_by_field_name("object") if node is not None and node.type == "attribute" else None
        if owner is None or owner.type != "identifier" or node_text(owner) == scope.receiver:
            return None
        typed = self._receiver_type(owner, scope)
        if not typed or typed in self.by_qualified or typed.split(".", 1)[0] in sys.stdlib_module_names:
            return None
        member = node_text(node.child_by_field_name("attribute")) if node is not None else ""
        return Target(TargetForm.MEMBER, member, Resolution.INFERRED, owner=typed) if member else None

    def _elements_of(self, called: str) -> str:
        """The type of each element a call of `called` gives: stated by this file's function, else (a function of
        another file or project) marked for the indexer to read (`YIELDS`); "" when unknown."""
        if not called or called.startswith(f"{self.module}.") or "." not in called:
            return self.yields.get(called, "")
        return "" if called.split(".", 1)[0] in sys.stdlib_module_names else f"{called}{ELEMENTS_MARK}"

    def _class_of_name(self, value: ts.Node | None, scope: Scope) -> str:
        """`type(self)`, `self.__class__`: the class of a name; "" for anything else (the class of a call's result,
        `type(f())`, is its return type's, read elsewhere)."""
        asked = class_asked(value) if value is not None else None
        return (
            self.class_of(value, scope)
            if value is not None and asked is not None and asked.type == "identifier"
            else ""
        )

    def _note_loop_variable(self, node: ts.Node, scope: Scope) -> None:
        """`for x in self.items:` where the class states `items: list[Foo]`: x is a Foo in the loop; `for text,
        style, _ in segments:` over NamedTuples: each name is of its field's type."""
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if node.type != "for_statement" or left is None or right is None:
            return
        if left.type != "identifier":  # `for text, style, _ in segments:` (what the names held before is kept)
            names = unpacked_names(left)
            if names and (pairs := self._paired(right, len(names), scope)):
                scope.types.update((name, kind) for name, kind in zip(names, pairs, strict=True) if kind)
            elif names and (places := self.element_items_of(right, scope, len(names))):  # `list[tuple[K, V]]`
                scope.types.update((name, kind) for name, kind in zip(names, places, strict=True) if kind)
            elif inner := indexed_names(left):  # `for i, (k, v) in enumerate(self._body):`
                self._note_indexed(inner, right, scope)
            elif element := self._element_type(right, scope) if names else "":
                self._note_items(names, element, scope)
            return
        name = node_text(left)
        for known in (scope.types, scope.open_params, scope.open_held, scope.alternatives, scope.callables):
            known.pop(name, None)
        if element := self._element_type(right, scope):
            scope.types[name] = element
        elif several := self.union_elements(right, scope):
            scope.alternatives[name] = several
        elif right.type == "identifier" and (held := scope.held_elements.get(node_text(right), "")):
            scope.held[name] = held  # `for extension in extensions:` over `Sequence[type[Extension]]`: a class
            scope.bounded.add(name)
        elif looped := self._looped(right, scope):  # `for func in [group_comments, ...]: func(stmt)`: each, in turn
            scope.held.pop(name, None)
            scope.picked.pop(name, None)
            scope.callables[name] = looped
        elif right.type == "identifier" and (starred := scope.open_stars.get(node_text(right))):
            scope.open_params[name] = starred  # `for fn in fns:` over `*fns`: what callers pass there and after

    def _looped(self, iterable: ts.Node, scope: Scope) -> list[str]:
        """The functions or classes a loop over a list, tuple or set written out gives its variable, or over a list
        of this function or module holding them (`for func in [group_comments, group_brackets, ...]`), or over such a
        dict's `.values()`: a call of the variable (or of a member of it) runs every one; [] where an item is
        anything else (a list) or the value is no such literal."""
        if iterable.type in ("list", "tuple", "set"):
            items = [self._held_value(item, scope) for item in written(iterable)]
            return sorted(set(items)) if items and all(items) else []
        if iterable.type == "identifier":
            table = self._table_named(node_text(iterable), scope)
            return sorted(set(table.values())) if table and all(key.isdigit() for key in table) else []
        function = iterable.child_by_field_name("function") if iterable.type == "call" else None
        method = function.child_by_field_name("attribute") if function is not None else None
        owner = function.child_by_field_name("object") if function is not None else None
        if method is None or owner is None or owner.type != "identifier" or node_text(method) != "values":
            return []
        return sorted(set(self._table_named(node_text(owner), scope).values()))  # `for m in _STYLE_MAP.values()`

    def _note_indexed(self, names: list[str], iterable: ts.Node, scope: Scope) -> None:
        """`for i, (k, v) in enumerate(self._body):` each of `names` typed as the element's item at its place; over
        what pairs elements (`enumerate(zip(self.fields, values))`), as a loop over that would type them."""
        function, given = iterable.child_by_field_name("function"), call_arguments(iterable)
        if function is None or node_text(function) != "enumerate" or len(given) != 1 or self._bound("enumerate", scope):
            return
        places = self._paired(given[0], len(names), scope) or self.element_items_of(given[0], scope, len(names))
        scope.types.update((name, kind) for name, kind in zip(names, places, strict=False) if kind)

    def _note_items(self, names: list[str], whole: str, scope: Scope) -> None:
        """Each of `names`, unpacked from a value of type `whole` in order, typed as the item at its place."""
        for position, name in enumerate(names):
            if item := self.item_type(whole, position):
                scope.types[name] = item

    def _paired(self, iterable: ts.Node, width: int, scope: Scope) -> list[str]:
        """The type of each name of `for a, b in ...` over a call that pairs elements, where the code states them:
        `enumerate(self.args)` (an index, then an element), `zip(self.names, self.args)` (an element of each), a
        declared mapping's `.items()` (a key, then what it holds); [] for anything else."""
        function = iterable.child_by_field_name("function") if iterable.type == "call" else None
        given = call_arguments(iterable)
        name = node_text(function) if function is not None and function.type == "identifier" else ""
        if name == "enumerate" and width == 2 and given and not self._bound(name, scope):
            return ["", self._element_type(given[0], scope)]
        if name == "zip" and width == len(given) and not self._bound(name, scope):
            return [self._element_type(a, scope) for a in given]
        if function is None or (method := function.child_by_field_name("attribute")) is None:
            return []
        if node_text(method) == "items" and width == 2 and not given:
            return ["", self.items_of(function.child_by_field_name("object"), scope)]
        return []

    def _made(self, call: ts.Node, scope: Scope) -> str:
        """What a call gives (`PythonTypes._made`); for the builtin `next(...)` an element of what it is given
        (`next(iter(self.items))`, `next(self.iter_nodes())`); for a copy (`copy.copy`, `copy.deepcopy`,
        `dataclasses.replace`) what it copies."""
        function, given = call.child_by_field_name("function"), call_arguments(call)
        if function is not None and node_text(function) == "next" and given and not self._bound("next", scope):
            return self._element_type(given[0], scope)
        if taken := self._taken_element(call, scope):
            return taken
        if given and function is not None and self._constructed(call, scope) in SAME_TYPE:  # `copy.copy(self.opts)`
            return self._value_type(given[0], scope.types, scope)
        return super()._made(call, scope)

    def _taken_element(self, call: ts.Node, scope: Scope) -> str:
        """`todo.popleft()`, `stack.pop()`, `queue.pop(0)` on a local list, set or deque whose elements the code
        states: one of them ("" for anything else; a mapping's `pop` takes a key, never a bare index)."""
        function = call.child_by_field_name("function")
        if function is None or function.type != "attribute":
            return ""
        owner = function.child_by_field_name("object")
        if owner is None or owner.type != "identifier" or not standard(scope.types.get(node_text(owner), "builtins")):
            return ""  # (a class of a project's with a `pop` of its own says what it gives)
        given = call_arguments(call)
        index = not given or (len(given) == 1 and is_index(given[0]))
        method = node_text(function.child_by_field_name("attribute"))
        return scope.elements.get(node_text(owner), "") if method in TAKEN_ELEMENT and index else ""

    def _element_type(self, container: ts.Node, scope: Scope) -> str:
        """The type of each element of `self.items`, `node.items`, `self.header.row.cells` (a class of this file
        stating `items: list[Foo]`; of another file, or a base of another file: `Class@items[]` for the indexer) or a
        parameter annotated `list[Foo]`, also through `reversed(...)`, `sorted(...)`, `list(...)` and a declared
        mapping's `.values()`; "" when the code does not state one."""
        if container.type == "identifier":
            return scope.elements.get(node_text(container), "")
        if container.type in ("list", "tuple", "set"):  # `for s in [ParamSection(), Examples()]`
            return self._elements_given(container, scope)
        if container.type == "call" and (kept := self._kept_elements(container, scope)) is not None:
            return kept
        if container.type == "call" and (mapped := self._mapped_class(container, scope)):
            return mapped
        if container.type == "call":  # `for node in self.iter_child_nodes()`, `-> Iterator[Node]`
            return self._elements_of(self._callee(container, scope))
        owner = container.child_by_field_name("object") if container.type == "attribute" else None
        cls = self._owner_class(owner, scope)[1] if owner is not None else None
        attribute = node_text(container.child_by_field_name("attribute")) if owner is not None else ""
        if cls is not None and attribute in cls.elements:
            return cls.elements[attribute]
        if owner is not None and owner.type == "identifier" and (classes := scope.alternatives.get(node_text(owner))):
            # `node: Union[_FilterTestCommon, Call]`, then `for x in node.kwargs`: what every one of them states
            stated = {own.elements.get(attribute, "") if (own := self.by_qualified.get(c)) else "" for c in classes}
            return stated.pop() if len(stated) == 1 else ""
        # `node.options` (node's class of another file) or `self.args` stated by a base of another file: what that
        # class states its elements are, for the indexer to read (`Class@options[]`)
        elsewhere = self._held_elsewhere(container, scope) if owner is not None else ""
        return f"{elsewhere}{ELEMENTS_MARK}" if elsewhere else ""

    def union_elements(self, container: ts.Node, scope: Scope) -> list[str]:
        """`node.kwargs` where node is one of several classes of this file (`node: Union[Filter, Call]`) that state
        its elements differently (`kwargs: list[Pair]`, `kwargs: list[Keyword]`): each one; [] where one of them
        states none, or they agree (`_element_type`)."""
        if container.type == "identifier" and (declared := scope.element_unions.get(node_text(container))):
            return declared  # `transformers: list[A | B]`, `*transformers: A | B`
        owner = container.child_by_field_name("object") if container.type == "attribute" else None
        cls = self._owner_class(owner, scope)[1] if owner is not None else None
        named = node_text(container.child_by_field_name("attribute")) if cls is not None else ""
        if cls is not None and (declared := cls.element_unions.get(named, [])):
            return declared  # `self.transformers`, its class stating `transformers: Tuple[A | Chain, ...]`
        classes = (
            scope.alternatives.get(node_text(owner), []) if owner is not None and owner.type == "identifier" else []
        )
        attribute = node_text(container.child_by_field_name("attribute")) if classes else ""
        stated = {own.elements.get(attribute, "") if (own := self.by_qualified.get(c)) else "" for c in classes}
        return sorted(stated) if len(stated) > 1 and "" not in stated else []

    def comprehension_alternatives(self, nodes: list[ts.Node], scope: Scope) -> dict[str, list[str]]:
        """Variable -> its classes, for each comprehension among an expression's nodes iterating what several
        classes state differently (`[x.as_const() for x in node.kwargs]`, `union_elements`)."""
        found: dict[str, list[str]] = {}
        for clause in (n for n in nodes if n.type == "for_in_clause"):
            left, right = clause.child_by_field_name("left"), clause.child_by_field_name("right")
            several = self.union_elements(right, scope) if right is not None else []
            if left is not None and left.type == "identifier" and several:
                found[node_text(left)] = several
        return found

    def _mapped_class(self, call: ts.Node, scope: Scope) -> str:
        """`map(Specifier, specs)`: each element is what calling the class mapped makes; "" for any other call."""
        function, given = call.child_by_field_name("function"), call_arguments(call)
        if function is None or node_text(function) != "map" or self._bound("map", scope) or len(given) < 2:
            return ""
        named = self._held_value(given[0], scope)
        return named if named and named_as_class(named) else ""

    def _kept_elements(self, call: ts.Node, scope: Scope) -> str | None:
        """The elements of a builtin's call that keeps its argument's (`sorted(self.items)`) or of a declared
        mapping's `.values()`; None for any other call."""
        if (kept := elements_kept(call, lambda name: self._bound(name, scope))) is not call:
            return self._elements_given(kept, scope)
        function = call.child_by_field_name("function")
        if function is None or (method := function.child_by_field_name("attribute")) is None or call_arguments(call):
            return None
        held = self.items_of(function.child_by_field_name("object"), scope) if node_text(method) == "values" else ""
        return held or None  # (else what the method says it returns, for a class of its own with `values()`)

    def _built_name(self, call: ts.Node, scope: Scope) -> Target | None:
        """`getattr(self, f"visit_{kind}")`, `getattr(obj, "do_" + name)` on a value whose class is known: the methods
        named so that the class, its bases or a class deriving from it defines (the indexer finds them), each
        reachable through the method the lookup returns."""
        found = built_lookup(call)
        if found is None or self._bound("getattr", scope):
            return None
        owner, prefix = found
        if owner.type == "identifier" and scope.cls is not None and node_text(owner) == scope.receiver:
            cls = scope.cls.qualified
        else:  # (a parameter nothing types: each class its callers pass, `getattr(visitor, "visit" + kind)`)
            cls = self._receiver_type(owner, scope) or _opened_value(owner, scope)
        return Target(TargetForm.MEMBER, f"{prefix}{PREFIX_MARK}", Resolution.DISPATCH, owner=cls) if cls else None

    def _looked_up(self, value: ts.Node, scope: Scope) -> Target | None:
        """The methods a value is when a lookup by a built name gave it: `getattr(self, f"visit_{kind}")`, a variable
        holding one, or what a method of the class that returns one gives (`f = self.get_visitor(node)`)."""
        if value.type == "identifier":
            return scope.lookups.get(node_text(value))
        if value.type != "call":
            return None
        function = value.child_by_field_name("function")
        method = function.child_by_field_name("attribute") if function is not None else None
        owner = function.child_by_field_name("object") if function is not None and method is not None else None
        if owner is None or scope.cls is None or owner.type != "identifier" or node_text(owner) != scope.receiver:
            return self._built_name(value, scope)
        prefix = self.lookups.get(f"{scope.cls.qualified}.{node_text(method)}")
        found = f"{prefix}{PREFIX_MARK}"
        return Target(TargetForm.MEMBER, found, Resolution.DISPATCH, owner=scope.cls.qualified) if prefix else None

    def _note_passed(self, call: ts.Node, scope: Scope) -> None:
        """What a call of one of this file's functions passes its untyped parameters (`render(console)` with
        `console = Console()`, `apply(self.on_done)`, `Parser(self)`): a class's value, or a class or function
        itself; the binder types the parameters by it on its next pass (`bind_python`)."""
        called, signature, receiver_given = self._signature_called(call, scope)
        if signature is None:
            return
        for parameter, argument in signature.filled(call, receiver_given):
            for function in self.generator_of(argument, scope):  # (a parameter annotated `Iterable[...]` too)
                self.saw_passed(called, parameter, (GENERATOR, function))
            if parameter in signature.untyped and (value := self._argument_value(argument, scope)) is not None:
                self.saw_passed(called, parameter, value)

    def note_defaults(self, function: ts.Node, scope: Scope) -> None:
        """A default that makes an instance of a project's class (pyflakes's `_fields_order=_FieldsOrder()`): what
        the parameter holds where no caller passes another, noted as a call of this file passing it is
        (`_note_passed`)."""
        qualified = self.defined_at.get(function.start_byte, "")
        found = self.signatures.get(qualified)
        untyped = found.untyped if found is not None else frozenset()
        for name, default in parameter_defaults(function):
            typed = self._value_type(default, scope.types, scope) if default.type == "call" and name in untyped else ""
            if typed and self._a_class(typed):
                self.saw_passed(qualified, name, (INSTANCE, typed))

    def _argument_value(self, argument: ts.Node, scope: Scope) -> tuple[str, str] | None:
        """What an argument passes, as this file states it: the receiver (`Parser(self)`: an instance of the class;
        `cls`: the class itself), a class or function itself (HELD), or a value of a project's class (INSTANCE); None
        for anything else (the first parameter of a function in a class body that takes no receiver too)."""
        if self._is_receiver(argument, scope):
            if scope.cls is None or scope.receiver not in ("self", "cls"):
                return None
            return (INSTANCE if scope.receiver == "self" else HELD, scope.cls.qualified)
        if held := self._held_value(argument, scope):
            return (HELD, held)
        typed = self._value_type(argument, scope.types, scope)
        if typed and self._a_class(typed):  # (`@click.command()` over a nested `def cli`: the Command it makes)
            return (INSTANCE, typed)
        return (OWN_CODE, own) if (own := self._own_code(argument, scope)) else None

    def _own_code(self, argument: ts.Node, scope: Scope) -> str:
        """The function whose own code an argument is: a lambda written in it, or a function it defines (sqlparse's
        `_group(tlist, cls, match)` with `def match` in `group_as`): a call of it where it is passed runs that
        function's code (as a call of a closure it returns does); "" for any other argument."""
        if not scope.in_function or not scope.caller:
            return ""
        name = node_text(argument) if argument.type == "identifier" else ""
        local = name in scope.plain and name not in scope.held and name not in scope.types
        return f"{self.module}.{scope.caller}" if argument.type == "lambda" or local else ""

    def passed_out(self, call: ts.Node, targets: list[Target], scope: Scope) -> list[tuple[str, str]]:
        """(slot, value) for what a call of a function or class, in any file, passes it, for the indexer to type the
        parameters by (`PASSES`): each argument whose value's class this file states (`cached(LRUCache(2))`), a
        function or class itself, a generator of this file's function (`take(n, repeat_last(x))`), or the caller's
        own untyped parameter (`_cached_wrapper(func, cache)`: whatever the callers of `cached` pass).
        Only a call bound by scope or type, or a method call bound by the method's name (the indexer keeps what it
        passes where one class's method, or its overrides, has that name: `CodeIndex.passed_to`). (A call of this
        file's own function types its parameters here first, `_note_passed`; what the indexer reads of them counts
        where that says nothing: more classes than one.)"""
        if len(targets) != 1 or (targets[0].resolution is Resolution.NAME and not _method_named(call, targets[0])):
            return []
        target = targets[0]
        if target.form not in CALL_FORMS or target.name.endswith(PREFIX_MARK):
            return []
        if standard(target.owner or target.name):  # (no indexed function's parameter)
            return []
        placed = call_slots(
            call, receiver_first=target.form is TargetForm.QUALIFIED and self._first_is_receiver(call, scope)
        )
        found = [(slot, value) for slot, argument in placed for value in self._passed_values(argument, scope)]
        generated = ((slot, self._generators_given(argument, scope)) for slot, argument in placed)
        return found + [(slot, f"{function}{GENERATED_MARK}") for slot, given in generated for function in given]

    def _generators_given(self, argument: ts.Node, scope: Scope) -> list[str]:
        """The functions whose generators an argument is, as far as this file knows (`generator_of`); for a call of a
        function of another module (`mi.repeat_last(x)`), that function, whose generator the indexer reads."""
        if found := self.generator_of(argument, scope):
            return found
        called = self._callee(argument, scope) if argument.type == "call" else ""
        elsewhere = called and not called.startswith(f"{self.module}.") and not named_as_class(called)
        return [called] if elsewhere and called.replace(".", "").isidentifier() and not standard(called) else []

    def _first_is_receiver(self, call: ts.Node, scope: Scope) -> bool:
        """Whether a call's first argument is the caller's receiver (`Base.__init__(self, x)`: it fills `self`)."""
        given = call_arguments(call)
        return bool(given) and self._is_receiver(given[0], scope)

    def _is_receiver(self, argument: ts.Node, scope: Scope) -> bool:
        return scope.cls is not None and argument.type == "identifier" and node_text(argument) == scope.receiver

    def _passed_values(self, argument: ts.Node, scope: Scope) -> list[str]:
        """What an argument is, as the indexer reads it across files: an instance of a class (`_argument_value`),
        a class or function itself (`mod.hashkey()`), what an attribute holds or a fixture returns, or the caller's
        own parameter (`f@(p#0)`), with what its default holds besides; [] for anything else. The receiver `self` is
        an instance of its class (`node.accept_visitor(self)`); `cls` is not passed (it may be any subclass)."""
        if self._is_receiver(argument, scope):
            return [scope.cls.qualified] if scope.cls is not None and scope.receiver == "self" else []
        named = node_text(argument) if argument.type == "identifier" else ""
        if (found := self._argument_value(argument, scope)) is not None:
            value = f"{found[1]}{VALUE_MARKS.get(found[0], CALLED_MARK)}"
            return [value, scope.open_held[named]] if named in scope.open_held else [value]
        typed = self._value_type(argument, scope.types, scope)
        if typed and (ATTRIBUTE_MARK in typed.rpartition(".")[2] or typed in self.returns):
            return [typed]  # (`f@(p#0)` passed on from `types`; a fixture's value: what the fixture function returns)
        opened = scope.open_params.get(named) or scope.passed_on.get(named)  # (several values: whatever callers pass)
        return [opened] if opened else []

    def _a_class(self, typed: str) -> bool:
        """Whether a value's stated type may be a project's class: one of this file's, or a name of another module
        (a class, or a function whose stated return type the indexer reads), or what a call of an attribute of one of
        this file's classes gives (`self.Cache(maxsize=2)`, `Cache` left to subclasses); not a standard library type
        (`typing.Callable`), nor what a function of this file that states no return type gives."""
        own = typed.startswith(f"{self.module}.")
        holder, _, attribute = typed.rpartition(".")
        if f"{ATTRIBUTE_MARK}{PARAMETER_OPEN}" in attribute:  # what callers pass a parameter: the indexer's to read
            return False
        cls = self.by_qualified.get(holder)  # (what a call of a class's attribute gives: its subclasses may say)
        held = cls is not None and attribute not in cls.methods and attribute not in cls.held
        return (typed in self.by_qualified or held) if own else not standard(typed)

    def _signature_called(self, call: ts.Node, scope: Scope) -> tuple[str, Signature | None, bool]:
        """The function of this file a call calls, its signature, and whether the call's receiver fills the first
        parameter (`obj.m(x)`; `Foo(x)` for `Foo.__init__`; not `Foo.m(obj, x)`)."""
        function = call.child_by_field_name("function")
        if function is not None and function.type == "attribute" and (owner := function.child_by_field_name("object")):
            method = node_text(function.child_by_field_name("attribute"))
            called = self._member_called(owner, method, scope)
            if called in self.signatures:
                return called, self.signatures[called], True
            if (inherited := self._inherited_called(owner, method, scope)) in self.signatures:
                return inherited, self.signatures[inherited], True  # `super().from_lines(Pattern, lines)`
        called = self._constructed(call, scope)
        if called in self.by_qualified:
            return f"{called}.__init__", self.signatures.get(f"{called}.__init__"), True
        return called, self.signatures.get(called), False

    def _inherited_called(self, owner: ts.Node, method: str, scope: Scope) -> str:
        """The method of a base of this file a call on the receiver or on `super()` runs, where the class does not
        define it itself (`super()`: never its own); "" for any other call."""
        if scope.cls is None:
            return ""
        beyond = owner.type == "call" and is_super(owner)
        if not beyond and (owner.type != "identifier" or node_text(owner) != scope.receiver):
            return ""
        start = self.by_qualified.get(self.super_owner(owner, scope), scope.cls) if beyond else scope.cls
        lineage = list(self.file_lineage(start))[1 if beyond else 0 :]
        return next((f"{c.qualified}.{method}" for c in lineage if method in c.methods), "")

    def super_owner(self, call: ts.Node, scope: Scope) -> str:
        """The class after which `super()` in a method of `scope.cls` looks a member up: that class, or the one
        `super(Foo, self)` names (`super(ErrorFinder, self).add_issue(...)` skips ErrorFinder's own)."""
        own = scope.cls.qualified if scope.cls is not None else ""
        written = super_named(call)
        return (self._qualified(written) or own) if written else own

    def _comprehension_types(self, nodes: list[ts.Node], scope: Scope) -> dict[str, str]:
        """Variable -> type of each comprehension among an expression's nodes whose iterable states its elements'
        type, or whose `if isinstance(x, Foo)` clause narrows it."""
        typed: dict[str, str] = {}
        variables: set[str] = set()
        for clause in (n for n in nodes if n.type == "for_in_clause"):
            left, right = clause.child_by_field_name("left"), clause.child_by_field_name("right")
            element = self._elements_given(right, scope) if right is not None else ""
            if left is not None and left.type == "identifier":
                variables.add(node_text(left))
                if element:
                    typed[node_text(left)] = element
            elif left is not None and right is not None and (names := unpacked_names(left)):  # `for k, v in body`
                places = self.element_items_of(right, scope, len(names))
                typed.update((n, t) for n, t in zip(names, places, strict=False) if t)
        for clause in (n for n in nodes if n.type == "if_clause" and n.named_child_count):
            test = isinstance_test(clause.named_children[0])  # `[p for p in params if isinstance(p, Argument)]`
            cls = self._held_value(test[1], scope) if test is not None and node_text(test[0]) in variables else ""
            if test is not None and cls:
                typed[node_text(test[0])] = cls
        return typed

    def comprehension_stars(self, nodes: list[ts.Node], scope: Scope) -> dict[str, str]:
        """Variable -> what each element of a `*args` parameter a comprehension iterates holds, as the indexer reads
        what callers pass there (`[_trim_arity(fn) for fn in fns]` over `*fns`)."""
        found: dict[str, str] = {}
        for clause in (n for n in nodes if n.type == "for_in_clause"):
            left, right = clause.child_by_field_name("left"), clause.child_by_field_name("right")
            starred = (
                scope.open_stars.get(node_text(right), "") if right is not None and right.type == "identifier" else ""
            )
            if left is not None and left.type == "identifier" and starred:
                found[node_text(left)] = starred
        return found


def _opened_value(value: ts.Node, scope: Scope) -> str:
    """What the indexer reads a parameter nothing here types holds, as callers pass it (`f@(visitor#0)`; one with a
    default besides), "" for any other value."""
    name = node_text(value) if value.type == "identifier" else ""
    return scope.open_held.get(name) or scope.open_params.get(name, "")


def _given_callable(value: ts.Node, scope: Scope) -> str:
    """What a table item runs when called, where the function's callers give it: a parameter holding the function or
    class they pass (`self._methods[name] = func`), or a lambda calling one (`lambda m, state: func(self, m, state)`),
    marked for the indexer to read what every caller passes (`f@(func#3)()`); "" for anything else."""
    if value.type == "lambda":
        body, own = value.child_by_field_name("body"), value.child_by_field_name("parameters")
        called = body.child_by_field_name("function") if body is not None and body.type == "call" else None
        taken = {node_text(n) for n in descendants(own, "identifier")} if own is not None else set()
        if called is None or node_text(called) in taken:
            return ""
        value = called
    opened = _opened_value(value, scope)
    return f"{opened}{CALLED_MARK}" if opened else ""


def _elsewhere(table: str) -> dict[str, str]:
    """Another file's table, as one item marked for the indexer (every function it holds there)."""
    marked = f"{table}{TABLE_MARK}"
    return {marked: marked}  # (a key no literal is: `[*]` ends it)


def _put(table: dict[str, Any], name: str, value: Any) -> None:
    """Set `name` to a value, or forget it when there is none."""
    if value:
        table[name] = value
    else:
        table.pop(name, None)


def _item_of(value: ts.Node) -> str:
    """The module-level name whose item a value is (`TABLE[key]`, `TABLE.get(key)`, `TABLE.setdefault(key, v)`,
    `TABLE.pop(key)`), "" for any other value."""
    if value.type == "subscript":
        table = value.child_by_field_name("value")
        return node_text(table) if table is not None and table.type == "identifier" else ""
    function = value.child_by_field_name("function") if value.type == "call" else None
    if function is None or function.type != "attribute":
        return ""
    table, method = function.child_by_field_name("object"), function.child_by_field_name("attribute")
    looked_up = method is not None and node_text(method) in MAPPING_LOOKUPS
    return node_text(table) if looked_up and table is not None and table.type == "identifier" else ""


def _is_dict(value: ts.Node) -> bool:
    """Whether a value is a dict made by a literal or `dict()`, which later statements may fill."""
    function = value.child_by_field_name("function") if value.type == "call" else None
    return value.type == "dictionary" or (function is not None and node_text(function) == "dict")


def _assignments_at_top(root: ts.Node) -> Iterator[tuple[ts.Node, ts.Node]]:
    """(left, right) of each module-level assignment with a value (`x = ...`, `x: T = ...`, `t[k] = ...`)."""
    for node in statements(root):
        inner = node.named_children[0] if node.type == "expression_statement" and node.named_child_count else None
        left = inner.child_by_field_name("left") if inner is not None and inner.type == "assignment" else None
        right = inner.child_by_field_name("right") if inner is not None else None
        if left is not None and right is not None:
            yield left, right


def _assigned_at_top(root: ts.Node) -> dict[str, list[ts.Node]]:
    """Module-level name -> the values its module-level assignments give it (`x = ...`, `x: T = ...`), in order."""
    assigned: dict[str, list[ts.Node]] = {}
    for left, right in _assignments_at_top(root):
        if left.type == "identifier":
            assigned.setdefault(node_text(left), []).append(right)
    return assigned


def picked_items(function: ts.Node, scope: Scope) -> list[str]:
    """The table items a called variable may be (`cls = DECODERS[kind]`, then `cls()`), until reassigned."""
    return scope.picked.get(node_text(function), []) if function.type == "identifier" else []


def held_callables(function: ts.Node, scope: Scope) -> list[str]:
    """The functions or classes a called variable may hold (this file's calls pass a parameter several, or it was
    given `A if c else B`), until reassigned."""
    name = node_text(function) if function.type == "identifier" else ""
    return scope.callables.get(name, []) if name not in scope.types and name not in scope.held else []


def _alternatives(values: list[ts.Node]) -> list[ts.Node]:
    """The values `return`s give, each `a if c else b` and `a or b` as both of its sides."""
    found: list[ts.Node] = []
    for value in values:
        operator = value.child_by_field_name("operator") if value.type == "boolean_operator" else None
        either = value.type == "conditional_expression" or (operator is not None and node_text(operator) == "or")
        found.extend(_alternatives(either_side(value)) if either else [value])
    return found


def _method_named(call: ts.Node, target: Target) -> bool:
    """Whether a call bound by name alone calls a method on a value (`n.accept_visitor(self)`)."""
    function = call.child_by_field_name("function")
    return target.form is TargetForm.NAME and function is not None and function.type == "attribute"
