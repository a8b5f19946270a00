"""What a function does with a parameter nothing types: the members its body uses on it, read off the binder's
references to members of the parameter (`f@(p#0)`): `p.lineno(1)` uses `lineno`, `p[0] = x` uses `__setitem__`,
`len(p)` uses `__len__`. The indexer types such a parameter as the one class of its project that has every member
used on it (`CodeIndex._used_class`), as a reader of the function would.

Methods of one class (or functions of one module) sharing a name prefix and a parameter name are one family: a
parser generator's rules (`p_expression(self, p)`, `p_statement(self, p)`) are all given the same production object,
and most rules use only `p[0] = p[1]` on it: a rule whose own uses tell nothing is of the class its family's others
are of, where they agree."""

from __future__ import annotations

import io
from collections import defaultdict
from collections.abc import Iterable

from trident.ingest.languages.python_syntax import BUILTIN_METHODS
from trident.ingest.model import ATTRIBUTE_MARK, PARAMETER_CLOSE, PARAMETER_OPEN, Reference, TargetForm, parameter_parts
from trident.store.schema import RelationType

FILE_METHODS = frozenset(
    name
    for kind in (io.TextIOWrapper, io.BufferedReader, io.BufferedWriter, io.BytesIO, io.StringIO)
    for name in dir(kind)
)
MIN_FAMILY = 3  # rules sharing a prefix and a parameter before their uses are read together


def parameter_uses(references: Iterable[Reference]) -> dict[str, frozenset[str]]:
    """Each untyped parameter's owner name (`mod.Parser.p_rule@(p#0)`) -> the member names its function calls on it
    (or a statement over it runs). A member only read is left out: a property of one class (parso's
    `KeywordStatement.type`) is a plain attribute of many."""
    return _on_parameters(references, RelationType.CALLS)


def parameter_reads(references: Iterable[Reference]) -> dict[str, frozenset[str]]:
    """Each untyped parameter's owner name -> the attributes its function reads on it (`md.block`, `md.renderer`):
    what says which class a value is where nothing telling is called on it (a plugin given the application)."""
    return _on_parameters(references, RelationType.REFERENCES)


def _on_parameters(references: Iterable[Reference], kind: RelationType) -> dict[str, frozenset[str]]:
    found: dict[str, set[str]] = defaultdict(set)
    for ref in references:
        if ref.type != kind or ref.form != TargetForm.MEMBER or not ref.target.isidentifier():
            continue
        _, mark, attribute = ref.owner.rpartition(ATTRIBUTE_MARK)
        if mark and attribute.startswith(PARAMETER_OPEN) and attribute.endswith(PARAMETER_CLOSE):
            found[ref.owner].add(ref.target)
    return {owner: frozenset(names) for owner, names in sorted(found.items())}


def families(owners: Iterable[str]) -> dict[str, list[str]]:
    """Each parameter owner -> the owners of its family, itself included (`family`), for families of MIN_FAMILY
    or more."""
    found: dict[tuple[str, str, str], list[str]] = defaultdict(list)
    for owner in sorted(owners):
        if key := family(owner):
            found[key].append(owner)
    return {owner: members for members in found.values() if len(members) >= MIN_FAMILY for owner in members}


def telling(used: Iterable[str]) -> list[str]:
    """The names among `used` that say what a value is, sorted: not a dunder (any container has `__getitem__`) nor a
    method of a builtin type (`get`, `append`: a dict's, a list's) or of the standard library's files (`read`, `seek`:
    a parameter named `stream` is most often one, whatever stream class the project has)."""
    return sorted(name for name in used if not is_dunder(name) and name not in BUILTIN_METHODS | FILE_METHODS)


def family(owner: str) -> tuple[str, str, str] | None:
    """(where the function is defined, its name's prefix, the parameter's name) for a function named `prefix_rest`
    (`mod.Parser`, `p_`, `p` for `mod.Parser.p_rule@(p#0)`); None for a name with no such prefix."""
    holder, _, attribute = owner.rpartition(ATTRIBUTE_MARK)
    where, _, function = holder.rpartition(".")
    prefix, underscore, rest = function.partition("_")
    if not prefix or not underscore or not rest:
        return None
    return where, f"{prefix}_", parameter_parts(attribute)[0]


def is_dunder(name: str) -> bool:
    return len(name) > 4 and name.startswith("__") and name.endswith("__")
