"""Shell (bash): functions (`f() { ... }`, `function f { ... }`), the comment above one as its description, `source`d
and `.`-read files as imports (a literal path from the file's folder; `"$DIR/lib.sh"` as the path after the last
expansion, from the file's folder too, where scripts keep their helpers).

Calls are commands (`scope_rules`): a command naming a function the file defines is a call of it (`exact`); any
other command is named as written — a guess kept only where one function of the project has the name (a function
of a sourced file), labelled `name`; a command held in a variable (`$cb 1`) names nothing."""

from __future__ import annotations

import posixpath

import tree_sitter as ts

from trident.ingest.languages import LanguageSpec, node_text
from trident.ingest.languages.rules_binder import rules_binder
from trident.ingest.languages.scope_rules import ScopeRules
from trident.store.names.code_paths import module_name

FUNCTIONS = frozenset({"function_definition"})
_SOURCES = frozenset({"source", "."})
_LITERAL = frozenset({"word", "string_content"})


def _grammar() -> object:
    import tree_sitter_bash

    return tree_sitter_bash.language()


def command_word(callee: ts.Node) -> str:
    """The word a command runs (`usage`, `log_msg`); "" for one built from an expansion (`$cb`)."""
    words = callee.named_children
    return node_text(words[0]) if len(words) == 1 and words[0].type == "word" else ""


def _split(node: ts.Node, callee: ts.Node) -> tuple[ts.Node | None, str] | None:
    word = command_word(callee)
    return (None, word) if word and word not in _SOURCES else None


def _callee(node: ts.Node, self_type: str) -> str:
    return command_word(node)


RULES = ScopeRules(
    types=frozenset(),
    functions=FUNCTIONS,
    split=_split,
)


def read_imports(node: ts.Node, path: str, module: str) -> list[str]:
    """`source ./lib/util.sh`, `. "$DIR/lib/util.sh"`, `. $(dirname $0)/lib/util.sh` in `bin/run.sh` -> bin.lib.util
    (the path after the last expansion, from the file's folder)."""
    name = node.child_by_field_name("name")
    if name is None or command_word(name) not in _SOURCES:
        return []
    argument = node.child_by_field_name("argument")
    if argument is None:
        return []
    if argument.type == "word":
        written = node_text(argument)
    elif argument.type in ("string", "concatenation"):  # `"$DIR/lib.sh"`, `$(dirname $0)/lib/probe.sh`
        parts = argument.named_children
        after = [i for i, p in enumerate(parts) if p.type not in _LITERAL]
        tail = parts[after[-1] + 1 :] if after else parts
        written = "".join(node_text(p) for p in tail).lstrip("/")
    else:
        return []
    if not written or "$" in written:
        return []
    return [module_name(posixpath.normpath(posixpath.join(posixpath.dirname(path), written)))]


SPECS = {
    "bash": LanguageSpec(
        name="bash",
        grammar=_grammar,
        classes=frozenset(),
        functions=FUNCTIONS,
        calls={"command": "name"},
        imports=frozenset({"command"}),
        read_imports=read_imports,
        read_callee=_callee,
        bind=rules_binder(RULES),
    )
}
