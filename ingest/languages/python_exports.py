"""What one Python file states for the binding of other files (`HOLDS` facts): the class each module-level name is an
instance of, what each class's attributes hold and its tables give, the parameters its methods annotate, the names a
package's `__init__` imports for others to import from it, and what a standard-library container base's methods run
of the class's own.

A layer of the binder between what a file's names hold (`python_locals`) and the binding of its calls
(`python_scope`).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

import tree_sitter as ts

from trident.ingest.languages import node_text
from trident.ingest.languages.binding import Bindings, BoundAttribute, Target
from trident.ingest.languages.python_facts import ClassFacts, Scope
from trident.ingest.languages.python_implicit import (
    library_mixins,
)
from trident.ingest.languages.python_locals import PythonLocals
from trident.ingest.languages.python_parameters import standard
from trident.ingest.languages.python_syntax import (
    call_arguments,
    exported_names,
    imported_names,
    parameter_nodes,
    reexported,
    returned_values,
    statements,
)
from trident.ingest.model import (
    CALLED_MARK,
    ELEMENTS_MARK,
    GENERATED_MARK,
    GETTER_MARK,
    IMPORTS_ALL_MARK,
    LIBRARY_RUNS_MARK,
    REPARTIAL_MARK,
    TABLE_MARK,
    TargetForm,
    parameter_attribute,
)
from trident.store.names.import_names import heads_folder
from trident.store.schema import Resolution


class PythonExports(PythonLocals):
    """The facts a file states for the files binding against it."""

    result: Bindings  # the binder's (`python_scope`): the tables it read, the calls it bound

    def _module_instances(self) -> Iterator[BoundAttribute]:
        """The class of each module-level name given one instance (`Infinity = InfinityType()`, `console =
        Console()`): what another file importing the name runs (`hash(Infinity)`, `console.print()`; `HOLDS` on the
        module, attribute the name)."""
        for name, typed in sorted(self.module_types.items()):
            if not standard(typed):
                yield BoundAttribute("", name, Target(TargetForm.QUALIFIED, typed, Resolution.INFERRED))
        for name, typed in sorted(self._aliased_classes().items()):
            yield BoundAttribute("", name, Target(TargetForm.QUALIFIED, typed, Resolution.INFERRED))

    def _aliased_classes(self) -> dict[str, str]:
        """Each type alias of the file naming one project class among builtin values and standard-library types
        (`RetryBaseT = Union[retry_base, Callable[..., bool]]`) -> that class: what a value another file annotates
        with the alias is an instance of (`retry: "RetryBaseT"`, then `self.retry(state)` runs its `__call__`)."""
        found = {name: self._named_type(name) for name in self.type_aliases}
        for name, members in self.union_aliases.items():
            classes = {typed for m in members if (typed := self._named_type(m)) and not standard(typed)}
            found[name] = classes.pop() if len(classes) == 1 else ""
        return {n: t for n, t in found.items() if t and not standard(t) and n not in self.module_types}

    def _held_tables(self, root: ts.Node) -> Iterator[BoundAttribute]:
        """The table each class attribute is given a copy of (`self.filters = DEFAULT_FILTERS.copy()`, attribute
        `filters[*]`), and the tables this module imports only to be imported from it (`from .filters import FILTERS
        as DEFAULT_FILTERS` in jinja2's `defaults`): what another file's `env.filters.get(name)(...)` or `from
        .defaults import DEFAULT_FILTERS` calls (`HOLDS`, one of the table's functions standing for it)."""
        for cls in self.classes.values():
            for attribute, table in sorted(cls.tables.items()):  # `TYPE_MAPPING = {str: fields.String, ...}`
                for place, held in enumerate(sorted(set(table.values()))):  # read elsewhere: `root.TYPE_MAPPING.get(k)`
                    target = Target(TargetForm.QUALIFIED, held, Resolution.INFERRED)
                    yield BoundAttribute(cls.local, f"{attribute}{TABLE_MARK}{place}", target)
            for attribute, copied in sorted(cls.copied.items()):
                own = f"{self.module}.{copied}" if copied in self.result.tables else ""
                held = own or self.imported_name(copied, Scope("", ""))
                if held:
                    target = Target(TargetForm.QUALIFIED, f"{held}{TABLE_MARK}", Resolution.INFERRED)
                    yield BoundAttribute(cls.local, f"{attribute}{TABLE_MARK}", target)
        if heads_folder(self.path):  # a package's `__init__` re-exports by its folder (the indexer reads that)
            yield from self._package_names(root)
            return
        unused = reexported(root, self.names, self.module, self.path)
        for name in unused:
            target = Target(TargetForm.QUALIFIED, f"{self.names[name]}{TABLE_MARK}", Resolution.INFERRED)
            yield BoundAttribute("", f"{name}{TABLE_MARK}", target)
        yield from self._shim_names(root, unused)

    def imports_all(self) -> Iterator[BoundAttribute]:
        """The modules this one imports every name of (`from .exceptions import *` in pyparsing's `core.py`), in
        order: where a name another module's `from .core import *` gives may come from (`HOLDS` on the module,
        attribute `<*>0`): `col`, which `core.py` has from `exceptions.py`, which has it from `util.py`."""
        for place, module in enumerate(self.star_modules):
            target = Target(TargetForm.QUALIFIED, module, Resolution.EXACT)
            yield BoundAttribute("", f"{IMPORTS_ALL_MARK}{place}", target)

    def _shim_names(self, root: ts.Node, unused: list[str]) -> Iterator[BoundAttribute]:
        """The definitions a module imports from another module for others to import from it (pluggy's `_hooks.py`,
        kept for compatibility: `from ._caller import HookCaller`, then `from ._hooks import HookCaller` in
        `_manager.py`), or that a module importing every name of it gets (`from .exceptions import *` in pyparsing's
        `core.py` gives the `col` that `exceptions.py` imports from `util.py`): what `pluggy._hooks.HookCaller` names
        (`HOLDS` on the module, attribute `HookCaller()`, as a package's `__init__` states it). Every name its
        top-level `from ... import` statements bind, and those `__all__` lists."""
        froms = (node for node in statements(root) if node.type == "import_from_statement")
        imported = {name for node in froms for name in imported_names(node, self.path)}
        for name in sorted(exported_names(root) | set(unused) | imported):
            held = self.names.get(name, "")  # (what the file's top-level statements bind the name to)
            if held and not standard(held) and not held.startswith(f"{self.module}."):
                yield BoundAttribute("", f"{name}{CALLED_MARK}", Target(TargetForm.QUALIFIED, held, Resolution.EXACT))

    def _package_names(self, root: ts.Node) -> Iterator[BoundAttribute]:
        """The definitions a package's `__init__` imports from its own modules for others to import from the package
        (`from .environment import Template as Template` in jinja2's): what `jinja2.Template` names where the
        package's folder has several definitions of the name (`nodes.Template` too), which the folder alone cannot
        tell, or the `__init__` defines a stand-in for when the import fails (httpcore's `AsyncHTTP2Connection`
        without `h2`): `HOLDS` on the module, attribute `Template()`."""
        for node in statements(root):
            if node.type != "import_from_statement":
                continue
            for name, held in sorted(imported_names(node, self.path).items()):  # (a fallback the file defines in
                if held.startswith(f"{self.module}.") and held.count(".") > self.module.count(".") + 1:  # `except`)
                    target = Target(TargetForm.QUALIFIED, held, Resolution.EXACT)
                    yield BoundAttribute("", f"{name}{CALLED_MARK}", target)

    def _generators(self) -> Iterator[BoundAttribute]:
        """Each function a call of which gives a generator, holding the generator function whose body consuming that
        runs (attribute `<next>`): itself, or the one it returns (`platform_tags()` returning `_linux_platforms()`);
        what another file's call passing `f(...)` on to a consumer runs there (`HOLDS`)."""
        returned = {f: found[0] for f, found in self.returned_generators.items() if len(found) == 1}
        for qualified, generator in sorted({**{g: g for g in self.generator_functions}, **returned}.items()):
            target = Target(TargetForm.QUALIFIED, generator, Resolution.EXACT)
            yield BoundAttribute(qualified.removeprefix(f"{self.module}."), GENERATED_MARK, target)

    def _repartials(self) -> Iterator[BoundAttribute]:
        """Each module-level function that may return a partial of itself given keywords only (semver's `def
        deprecated(func=None, *, version=None)`: `if func is None: return partial(deprecated, version=version)`), so
        that `@deprecated(version="3.0")` over `def bump` passes bump to its `func` (`REPARTIAL_MARK`)."""
        for qualified, node in sorted(self.definitions.items()):
            local = qualified.removeprefix(f"{self.module}.")
            if "." in local or self.names.get(local) != qualified:
                continue
            if any(self._partial_of(value) == qualified for value in returned_values(node)[0]):
                yield BoundAttribute(local, REPARTIAL_MARK, Target(TargetForm.QUALIFIED, qualified, Resolution.EXACT))

    def _partial_of(self, value: ts.Node) -> str:
        """The function `partial(f, k=v, ...)` (functools') makes a partial of with keywords only, qualified; ""
        for any other value."""
        given = call_arguments(value) if value.type == "call" else []
        function = value.child_by_field_name("function") if value.type == "call" else None
        named = node_text(function).rpartition(".")[2] if function is not None else ""
        module = self.names.get(node_text(function).partition(".")[0], "") if function is not None else ""
        if named != "partial" or not module.startswith("functools") or not given or given[0].type != "identifier":
            return ""
        if any(a.type != "keyword_argument" for a in given[1:]):
            return ""
        return self.names.get(node_text(given[0]), "")

    def _stated_parameters(self) -> Iterator[BoundAttribute]:
        """The class each annotated parameter of each method holds (`md: Markdown`, attribute `(md)`): what the
        same parameter of an override that states none holds, in this file or another (`HOLDS`)."""
        for qualified, node in sorted(self.definitions.items()):
            local = qualified.removeprefix(f"{self.module}.")
            if local.rpartition(".")[0] not in self.classes:
                continue
            for name, annotation in parameter_nodes(node):
                typed = self._annotation(annotation) if annotation is not None else ""
                if typed and not standard(typed):
                    target = Target(TargetForm.QUALIFIED, typed, Resolution.INFERRED)
                    yield BoundAttribute(local, parameter_attribute(name), target)

    def _held_attributes(self) -> Iterator[BoundAttribute]:
        """The one type each class of the file states for an attribute (`connection: HTTPAdapter`, `self.x = Foo()`),
        a property's getter returns or a NamedTuple's field has at its place (attribute "0", "1", ...): what
        `r.connection.send()` in another file, or in a class deriving from it, is a member of, and what unpacking
        the tuple gives; the class of each element of a container attribute (`options: list[Keyword]`, attribute
        `options[]`): what `for k in node.options: k.as_const()` in another file calls; and the class or function an
        attribute holds itself (`context_class = Context`, attribute `context_class()`): what `env.context_class(...)`
        runs; each property's getter (attribute `name(get)`): what reading `x.name` elsewhere runs (the indexer reads
        them: `HOLDS`)."""
        for cls in self.classes.values():
            stated = {a: cls.stated(a) for a in sorted({*cls.declared, *cls.attributes}) if a not in cls.methods}
            for prop in sorted(cls.properties):
                returned = self.returns.get(f"{cls.qualified}.{prop}", "")
                stated[prop] = [returned] if returned else []
                if prop in cls.methods:  # (a read elsewhere runs the getter)
                    getter = Target(TargetForm.QUALIFIED, f"{cls.qualified}.{prop}", Resolution.EXACT)
                    yield BoundAttribute(cls.local, f"{prop}{GETTER_MARK}", getter)
            for position, name in enumerate(cls.fields):  # a NamedTuple unpacked: `text, style, _ = segment`
                stated[str(position)] = stated.get(name, [])
            for attribute, types in stated.items():
                if types == [cls.held.get(attribute)]:  # `x: type[Foo] = Foo` holds the class, not an instance
                    continue
                if len(types) == 1 and types[0] and types[0].split(".", 1)[0] not in sys.stdlib_module_names:
                    target = Target(TargetForm.QUALIFIED, types[0], Resolution.INFERRED)
                    yield BoundAttribute(cls.local, attribute, target)
            for attribute, element in sorted(cls.elements.items()):  # `options: list[Keyword]`: a loop over it
                if element and not standard(element) and ELEMENTS_MARK not in element:
                    target = Target(TargetForm.QUALIFIED, element, Resolution.INFERRED)
                    yield BoundAttribute(cls.local, f"{attribute}{ELEMENTS_MARK}", target)
            for attribute, places in sorted(cls.element_items.items()):  # `for k, v in table.body:` elsewhere
                for place, element in enumerate(places):
                    if element and not standard(element) and ELEMENTS_MARK not in element:
                        target = Target(TargetForm.QUALIFIED, element, Resolution.INFERRED)
                        yield BoundAttribute(cls.local, f"{attribute}{ELEMENTS_MARK}{place}", target)
            for attribute, held in sorted(cls.held.items()):  # `context_class = Context`: a call of it constructs
                if attribute not in cls.methods and held.split(".", 1)[0] not in sys.stdlib_module_names:
                    target = Target(TargetForm.QUALIFIED, held, Resolution.INFERRED)
                    yield BoundAttribute(cls.local, f"{attribute}{CALLED_MARK}", target)

    # --- second pass: calls and bases, scope by scope ---

    def _library_mixins(self, cls: ClassFacts, base: Target) -> Iterator[BoundAttribute]:
        """What each method a standard-library container base gives the class runs of the class's own
        (`class Cache(collections.abc.MutableMapping)`: `cache.update(...)` runs `Cache.__setitem__`), where the class
        defines that and not the method itself: held for calls of it here and in other files (`HOLDS`)."""
        for method, runs in sorted(library_mixins(base.name).items()):
            if method not in cls.methods and runs in cls.methods:
                target = Target(TargetForm.QUALIFIED, f"{cls.qualified}.{runs}", Resolution.INFERRED)
                yield BoundAttribute(cls.local, f"{method}{LIBRARY_RUNS_MARK}", target)
