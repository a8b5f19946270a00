"""What one Python file declares and the types it states: the names it binds, its classes' attribute types, its
functions' return types, and the type of an expression where the code states it.

The first half of `python_scope`'s binder: reading types is here, walking scopes and binding calls there.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from functools import partial
from typing import Any, Literal

import tree_sitter as ts

from trident.ingest.languages import node_text
from trident.ingest.languages.python_arguments import Passed, signature
from trident.ingest.languages.python_facts import (
    MAX_ATTRIBUTE_TYPES,
    PROPERTY_DECORATORS,
    ClassFacts,
    Scope,
    is_named_tuple,
    property_name,
    setter_name,
    surest,
)
from trident.ingest.languages.python_fixtures import fixture_name, fixture_params, is_fixture
from trident.ingest.languages.python_implicit import BINARY_RUNS
from trident.ingest.languages.python_lookups import keyword_default, returned_lookup
from trident.ingest.languages.python_parameters import PythonParameters, standard
from trident.ingest.languages.python_syntax import (
    CASTS,
    FUNCTIONS,
    MAPPING_LOOKUPS,
    annotated_name,
    assigned_names,
    call_arguments,
    callable_alias,
    callback_protocol,
    class_asked,
    constructed_locals,
    declared_field,
    defined_functions,
    descendants,
    either_side,
    element_annotation,
    element_name,
    elements_kept,
    held_class_name,
    imported_names,
    is_classmethod,
    is_empty_list,
    is_empty_mapping,
    is_optional,
    is_static,
    item_name,
    iterated,
    key_name,
    local_names,
    named_as_class,
    narrowed_to,
    parameter_defaults,
    returned_values,
    star_imported,
    statements,
    table_copied,
    tuple_items,
    type_var_bound,
    union_alias,
    union_alias_members,
    unwrapped,
)
from trident.ingest.model import ATTRIBUTE_MARK, ELEMENTS_MARK

SELF_TYPES = frozenset({"typing.Self", "typing_extensions.Self"})  # `-> Self`: the class the method is called on


# The values a `return` gives that may be a generator (`return _linux_platforms()`, `a or b()`, `self._iter`).
GENERATOR_VALUES = frozenset({"call", "attribute", "boolean_operator", "conditional_expression"})
PARTIALS = frozenset({"functools.partial"})  # `partial(f, ...)` is called as f is
TYPE_BASES = frozenset({"type", "ABCMeta", "abc.ABCMeta"})  # bases that make a class a metaclass, as written
METHOD_WRAPPERS = frozenset({"staticmethod", "classmethod"})  # `x = staticmethod(f)`: `self.x()` calls f


# What a container's annotation states, kept alike by a function's scope and a class (`Scope`, `ClassFacts`).
ContainerFact = Literal["items", "keys", "element_items"]


class PythonTypes(PythonParameters):
    """The declarations and stated types of one file. Rows are 0-based, as tree-sitter counts them."""

    def __init__(self, path: str, module: str, passed: Passed | None = None) -> None:
        super().__init__(path, module, passed)
        self.definitions: dict[str, ts.Node] = {}  # qualified function or method -> its `def`
        self.returned_nodes: dict[str, list[ts.Node]] = {}  # ... -> the values its `return`s give
        self.returned_held: dict[str, str] = {}  # ... -> the one function or class it returns (`return self.on_x`)
        self.returned_several: dict[str, list[str]] = {}  # ... -> those it returns one of (`return A` or `return B`)
        self.tables: dict[str, dict[str, str]] = {}  # module-level dict or list -> key -> the function it holds
        self.module_types: dict[str, str] = {}  # module-level name assigned once, rebound by no function -> its type
        self.module_elements: dict[str, str] = {}  # ... given a list, tuple or set written out -> its elements' type
        # ... made once by a call of a class the file names (`_c_parser = c_parser.CParser(...)`) -> that class, read
        # before the classes' attributes, which may be given it (`self.cparser = _c_parser` in a test's `setUp`)
        self.module_made: dict[str, str] = {}
        self.module_items: dict[str, str] = {}  # ... annotated as a mapping or list -> what a subscript of it gives
        self.module_held: dict[str, str] = {}  # module-level name -> the one function or class it holds
        self.closures: set[str] = set()  # functions returning a closure they define (`return wrapper`)
        self.classes: dict[str, ClassFacts] = {}  # class local name -> class
        self.file_bases: dict[str, list[str]] = {}  # class qualified name -> the qualified names of its bases
        self.metaclasses: set[str] = set()  # the classes deriving from `type` itself (qualified): metaclasses
        self.by_qualified: dict[str, ClassFacts] = {}  # qualified name -> class, once the classes are read
        self.annotated: set[str] = set()  # functions and methods with a return annotation
        self.returns: dict[str, str] = {}  # qualified function or method -> the qualified type it returns
        self.yields: dict[str, str] = {}  # ... -> the type of each element it returns (`-> Iterator[Foo]`)
        # ... -> (type, type of its elements, classes of a union) of each item of the tuple it returns (`-> tuple[Foo,
        # list[Bar], A | B]`)
        self.tuple_returns: dict[str, list[tuple[str, str, list[str]]]] = {}
        self.union_returns: dict[str, list[str]] = {}  # ... -> the classes of the union it returns (`-> A | B`)
        self.item_returns: dict[str, str] = {}  # ... -> what a subscript of what it returns gives (`-> dict[str, Foo]`)
        self.yield_rows: dict[str, int] = {}
        self.return_rows: dict[str, int] = {}  # qualified function or method -> the row its annotation is on
        self.lookups: dict[str, str] = {}  # qualified method -> start of the names it looks up on self and returns
        self.inferred_returns: set[str] = set()  # functions whose return type is read from their body
        self.generator_functions: set[str] = set()  # functions and methods whose body yields
        self.property_classes: set[str] = set()  # classes of this file deriving from `property` (a decorator's)
        self.returned_generators: dict[str, list[str]] = {}  # ... -> the generator functions whose generator it returns
        self.fixtures: dict[str, str] = {}  # the pytest fixtures the module defines: name asked for -> function
        self.class_fixtures: dict[str, dict[str, str]] = {}  # test class (qualified) -> the fixtures its methods are

    def read(self, root: ts.Node) -> None:
        """The first pass: what the module binds, then what its functions return and its classes' attributes are."""
        for node in statements(root):
            self._bind_top_level(node, root)
        self._collect_returns(root, self.module)
        self._outline_classes(root, "")  # (which of the file's classes derive from which, for the lists below)
        self.read_module_elements(root)
        self.by_qualified = {}  # (the outline's facts hold no attributes: read below)
        self._collect_classes(root, "")
        self._assigned_on_classes(root)
        self.by_qualified = {c.qualified: c for c in self.classes.values()}
        self._collect_returned_generators()

    # --- first pass: what the module binds, and the attribute types of its classes ---

    def _bind_top_level(self, node: ts.Node, root: ts.Node) -> None:
        self.assigned.update(assigned_names(node))
        if node.type in ("import_statement", "import_from_statement"):
            self.names.update(imported_names(node, self.path))
            if star := star_imported(node, self.path):
                self.star_modules.append(star)
        elif node.type in ("class_definition", *FUNCTIONS):
            name = node_text(node.child_by_field_name("name"))
            if name:
                self.names[name] = f"{self.module}.{name}"
            if called := callback_protocol(node):
                self.callable_aliases.add(called)  # (annotating with it says only "callable")
        elif node.type == "expression_statement" and (called := callable_alias(node)):
            self.callable_aliases.add(called)  # (a type variable bound to `Callable[...]` too)
        elif node.type == "expression_statement" and (bound := type_var_bound(node)):
            self.type_vars[bound[0]] = bound[1]
        elif node.type == "expression_statement" and (alias := union_alias(node)):
            self.type_aliases[alias[0]] = alias[1]
        elif node.type == "expression_statement" and (members := union_alias_members(node)):
            self.union_aliases[members[0]] = members[1]

    def _collect_returns(self, block: ts.Node, prefix: str) -> None:
        """The return annotation of every function and method of the file (`def connect(self) -> Stream`)."""
        for node in statements(block):
            if node.type == "decorated_definition":
                node = node.child_by_field_name("definition") or node
            name = node_text(node.child_by_field_name("name"))
            if node.type in FUNCTIONS and name:
                method = prefix != self.module and not is_static(node)
                self.signatures[f"{prefix}.{name}"] = self._signature(node, method)
                self.defined_at[node.start_byte] = f"{prefix}.{name}"
                self.definitions[f"{prefix}.{name}"] = node
                if prefix == self.module and is_fixture(node):
                    self.fixtures[fixture_name(node)] = name
                elif is_fixture(node):  # a fixture a test class defines, for its own tests
                    self.class_fixtures.setdefault(prefix, {})[fixture_name(node)] = name
                values, yielded = returned_values(node)
                self.returned_nodes[f"{prefix}.{name}"] = values
                if yielded and not is_fixture(node):
                    self.generator_functions.add(f"{prefix}.{name}")
                if node.child_by_field_name("return_type") is not None:
                    self.annotated.add(f"{prefix}.{name}")
                returned = self._annotation(node.child_by_field_name("return_type"))
                if method and self._qualified(annotated_name(node.child_by_field_name("return_type"))) in SELF_TYPES:
                    returned = prefix  # `def with_timeout(self, t) -> Self:` gives an instance of its class
                if items := tuple_items(node.child_by_field_name("return_type")):
                    returned = ""  # (`t.Tuple[...]` is `typing.Tuple`: its items say what unpacking it gives)
                    self.tuple_returns[f"{prefix}.{name}"] = [
                        (self._annotation(item), self._named_type(element_name(item)), self.union_types(item))
                        for item in items
                    ]
                if union := self.union_types(node.child_by_field_name("return_type")):
                    self.union_returns[f"{prefix}.{name}"] = union
                if item := self._named_type(item_name(node.child_by_field_name("return_type"))):
                    self.item_returns[f"{prefix}.{name}"] = item
                element = self._named_type(element_name(node.child_by_field_name("return_type")))
                if not element and yielded and not is_fixture(node):  # `yield sql.Statement(self.tokens)`
                    each = [v for v in yielded if v.parent is None or all(c.type != "from" for c in v.parent.children)]
                    element = self._one_class_made(node, each, prefix if is_classmethod(node) else "")
                if element:
                    self.yields[f"{prefix}.{name}"] = element
                    self.yield_rows[f"{prefix}.{name}"] = node.start_point.row
                if (not returned or standard(returned)) and f"{prefix}.{name}" not in self.union_returns:
                    # (`-> t.AsyncIterator[V]`, `-> Optional[MutableMapping[...]]` name no class of a project: what
                    # the body constructs is what the caller's value may be)
                    made = self._returned_class(node, values, yielded, prefix if is_classmethod(node) else "")
                    if made:
                        returned = made
                        self.inferred_returns.add(f"{prefix}.{name}")
                if returned:
                    self.returns[f"{prefix}.{name}"] = returned
                    self.return_rows[f"{prefix}.{name}"] = node.start_point.row
                if looked_up := returned_lookup(node, values):
                    self.lookups[f"{prefix}.{name}"] = looked_up
            elif node.type == "class_definition" and name and (body := node.child_by_field_name("body")):
                self._collect_returns(body, f"{prefix}.{name}")

    def _collect_returned_generators(self) -> None:
        """The functions that return what a call of a generator function gives (`platform_tags()` returning
        `_linux_platforms()` on one branch, `mac_platforms()` on another): consuming their value runs those bodies.
        Twice, for a function returning another such function's value."""
        returning: dict[str, tuple[Scope, list[ts.Node]]] = {}
        for qualified, function in self.definitions.items():
            values = [v for v in self.returned_nodes.get(qualified, ()) if v.type in GENERATOR_VALUES]
            if values and qualified not in self.generator_functions:
                cls = self.by_qualified.get(qualified.rpartition(".")[0])
                receiver = next(iter(signature(function, True).positional), "") if cls is not None else ""
                returning[qualified] = (Scope("", "", cls, receiver), values)
        for _ in range(2):
            before = len(self.returned_generators)
            for qualified, (scope, values) in returning.items():
                if found := {g for value in values for g in self.generator_of(value, scope)}:
                    self.returned_generators[qualified] = sorted(found)
            if len(self.returned_generators) == before:
                return

    def _returned_class(self, function: ts.Node, returned: list[ts.Node], yielded: list[ts.Node], cls: str = "") -> str:
        """The class a function returns where no annotation names one, read from the values its `return`s (a
        fixture's `yield`s) give: the one class they construct (by Python's naming, `_Private` too; the indexer keeps
        it only when it names a class), beside values of no class the file names (None, `{}`, what a parameter's
        method gives: `create_cache` gives None, `{}` or an `LRUCache`); "" where they construct two classes or
        none, and for a generator. In a classmethod of class `cls`, `cls(...)` makes one of it."""
        if yielded and not is_fixture(function):
            return ""
        return self._one_class_made(function, [*returned, *yielded], cls)

    def _one_class_made(self, function: ts.Node, given: list[ts.Node], cls: str) -> str:
        """The one class the values a function returns or yields construct (`_returned_class`), "" for none or two:
        each element of a generator with no annotation is of it (`yield sql.Statement(self.tokens)`)."""
        values = [v for v in given if v.type != "none"]
        receiver = next(iter(signature(function, True).positional), "") if cls else ""
        local = self._local_bases(function)  # (a class the function defines makes an instance of its base, or below)
        scope = Scope("", "", held={**local, receiver: cls} if receiver else local)
        # (a call of a function of this file read before: the class it returns, `complement` returning `compose(...)`;
        # a local every binding of which calls one class: `parser = LRParser(lr)`, then `return parser`)
        made = {self._constructed(v, scope) for v in values if v.type == "call"} - {""}
        if any(v.type == "identifier" for v in values) and (locals_made := constructed_locals(function)):
            for name in (locals_made.get(node_text(v), "") for v in values if v.type == "identifier"):
                made.add(local.get(name) or self._qualified(name))
            made -= {""}
        made |= self._memoized(function, values, scope)
        made = {self.returns[m] if m in self.returns and not standard(self.returns[m]) else m for m in made}
        made = {m for m in made if not standard(m)}  # (a standard library's class has no method of a project's)
        found = made.pop() if len(made) == 1 else ""
        return found if named_as_class(found) else ""

    def _local_bases(self, function: ts.Node) -> dict[str, str]:
        """The classes a function defines, each by its first base as this file names it (`class ParentSchema(Schema)`
        in a fixture, then `return ParentSchema(...)`: an instance of Schema, or of a class deriving from it). Only
        those defining no method: a method of its own is the function's code, which a caller's call of the base's
        method of that name would not run."""
        body = function.child_by_field_name("body")
        found: dict[str, str] = {}
        for node in descendants(body, "class_definition") if body is not None else []:
            if defined_functions(node):
                continue
            holder = node.child_by_field_name("superclasses")
            bases = [b for b in holder.named_children if b.type in ("identifier", "attribute")] if holder else []
            if bases and (base := self._qualified(node_text(bases[0]))) and not standard(base):
                found[node_text(node.child_by_field_name("name"))] = base
        return found

    def _memoized(self, function: ts.Node, values: list[ts.Node], scope: Scope) -> set[str]:
        """What the function keeps on itself and returns (`_get_parser.cache = ParsingFrontend(...)`, then `return
        _get_parser.cache`): the classes its assignments of those attributes construct."""
        name = node_text(function.child_by_field_name("name"))
        kept = {
            node_text(v) for v in values if v.type == "attribute" and node_text(v.child_by_field_name("object")) == name
        }
        body = function.child_by_field_name("body")
        if not kept or body is None:
            return set()
        sides = [
            (a.child_by_field_name("left"), a.child_by_field_name("right")) for a in descendants(body, "assignment")
        ]
        made = {
            self._constructed(right, scope)
            for left, right in sides
            if left is not None and node_text(left) in kept and right is not None and right.type == "call"
        }
        return made - {""}

    def _made_property(self, method: ts.Node) -> str:
        """The class of this file deriving from `property` a method's decorator makes of it, so that reading the
        method runs it: the class itself (`@InstanceProperty`), or what a function returns (toolz's
        `@instanceproperty`); "" for any other method."""
        decorated = method.parent
        if decorated is None or decorated.type != "decorated_definition":
            return ""
        for decorator in (d for d in decorated.named_children if d.type == "decorator"):
            made = self._qualified(node_text(decorator).lstrip("@").strip())
            made = made if made in self.property_classes else self.returns.get(made, "")
            if made in self.property_classes:
                return made
        return ""

    def by_local(self, qualified: str) -> ClassFacts:
        """The facts of a class of this file by its qualified name (an empty class's for any other name)."""
        found = self.classes.get(qualified.removeprefix(f"{self.module}."))
        return found if found is not None else ClassFacts("", "")

    def _outline_classes(self, block: ts.Node, prefix: str) -> None:
        """Every class of the file with the bases it writes, before their attributes are read (`_collect_classes`
        reads them again, with all they state)."""
        for node in statements(block):
            name = node_text(node.child_by_field_name("name")) if node.type == "class_definition" else ""
            if name:
                local = f"{prefix}.{name}" if prefix else name
                cls = ClassFacts(local, f"{self.module}.{local}")
                self.by_qualified[cls.qualified] = cls
                self.file_bases[cls.qualified] = self._written_bases(node)
                if (body := node.child_by_field_name("body")) is not None:
                    self._outline_classes(body, local)

    def _written_bases(self, node: ts.Node) -> list[str]:
        """The qualified names of the bases a class statement writes, those the file names."""
        written = node.child_by_field_name("superclasses")
        bases = [self._qualified(node_text(b)) for b in written.named_children] if written is not None else []
        return [b for b in bases if b]

    def _collect_classes(self, block: ts.Node, prefix: str) -> None:
        """Every class the outline names (top level or nested in classes), with the attribute types it states."""
        for node in statements(block):
            if node.type != "class_definition":
                continue
            name = node_text(node.child_by_field_name("name"))
            if not name:
                continue
            local = f"{prefix}.{name}" if prefix else name
            cls = self.classes[local] = ClassFacts(local, f"{self.module}.{local}")
            written = node.child_by_field_name("superclasses")
            self.file_bases[cls.qualified] = self._written_bases(node)
            if written is not None and any(node_text(b) in TYPE_BASES for b in written.named_children):
                self.metaclasses.add(cls.qualified)
            if written is not None and any(
                node_text(b) in PROPERTY_DECORATORS or self._qualified(node_text(b)) in self.property_classes
                for b in written.named_children
            ):
                self.property_classes.add(cls.qualified)  # `class InstanceProperty(property)`
            body = node.child_by_field_name("body")
            if body is None:
                continue
            named_tuple = is_named_tuple(node)
            methods = [s for s in statements(body) if s.type in FUNCTIONS]
            # every method first: `self.on_done = self.finish` in `__init__` holds a method defined after it
            cls.methods.update(node_text(m.child_by_field_name("name")) for m in methods)
            cls.properties.update(getter for m in methods if (getter := property_name(m.parent)))
            cls.setters.update(setter for m in methods if (setter := setter_name(m.parent)))
            for method in methods:  # (toolz's `@instanceproperty`: a property class of this file)
                if made := self._made_property(method):
                    getter = node_text(method.child_by_field_name("name"))
                    cls.properties.add(getter)
                    if "__get__" in self.by_local(made).methods:
                        cls.getters_through[getter] = made
            for statement in statements(body):
                if statement.type == "expression_statement" and statement.named_child_count == 1:
                    self._class_attribute(cls, statement.named_children[0])
                    if named_tuple and (field := declared_field(statement.named_children[0])):
                        cls.fields.append(field)
                elif statement.type in FUNCTIONS:
                    self._method_attributes(cls, statement)
                    if property_name(statement.parent):
                        self._property_containers(cls, statement)
            for attribute, given in cls.appended.items():  # `self.items = []`, then `self.items.append(Item())`
                if len(given) == 1 and "" not in given and attribute not in cls.refilled | cls.elements.keys():
                    cls.elements[attribute] = cls.items.setdefault(attribute, next(iter(given)))
            for attribute, given in cls.stored.items():  # `self.links = {}`, then `self.links[k] = Link(k)`
                if len(given) == 1 and "" not in given and attribute not in cls.remapped:
                    cls.items.setdefault(attribute, next(iter(given)))
            self._collect_classes(body, local)

    def _property_containers(self, cls: ClassFacts, getter: ts.Node) -> None:
        """What a property's getter states its value holds (`-> list[tuple[Key | None, Item]]`, `-> list[Item]`,
        `-> dict[str, Item]`): read as for an attribute declared so (`for k, v in table.body:`), here and, through
        `HOLDS`, in other files."""
        name, annotation = node_text(getter.child_by_field_name("name")), getter.child_by_field_name("return_type")
        if annotation is None:
            return
        if element := self._named_type(element_name(annotation)):
            cls.elements.setdefault(name, element)
        if any(places := self.element_item_types(annotation)):
            cls.element_items.setdefault(name, places)
        if item := self._named_type(item_name(annotation)):
            cls.items.setdefault(name, item)
        if key := self._named_type(key_name(annotation)):
            cls.keys.setdefault(name, key)

    def _assigned_on_classes(self, root: ts.Node) -> None:
        """`ParserElement._literalStringClass = Literal` at the module's top level, once both classes are defined
        (pyparsing's class for a string in an expression): the class attribute holds that class or function, as the
        assignment in the class body would say."""
        for node in statements(root):
            inner = node.named_children[0] if node.type == "expression_statement" and node.named_child_count else None
            left = inner.child_by_field_name("left") if inner is not None and inner.type == "assignment" else None
            owner = left.child_by_field_name("object") if left is not None and left.type == "attribute" else None
            cls = self.classes.get(node_text(owner)) if owner is not None and owner.type == "identifier" else None
            held = self._held(inner, Scope("", "")) if cls is not None and inner is not None else ""
            if cls is not None and left is not None and held:
                cls.hold(node_text(left.child_by_field_name("attribute")), held)

    def _class_attribute(self, cls: ClassFacts, node: ts.Node) -> None:
        """`x: Foo = ...` or `x = Foo()` in a class body."""
        if node.type != "assignment":
            return
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is not None and left.type == "identifier":
            self._note_attribute(cls, node_text(left), node, {})
            aliased = right is not None and right.type == "identifier" and node_text(right) in cls.methods
            if held := f"{cls.qualified}.{node_text(right)}" if aliased and right is not None else "":
                cls.hold(node_text(left), held)  # `visit_Template = _simple_visit`, `__radd__ = __add__`
            elif (held := self._held(node, Scope("", ""))) and not standard(held):  # (`Set: Type[AbstractSet] =
                cls.hold(node_text(left), held)  # set`: no class of a project, left to what derived classes hold)
            if right is not None and (table := self._table_given(right, Scope("", ""))):
                cls.tables.setdefault(node_text(left), {}).update(table)  # `FUNCS = {"iso": utils.from_iso}`
            made = self._constructed(right, Scope("", "")) if right is not None and right.type == "call" else ""
            if made and named_as_class(made) and not standard(made):
                cls.descriptors[node_text(left)] = made

    def _method_attributes(self, cls: ClassFacts, method: ts.Node) -> None:
        """`self.x = Foo(...)`, `self.x: Foo = ...` and `self.x = param` (with `param: Foo`) in any method."""
        parameters = self._parameters(method)
        elements = self.element_parameters(method)
        receiver = next(iter(parameters), "")
        holding, generators = self.held_parameters(method), self.generator_parameters(method)
        unions = self.union_parameters(method)  # `selector: Tree`, a union of the file's classes: what it states
        stated = holding.keys() | generators.keys() | unions.keys()
        opened = {n: o for n, o in self.open_parameters(method).items() if n not in stated}
        parameters.update((n, o) for n, o in opened.items() if not parameters.get(n))  # `self.store = store`
        body = method.child_by_field_name("body")
        if not receiver or body is None:
            return
        # `import httpcore` inside the method, then `self._pool = httpcore.ConnectionPool(...)`: its imports count.
        names: dict[str, str] = {}
        for kind in ("import_statement", "import_from_statement"):
            for node in descendants(body, kind):
                names.update(imported_names(node, self.path))
        own = local_names(method)  # (the module's lists and instances, where nothing of the method shadows them)
        parameters.update((n, made) for n, made in self.module_made.items() if n not in own)
        scope = Scope(receiver, "", cls, receiver, dict(parameters), names=names, held=holding)
        scope.elements.update({n: kind for n, kind in self.module_elements.items() if n not in own})
        scope.items.update({n: item for n, item in self.module_items.items() if n not in own})
        scope.held.update(self._defaults_held(body, scope))
        scope.items.update(self.item_parameters(method))
        scope.element_items.update(self.element_item_parameters(method))
        scope.element_unions.update(self.element_union_parameters(method))
        scope.generators.update(generators)
        scope.alternatives.update(unions)
        for node in descendants(body, "assignment"):
            left = node.child_by_field_name("left")
            if left is not None and left.type == "subscript":
                self._note_stored(cls, left, node, receiver, scope)
            if left is None or left.type != "attribute":
                continue
            owner = left.child_by_field_name("object")
            if owner is None or owner.type != "identifier" or node_text(owner) != receiver:
                continue
            attribute = node_text(left.child_by_field_name("attribute"))
            self._note_attribute(cls, attribute, node, parameters, elements, scope)
            if not is_empty_mapping(node.child_by_field_name("right")):
                cls.remapped.add(attribute)
            for held in self._held_each(node, scope):
                cls.hold(attribute, held)
            right = node.child_by_field_name("right")
            if right is not None and (made := self.generator_of(right, scope)):
                cls.generators.setdefault(attribute, set()).update(made)  # `self._iterator = _islice_helper(...)`
            if right is not None and (table := self._table_given(right, scope)):
                cls.tables.setdefault(attribute, {}).update(table)
            elif right is not None and (copied := table_copied(right)):
                cls.copied.setdefault(attribute, copied)  # (the module's tables are read after its classes)
        for call in descendants(body, "call"):
            self._note_appended(cls, call, receiver, scope)

    def file_subclasses(self, qualified: str) -> list[str]:
        """The classes of this file deriving from `qualified`, directly or not, in order of name."""
        found: set[str] = set()
        pending = [qualified]
        while pending:
            base = pending.pop()
            for cls, bases in self.file_bases.items():
                if base in bases and cls not in found:
                    found.add(cls)
                    pending.append(cls)
        return sorted(found)

    def held_parameters(self, function: ts.Node) -> dict[str, str]:
        """Parameter -> the class or function it holds: as `PythonParameters` says, else the one its default is
        (`def __setitem__(self, key, value, cache_setitem=Cache.__setitem__)`: calling it calls that, unless a caller
        passes another)."""
        found = super().held_parameters(function)
        for name, default in parameter_defaults(function):
            if name not in found and (held := self._held_value(default, Scope("", ""))):
                found[name] = held
        return found

    def fixed_defaults(self, function: ts.Node) -> dict[str, str]:
        """Parameter -> the function its default takes off a class this file names (`Cache.__setitem__`)."""
        found: dict[str, str] = {}
        for name, default in parameter_defaults(function):
            if held := self.taken_off_class(default, Scope("", "")):
                found[name] = held
        return found

    def taken_off_class(self, value: ts.Node, scope: Scope) -> str:
        """The function `Cls.method` takes off a class this file names (calling it runs exactly that method, no
        override: the instance is passed in, `cache_delitem(self, key)`); "" for any other value."""
        owner = value.child_by_field_name("object") if value.type == "attribute" else None
        named = node_text(owner) if owner is not None and owner.type == "identifier" else ""
        if not named or named in scope.types or named == scope.receiver:
            return ""
        if not named_as_class(self._bound(named, scope)):
            return ""
        return self._held_value(value, scope)

    def file_lineage(self, cls: ClassFacts) -> Iterator[ClassFacts]:
        """`cls`, then the bases of this file it derives from, depth first in the order they are written, each once
        (`class A(A):` rebinding a name is no cycle)."""
        pending, seen = [cls.qualified], set()
        while pending:
            qualified = pending.pop()
            facts = self.by_qualified.get(qualified) if qualified not in seen else None
            seen.add(qualified)
            if facts is not None:
                yield facts
                pending.extend(reversed(self.file_bases.get(qualified, [])))

    def inherited_property_returns(self, cls: ClassFacts, member: str) -> str:
        """What the property `member` returns where `cls` or a base of this file defines it (the nearest in
        `file_lineage`); "" for any other member."""
        definer = next((facts for facts in self.file_lineage(cls) if member in facts.methods), None)
        return self.property_returns(definer, member) if definer is not None else ""

    def _defaults_held(self, body: ts.Node, scope: Scope) -> dict[str, str]:
        """Untyped parameter -> the one class or function the method gives it in place of what is passed
        (`if digest_method is None: digest_method = self.default_digest_method`): what it holds when callers pass
        nothing, the one value the code states."""
        given: dict[str, set[str]] = {}
        for node in descendants(body, "assignment"):
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            name = node_text(left) if left is not None and left.type == "identifier" else ""
            untyped = name in scope.types and (not scope.types[name] or standard(scope.types[name]))
            if right is not None and untyped and name not in scope.held:
                given.setdefault(name, set()).add(self._held_value(right, scope))
        return {name: values.pop() for name, values in given.items() if len(values) == 1 and "" not in values}

    def _note_stored(self, cls: ClassFacts, left: ts.Node, assignment: ts.Node, receiver: str, scope: Scope) -> None:
        """`self.__links[key] = link = TTLCache._Link(key)`: the type of what the mapping attribute is given to hold
        ("" when the value's type is not stated here)."""
        stored = left.child_by_field_name("value")
        owner = stored.child_by_field_name("object") if stored is not None and stored.type == "attribute" else None
        if stored is None or owner is None or node_text(owner) != receiver:
            return
        value = assignment.child_by_field_name("right")
        while value is not None and value.type == "assignment":  # `... = link = TTLCache._Link(key)`
            value = value.child_by_field_name("right")
        typed = self._value_type(value, scope.types, scope) if value is not None else ""
        cls.stored.setdefault(node_text(stored.child_by_field_name("attribute")), set()).add(typed)

    def _note_appended(self, cls: ClassFacts, call: ts.Node, receiver: str, scope: Scope) -> None:
        """`self.items.append(Item(...))` (or `.insert(i, ...)`): the type of what the list attribute is given ("" when
        the value's type is not stated here)."""
        function = call.child_by_field_name("function")
        listed = (
            function.child_by_field_name("object") if function is not None and function.type == "attribute" else None
        )
        if listed is None or listed.type != "attribute" or function is None:
            return
        owner, given = listed.child_by_field_name("object"), call_arguments(call)
        if owner is None or node_text(owner) != receiver or not given:
            return
        if node_text(function.child_by_field_name("attribute")) in ("append", "insert"):
            typed = self._value_type(given[-1], scope.types, scope)
            cls.appended.setdefault(node_text(listed.child_by_field_name("attribute")), set()).add(typed)

    def _note_attribute(
        self,
        cls: ClassFacts,
        name: str,
        assignment: ts.Node,
        parameters: dict[str, str],
        elements: dict[str, str] | None = None,
        scope: Scope | None = None,
    ) -> None:
        """Every type the class states for an attribute (a branch may make it one class, another a second), and the
        element type of a container it annotates."""
        annotation = assignment.child_by_field_name("type")
        stated = self._stated_type(assignment, parameters, scope)
        declared = self._annotation(annotation)
        if declared and standard(declared) and not standard(stated):
            declared = ""  # `self.cache: MutableMapping[str, T] = LRUCache()`: the value's class is what it holds
        if declared:  # what the class declares governs what a branch happens to assign
            cls.declared.setdefault(name, declared)
            if is_optional(annotation):  # a slot filled later: what fills it counts too
                cls.slots.add(name)
        right = assignment.child_by_field_name("right")
        if right is not None and not is_empty_list(right):
            cls.refilled.add(name)
        is_name = right is not None and right.type == "identifier"
        narrowed = narrowed_to(assignment, node_text(right)) if right is not None and is_name else None
        found = self._named_type(node_text(narrowed)) if narrowed is not None else ""  # `if isinstance(child, Foo)`
        found = found or stated
        types = cls.attributes.setdefault(name, [])
        # `self.prompt = Text.from_markup(p) if isinstance(p, str) else p`: each side's type, when they differ
        either: set[str] = set()
        value = unwrapped(right) if right is not None else None
        if value is not None and value.type in ("boolean_operator", "conditional_expression") and not found:
            either = {self._value_type(side, parameters, scope) for side in either_side(value)} - {""}
        # `self.selector = selector` with `selector: Tree`: each class of the union the code states, however many,
        # where the union is of this file's classes (a parse tree's node kinds)
        union = scope.alternatives.get(node_text(right), []) if scope is not None and is_name and not found else []
        union = union if all(t.rpartition(".")[0] == self.module for t in union) else []
        for typed in [found] if found else union or sorted(either):
            if typed not in types and (len(types) < MAX_ATTRIBUTE_TYPES or union):
                types.append(typed)
        self._note_containers(cls, name, assignment, elements or {}, scope)

    def _note_containers(
        self, cls: ClassFacts, name: str, assignment: ts.Node, elements: dict[str, str], scope: Scope | None
    ) -> None:
        """What the class states an attribute holds as a container: the class of its elements, of its tuples' places,
        of what a subscript of it gives, of its keys."""
        annotation, right = assignment.child_by_field_name("type"), assignment.child_by_field_name("right")
        is_name = right is not None and right.type == "identifier"
        if element := self._named_type(element_name(annotation)):  # `self.exprs: list[ParserElement]`: what the
            cls.elements[name] = element  # class declares governs what a branch assigns (`[Literal(s)]`)
            cls.stated_elements.add(name)
        elif name not in cls.stated_elements and (element := self._assigned_elements(right, elements, scope)):
            # given lists of two types: its elements are neither, surely
            cls.elements[name] = element if cls.elements.setdefault(name, element) == element else ""
        if several := self.union_types(element_annotation(annotation)):  # `transformers: Tuple[A | Chain, ...]`
            cls.element_unions.setdefault(name, several)
        elif is_name and scope is not None and (several := scope.element_unions.get(node_text(right), [])):
            cls.element_unions.setdefault(name, several)  # `self.transformers = transformers` (`*transformers: A | B`)
        if any(places := self.element_item_types(annotation)):  # `self._body: list[tuple[Key | None, Item]] = []`
            cls.element_items.setdefault(name, places)
        elif is_name and scope is not None and (places := scope.element_items.get(node_text(right), [])):
            cls.element_items.setdefault(name, places)  # `self.arguments = arguments`, `Sequence[tuple[Token, Sel]]`
        item = self._named_type(item_name(annotation))
        if not item and is_name and scope is not None:  # `self.mapping = mapping` with `mapping: Mapping[str, Foo]`
            item = scope.items.get(node_text(right), "")
        elif not item and is_name:  # `TYPE_MAP = TYPE_MAP` in a class body: the module's mapping of one kind of value
            item = self.module_items.get(node_text(right), "")
        if item:
            cls.items[name] = item
        elif (
            name not in cls.declared
            and right is not None
            and scope is not None
            and (given := self._items_given(right, scope))
        ):
            # `self.conn = {CLIENT: Connection(CLIENT), ...}`: a mapping given values of two types holds neither
            cls.items[name] = given if cls.items.setdefault(name, given) == given else ""
        if key := self._named_type(key_name(annotation)):  # `self._map: dict[SingleKey, int] = {}`
            cls.keys[name] = key

    def _assigned_elements(self, right: ts.Node | None, elements: dict[str, str], scope: Scope | None) -> str:
        """The type of the elements of what an attribute is given, where the code states it: a parameter's elements
        (`self.children = children` or `children or []`, `children: list[Foo]`), a value's (`self.fields =
        list(self._iter_fields())`); "" otherwise."""
        if right is None:
            return ""
        sides = either_side(right) if right.type == "boolean_operator" else [right]
        sides = [elements_kept(s) for s in sides]  # `list(reversed(children))` holds children's elements
        named = [node_text(s) for s in sides if s.type == "identifier"]
        if element := next((elements[n] for n in named if n in elements), ""):
            return element
        return self._elements_given(right, scope) if scope is not None else ""

    def read_module_elements(self, root: ts.Node) -> None:
        """The element types of the module's lists written out (`PythonLocals` reads them; none here)."""

    def _elements_given(self, value: ts.Node, scope: Scope) -> str:
        """The type of each element of a value, where the code states it (`PythonLocals` reads it; "" here)."""
        return ""

    def _items_given(self, value: ts.Node, scope: Scope) -> str:
        """The type of each value of a mapping a value is, where the code states it (`PythonLocals` reads it; "")."""
        return ""

    def _table_given(self, value: ts.Node, scope: Scope) -> dict[str, str]:
        """Key -> function or class of the table a value is, where the code states it (`PythonLocals` reads it)."""
        return {}

    def _held(self, assignment: ts.Node, scope: Scope) -> str:
        """The class or function an assignment stores, not calls: `x = Foo`, `x = mod.f`, `x = cast("type[Foo]",
        Foo)`, `x: type[Foo] = ...` (the value where it is a class or function: lark's `BasicLexer:
        Type[AbstractBasicLexer] = BasicLexer` holds BasicLexer); "" otherwise."""
        right = assignment.child_by_field_name("right")
        given = self._held_value(right, scope) if right is not None else ""
        return given or self._named_type(held_class_name(assignment.child_by_field_name("type")))

    def _held_each(self, assignment: ts.Node, scope: Scope) -> list[str]:
        """The class or function an assignment stores (`_held`), or, where the two sides of `a or b` / `a if c else
        b` store different ones, each (`self.handler = handler or consume_socket_content`), in order of name."""
        if held := self._held(assignment, scope):
            return [held]
        right = assignment.child_by_field_name("right")
        value = unwrapped(right) if right is not None else None
        if value is None or value.type not in ("boolean_operator", "conditional_expression"):
            return []
        return sorted({self._held_value(side, scope) for side in either_side(value)} - {""})

    def _held_value(self, node: ts.Node, scope: Scope) -> str:
        """The qualified name of the class or function a value is (a name the file binds, a dotted name, a variable
        holding one, `cast(T, value)`, the one both sides of `a or b` / `a if c else b` are, `request.param` in a
        fixture parametrized over one class), else ""."""
        if node.type == "attribute" and node_text(node) == "request.param":
            return self._fixture_param(scope)
        if node.type == "identifier":
            name = node_text(node)
            if name in scope.held:
                return scope.held[name]
            return self._bound(name, scope) if name not in scope.types and name != scope.receiver else ""
        if node.type == "attribute":
            return self._method_taken(node, scope) or self._attribute_held(node, scope) or self._dotted(node, scope)
        if node.type == "call":
            function, arguments = node.child_by_field_name("function"), node.child_by_field_name("arguments")
            values = arguments.named_children if arguments is not None else []
            if cast := self.cast_arguments(node, scope):
                held = held_class_name(cast[0])  # `cast(t.Type["Extension"], import_string(name))`: that class
                return self._named_type(held) if held else self._held_value(cast[1], scope)
            called = self._bound_call_name(function, scope)
            if values and (called in PARTIALS or (not called and node_text(function) in METHOD_WRAPPERS)):
                return self._held_value(values[0], scope)  # `partial(work, 1)`: calling it calls work
            callee = self._callee(node, scope)
            if callee in self.closures and not (function is not None and node_text(function) in scope.held):
                return callee  # what calling it gives is its own nested code: calling that calls it
            return self.returned_held.get(callee, "")  # `handler = make_handler()`
        if node.type == "parenthesized_expression" and node.named_child_count == 1:
            return self._held_value(node.named_children[0], scope)
        if node.type in ("boolean_operator", "conditional_expression"):
            known = {self._held_value(side, scope) for side in either_side(node)} - {""}
            return known.pop() if len(known) == 1 else ""
        return ""

    def _bound_call_name(self, function: ts.Node | None, scope: Scope) -> str:
        """The qualified name a call's function is written as, its head bound as the file binds it
        (`partial(...)` after `from functools import partial`: `functools.partial`); "" where the head is unbound."""
        written = node_text(function).partition(".") if function is not None else ("", "", "")
        return ".".join(p for p in (self._bound(written[0], scope), written[2]) if p)

    # --- what an expression names ---

    def _attribute_types(self, node: ts.Node, scope: Scope) -> list[str]:
        """The types the class states for `self.<attribute>`; [] for anything else."""
        if node.type != "attribute" or scope.cls is None:
            return []
        owner = node.child_by_field_name("object")
        if owner is None or owner.type != "identifier" or node_text(owner) != scope.receiver:
            return []
        name = node_text(node.child_by_field_name("attribute"))
        if name in scope.assigned:  # this function set it before the call
            return surest(scope.assigned[name])
        return scope.cls.stated(name)

    def _receiver_type(self, node: ts.Node, scope: Scope) -> str:
        """The stated type of a receiver expression, "" when the code does not state one."""
        if node.type == "identifier":
            return scope.types.get(node_text(node), "")
        if node.type == "attribute":
            types = self._attribute_types(node, scope) or self._member_types(node, scope)
            return (types[0] if len(types) == 1 else "") if types else self._held_elsewhere(node, scope)
        if node.type == "call":
            return self._made(node, scope)
        if node.type in ("parenthesized_expression", "binary_operator"):  # `(Literal("a") + "::").set_name(...)`
            return self._value_type(node, scope.types, scope)
        if node.type != "subscript" or any(c.type == "slice" for c in node.children_by_field_name("subscript")):
            return ""  # (`xs[1:]` is a list of the elements, not one of them)
        return self.items_of(node.child_by_field_name("value"), scope)

    def passed_type(self, node: ts.Node, scope: Scope) -> str:
        """`_receiver_type`, else for an untyped parameter what the indexer reads of the values calls pass it
        (`mod.f@(store#0)`): what a call on it or a statement over it runs (its value is no other variable's type)."""
        found = self._receiver_type(node, scope)
        return found or (scope.open_params.get(node_text(node), "") if node.type == "identifier" else "")

    def keys_of(self, container: ts.Node | None, scope: Scope) -> str:
        """The class of the keys of `self._map` (or `table._map`) where the class states `_map: dict[SingleKey, int]`,
        or of a parameter annotated so; "" when the code does not state one."""
        return self._declared(container, scope, "keys") or ""

    def items_of(self, container: ts.Node | None, scope: Scope) -> str:
        """`self._long_opt` (or `parser._long_opt`) where the class states `_long_opt: dict[str, _Option]`, or a
        parameter annotated so: the class a subscript of it gives (`self._long_opt[opt]`); "" when the code does not
        state one."""
        return self._declared(container, scope, "items") or ""

    def element_items_of(self, container: ts.Node | None, scope: Scope, width: int) -> list[str]:
        """The type at each of the `width` places of the tuples `body` or `self._body` holds, where a parameter's or
        the class's annotation states them (`list[tuple[Key | None, Item]]`), or of `table.body` whose class is of
        another file, as that class states them (`Container@body[]1`, for the indexer to read); [] otherwise."""
        if (declared := self._declared(container, scope, "element_items")) is not None:
            return declared if len(declared) == width else []
        attribute = container is not None and container.type == "attribute"
        elsewhere = self._held_elsewhere(container, scope) if container is not None and attribute else ""
        return [f"{elsewhere}{ELEMENTS_MARK}{place}" for place in range(width)] if elsewhere else []

    def _declared(self, container: ts.Node | None, scope: Scope, fact: ContainerFact) -> Any:
        """What a container's annotation states (`fact`: its items, keys or tuple places), for a parameter or local
        by its name, for an attribute as its class states it; None when nothing does."""
        if container is not None and container.type == "identifier":
            return getattr(scope, fact).get(node_text(container))
        owner = container.child_by_field_name("object") if container is not None else None
        if container is None or container.type != "attribute" or owner is None:
            return None
        cls = self._owner_class(owner, scope)[1]
        return getattr(cls, fact).get(node_text(container.child_by_field_name("attribute"))) if cls else None

    def _looked_up_item(self, call: ts.Node, scope: Scope) -> str:
        """`self._short_opt.get(opt)`, `.pop(opt)`, `.setdefault(opt, x)` on a mapping the class declares: what the
        mapping holds (or nothing); on the function's `**` parameter, the default's type; "" for any other call."""
        function = call.child_by_field_name("function")
        if function is None or function.type != "attribute":
            return ""
        if node_text(function.child_by_field_name("attribute")) not in MAPPING_LOOKUPS:
            return ""
        if held := self.items_of(function.child_by_field_name("object"), scope):
            return held
        default = keyword_default(call, MAPPING_LOOKUPS)  # `kwargs.pop("spec", self.spec)`: of the default's type
        return self._value_type(default, scope.types, scope) if default is not None else ""

    def _owner_class(self, owner: ts.Node, scope: Scope) -> tuple[str, ClassFacts | None]:
        """The type of the value whose attribute is read, with its class when it is this file's: the method's class
        for its receiver (`self.items`, also while the classes are still being read), else what the code states for
        it (`node.items`)."""
        if scope.cls is not None and owner.type == "identifier" and node_text(owner) == scope.receiver:
            return scope.cls.qualified, scope.cls
        typed = self._receiver_type(owner, scope)
        return typed, self.by_qualified.get(typed)

    def _member_types(self, node: ts.Node, scope: Scope) -> list[str]:
        """`frame.symbols` where `frame`'s class is one of this file's: the types that class states for `symbols`."""
        owner = node.child_by_field_name("object")
        typed = self._receiver_type(owner, scope) if owner is not None else ""
        cls = self.by_qualified.get(typed) if typed else None
        attribute = node_text(node.child_by_field_name("attribute"))
        if cls is None and owner is not None and scope.cls is not None and node_text(owner) == scope.receiver:
            cls = scope.cls if attribute in scope.cls.properties else None  # `self._state`: its own property
        if cls is None:
            return []
        if returned := self.property_returns(cls, attribute):
            return [returned]  # `self._state` read: what the property's getter returns
        return cls.stated(attribute)

    def property_returns(self, cls: ClassFacts, member: str) -> str:
        """What the property `member` of `cls` returns, where the file states or infers it; "" for any other member."""
        return self.returns.get(f"{cls.qualified}.{member}", "") if member in cls.properties else ""

    def _held_elsewhere(self, node: ts.Node, scope: Scope) -> str:
        """`r.connection` (r's class of another file) or `self.pool` (stated by none of this file's classes): the
        type the attribute's class or one of its bases states, for the indexer to read (`Class@attribute`); "" when
        the receiver's class is not known, is the standard library's, or is this file's and sets the name itself."""
        owner, attribute = node.child_by_field_name("object"), node_text(node.child_by_field_name("attribute"))
        if owner is None or not attribute:
            return ""
        typed = self._owner_class(owner, scope)[0] or self.passed_type(owner, scope)  # (`md.block`: md untyped)
        own = self.by_qualified.get(typed)
        if not typed or typed.split(".", 1)[0] in sys.stdlib_module_names or (own is None and self._own_name(typed)):
            return ""
        if own is not None and {attribute} & {*own.methods, *own.held, *own.attributes, *own.declared}:
            return ""  # the class defines it here: what it holds is this file's to state, or not stated at all
        return f"{typed}{ATTRIBUTE_MARK}{attribute}"

    def item_type(self, whole: str, position: int) -> str:
        """The type of the item at `position` of a value of type `whole` unpacked (`text, style, _ = segment`): the
        field a NamedTuple of this file declares there, for the indexer to read of another file's
        (`Class@position`); "" when unknown."""
        own = self.by_qualified.get(whole)
        if own is not None:
            types = own.stated(own.fields[position]) if position < len(own.fields) else []
            return types[0] if len(types) == 1 else ""
        if not whole or self._own_name(whole) or whole.split(".", 1)[0] in sys.stdlib_module_names:
            return ""
        return f"{whole}{ATTRIBUTE_MARK}{position}"

    def _fixture_param(self, scope: Scope) -> str:
        """`request.param` in a fixture parametrized over classes (`@pytest.fixture(params=(Serializer,
        partial(Serializer, serializer=pickle)))`): the one class every value is or makes; "" otherwise."""
        function = self.definitions.get(scope.caller) or self.definitions.get(f"{self.module}.{scope.caller}")
        values = fixture_params(function) if function is not None else []
        found = {self._held_value(value, scope) for value in values}
        return found.pop() if len(found) == 1 and "" not in found else ""

    def _own_name(self, typed: str) -> bool:
        """Whether a type names something of this file that is no class of it (a function, or any class before the
        classes are read): what it holds is this file's to state."""
        return typed.startswith(f"{self.module}.") and ATTRIBUTE_MARK not in typed

    def _method_taken(self, node: ts.Node, scope: Scope) -> str:
        """`self.render`, `cls.adjust_line_length` or `row.close` (row's class one of this file's), a method taken
        as a value: its qualified name; "" for anything else (a property read gives what its getter returns)."""
        owner, member = node.child_by_field_name("object"), node_text(node.child_by_field_name("attribute"))
        if owner is None or owner.type != "identifier" or not member:
            return ""
        own = self._owner_class(owner, scope)[1]
        taken = own is not None and member in own.methods and member not in own.properties
        return f"{own.qualified}.{member}" if own is not None and taken else ""

    def _attribute_held(self, node: ts.Node, scope: Scope) -> str:
        """`self.default_digest_method` where the class (or this file's class of the owner) gives the attribute one
        class or function to hold: that one; "" for anything else."""
        owner, member = node.child_by_field_name("object"), node_text(node.child_by_field_name("attribute"))
        if owner is None or owner.type != "identifier" or not member:
            return ""
        own = self._owner_class(owner, scope)[1]
        held = own.holding(member) if own is not None and member not in own.methods else []
        return held[0] if len(held) == 1 else ""

    def _dotted(self, node: ts.Node, scope: Scope) -> str:
        """`mod.sub` where `mod` is a module-level binding (an import, a class) -> its qualified name."""
        parts: list[str] = []
        while node.type == "attribute":
            parts.append(node_text(node.child_by_field_name("attribute")))
            owner = node.child_by_field_name("object")
            if owner is None:
                return ""
            node = owner
        if node.type != "identifier":
            return ""
        name = node_text(node)
        bound = self._bound(name, scope)
        if name in scope.types or name == scope.receiver or not bound:
            return ""
        return ".".join([bound, *reversed(parts)])

    def _made(self, call: ts.Node, scope: Scope) -> str:
        """What a call gives: the type a function of this file says it returns (`self.connect()`,
        `make_pool()`), else what it calls (a class, or a function or a method of a typed value, `env.tokenize()`:
        the indexer tells from what that function says it returns)."""
        function = call.child_by_field_name("function")
        if function is None:
            return ""
        if looked_up := self._looked_up_item(call, scope):  # `self.opts.get(k)`: what the declared mapping holds
            return looked_up
        if scope.cls is not None and function.type == "identifier" and node_text(function) == scope.receiver:
            if scope.receiver == "cls":  # `ins = cls()` in a classmethod: an instance of the class (or a subclass)
                return scope.cls.qualified
            return self.returns.get(f"{scope.cls.qualified}.__call__", "")  # `state = self()`: its own `__call__`'s
        owner = function.child_by_field_name("object") if function.type == "attribute" else None
        method = node_text(function.child_by_field_name("attribute")) if owner is not None else ""
        given = call_arguments(call)
        if method == "__new__" and given and named_as_class(made := self._held_value(given[0], scope)):
            return made  # `Marker.__new__(Marker)`, `object.__new__(cls)`: an instance of the class it is given
        if given and self._bound_call_name(function, scope) in PARTIALS:  # `partial(renderer, None)`: calling it
            return self._value_type(given[0], scope.types, scope)  # calls the instance, as calling that would
        own = scope.cls is not None and owner is not None and node_text(owner) == scope.receiver
        if own and scope.cls is not None and method in scope.cls.properties:  # `self._state(restore=True)`: what
            value = self.property_returns(scope.cls, method)  # calling the property's value gives
            return self.returns.get(f"{value}.__call__", "") if value else ""
        if own and scope.cls is not None and method in scope.cls.held and method not in scope.cls.methods:
            return self.returns.get(scope.cls.held[method], scope.cls.held[method])  # `self.context_class()`
        if owner is not None and (called := self._member_called(owner, method, scope)):
            return self._given(called)
        return (
            self.class_of(function, scope) or self._cast_to(call, scope) or self._given(self._constructed(call, scope))
        )

    def generator_of(self, value: ts.Node, scope: Scope) -> list[str]:
        """The generator functions of this file whose generator a value is, sorted: a call of one
        (`self.tokeniter(...)`, also through `iter(...)`), a local or parameter holding one, an attribute of the
        method's class given one (`self._iter`); [] for anything else. Its body runs where the value is consumed."""
        value = self.drawn_on(value, scope)
        if value.type == "call":
            called = self._callee(value, scope)
            return [called] if called in self.generator_functions else self.returned_generators.get(called, [])
        if value.type in ("boolean_operator", "conditional_expression"):  # `list(platforms or platform_tags())`
            return sorted({g for side in either_side(value) for g in self.generator_of(side, scope)})
        if value.type == "identifier":
            return scope.generators.get(node_text(value), [])
        owner = value.child_by_field_name("object") if value.type == "attribute" else None
        if owner is None or scope.cls is None or owner.type != "identifier" or node_text(owner) != scope.receiver:
            return []
        return sorted(scope.cls.generators.get(node_text(value.child_by_field_name("attribute")), ()))

    def drawn_on(self, value: ts.Node, scope: Scope, through_iter: bool = True) -> ts.Node:
        """The value an iterator being consumed draws on: x of `iter(x)` or `islice(x, n)` (`iterated`), through
        any number of them; else the value itself. Not `iter(x)` unless `through_iter`: that x is its own iterator
        holds for a generator, not for any class (`__iter__` may return another object)."""
        bound = partial(self._bound, scope=scope)
        while value.type == "call" and (given := iterated(value, bound, through_iter)):
            value = given
        return value

    def _callee(self, call: ts.Node, scope: Scope) -> str:
        """The qualified name of the function, method or class a call calls, as far as the file states it; "" else."""
        function = call.child_by_field_name("function")
        owner = (
            function.child_by_field_name("object") if function is not None and function.type == "attribute" else None
        )
        method = node_text(function.child_by_field_name("attribute")) if function is not None and owner else ""
        return (self._member_called(owner, method, scope) if owner is not None else "") or self._constructed(
            call, scope
        )

    def _member_called(self, owner: ts.Node, method: str, scope: Scope) -> str:
        """`self.connect` (the class's own or a base's, of this file or another) or `env.tokenize` on a typed value:
        the qualified name called; "" when the receiver's class is not stated."""
        if scope.cls is not None and owner.type == "identifier" and node_text(owner) == scope.receiver:
            return f"{scope.cls.qualified}.{method}"
        typed = self._receiver_type(owner, scope)
        return f"{typed}.{method}" if typed else ""

    def _cast_to(self, call: ts.Node, scope: Scope) -> str:
        """`cast(Group, value)` (typing's): the class it says the value is, "" for any other call (and for
        `cast(Type[Extension], v)`: the class itself, no instance of it)."""
        cast = self.cast_arguments(call, scope)
        return self._named_type(annotated_name(cast[0])) if cast and not held_class_name(cast[0]) else ""

    def cast_arguments(self, call: ts.Node, scope: Scope) -> list[ts.Node]:
        """The type and the value of typing's `cast(T, value)` (not a `cast` the file binds to something else); []
        for any other call."""
        function, arguments = call.child_by_field_name("function"), call.child_by_field_name("arguments")
        if call.type != "call" or function is None or node_text(function) not in CASTS:
            return []
        bound = self._bound(node_text(function).split(".", 1)[0], scope)
        values = arguments.named_children if arguments is not None else []
        return values if len(values) == 2 and (not bound or bound.startswith("typing")) else []

    def _given(self, called: str) -> str:
        """What a call of the function or class `called` gives: the class it is said to return, "" for a function
        of this file whose annotation names no class of a project (`-> str`), else the name called (a class, or a
        function of another file: the indexer reads what it returns)."""
        if called in self.returns:
            return self.returns[called]
        return "" if called in self.annotated else called

    def _constructed(self, call: ts.Node, scope: Scope) -> str:
        """`Foo(...)` / `lib.Pool(...)`: the qualified name called (a class, or a factory: the indexer tells)."""
        function = call.child_by_field_name("function")
        if function is None:
            return ""
        if function.type == "identifier":
            name = node_text(function)
            if name in scope.held:
                return scope.held[name]
            return self._bound(name, scope) or self.star_name(name, scope) if name not in scope.types else ""
        return self._dotted(function, scope) if function.type == "attribute" else ""

    def class_of(self, node: ts.Node, scope: Scope) -> str:
        """`type(x)` or `x.__class__` where x's class is known (the receiver's, a stated type): that class, else ""."""
        value = class_asked(node)
        if value is None or (node.type == "call" and self._bound("type", scope)):
            return ""
        if value.type == "identifier" and scope.cls is not None and node_text(value) == scope.receiver:
            return scope.cls.qualified
        return self._receiver_type(value, scope)

    def _stated_type(self, assignment: ts.Node, parameters: dict[str, str], scope: Scope | None = None) -> str:
        """The type an assignment states (`declared_or_made`)."""
        right = assignment.child_by_field_name("right")
        return self.declared_or_made(assignment.child_by_field_name("type"), right, parameters, scope)

    def declared_or_made(
        self, annotation: ts.Node | None, value: ts.Node | None, variables: dict[str, str], scope: Scope | None
    ) -> str:
        """The type of what a name is given: its annotation's, else the value's (a constructor call, a typed
        variable or parameter it copies); a project's class the value makes where the annotation names the standard
        library's (`cache: MutableMapping[str, Lexer] = LRUCache(50)`) is what the value is."""
        annotated = self._annotation(annotation)
        if annotated and standard(annotated) and held_class_name(annotation):
            annotated = ""  # `Set: Type[AbstractSet] = set`: a class no project has, no instance of one
        if annotated and (value is None or not standard(annotated)):
            return annotated
        valued = self._value_type(value, variables, scope) if value is not None else ""
        return valued if valued and not standard(valued) else annotated or valued

    def _value_type(self, node: ts.Node, variables: dict[str, str], scope: Scope | None = None) -> str:
        """The type of a value: a constructor call or a call of a function that states its return type, a typed
        variable, or the one type both sides of `a or b` / `a if c else b` have ("" when unknown or they differ).
        `scope`, in a function, is where a call is made (what `self` is)."""
        if node.type == "call":
            return self._made(node, scope or Scope("", "", types=dict(variables)))
        if node.type == "identifier":
            if scope is not None and scope.cls is not None and scope.receiver and node_text(node) == scope.receiver:
                return scope.cls.qualified  # `ctx = self`
            return variables.get(node_text(node), "")
        if node.type in ("attribute", "subscript") and scope is not None:  # `header = self.header`, `self.opts[k]`
            return self._receiver_type(node, scope)
        if node.type in ("parenthesized_expression", "await") and node.named_child_count == 1:
            return self._value_type(node.named_children[0], variables, scope)
        if node.type in ("boolean_operator", "conditional_expression"):
            known = {self._value_type(side, variables, scope) for side in either_side(node)} - {""}
            return known.pop() if len(known) == 1 else ""
        if node.type == "binary_operator":
            return self._operated_type(node, variables, scope)
        return ""

    def _operated_type(self, node: ts.Node, variables: dict[str, str], scope: Scope | None) -> str:
        """What an operator gives (`Literal("a") + "::" + Literal("b")`): what the left operand's method for it
        (`__add__`) says it returns, operator by operator along the left operands (however many: a long sum is no
        deep recursion); "" where one is not known."""
        methods: list[str] = []
        while node.type == "binary_operator":
            operator, left = node.child_by_field_name("operator"), node.child_by_field_name("left")
            method = BINARY_RUNS.get(node_text(operator)) if operator is not None else None
            if left is None or method is None:
                return ""
            methods.append(method)
            node = left
        typed = self._value_type(node, variables, scope)
        for method in reversed(methods):
            if not typed or standard(typed):
                return ""
            typed = self._method_gives(typed, method)
        return typed

    def _method_gives(self, typed: str, method: str) -> str:
        """What a call of `method` on a value of `typed` gives: as the class of this file defining it (the class
        itself or its nearest base of this file) says; else the name called, for the indexer to read, where a base of
        another project's file may define it; "" where only the standard library's may (marshmallow's `OrderedSet -
        other`, `MutableSet.__sub__`: what it gives is not stated)."""
        cls = self.by_qualified.get(typed)
        if cls is None:
            return self._given(f"{typed}.{method}")
        lineage = list(self.file_lineage(cls))
        if owner := next((c for c in lineage if method in c.methods), None):
            return self._given(f"{owner.qualified}.{method}")
        bases = {b for c in lineage for b in self.file_bases.get(c.qualified, [])}
        elsewhere = any(b not in self.by_qualified and not standard(b) for b in bases)
        return self._given(f"{typed}.{method}") if elsewhere else ""
