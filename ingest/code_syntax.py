"""Reading names out of tree-sitter nodes: identifiers, base classes, import targets."""

from __future__ import annotations

import posixpath
import re

import tree_sitter as ts


def node_text(node: ts.Node | None) -> str:
    return node.text.decode("utf-8", "replace") if node is not None and node.text is not None else ""


def last_identifier(node: ts.Node | None) -> str:
    """The name a call is made by: `self.gateway.charge` -> `charge`, `new Foo<T>()` -> `Foo`."""
    while node is not None and node.named_child_count:
        if node.type in ("generic_type", "generic_function", "type_arguments"):
            node = node.named_children[0]
            continue
        if node.type in ("arguments", "argument_list"):
            return ""
        node = node.named_children[-1]
    name = node_text(node)
    return name if re.fullmatch(r"[A-Za-z_$][\w$]*", name) else ""


def base_names(node: ts.Node) -> list[str]:
    """Names a class extends or implements, as written (last identifier of each)."""
    names: list[str] = []
    for field_name in ("superclasses", "superclass", "interfaces"):
        holder = node.child_by_field_name(field_name)
        if holder is not None:
            targets = holder.named_children or [holder]
            names.extend(last_identifier(t) for t in targets)
    for child in node.named_children:
        if child.type in (
            "class_heritage",
            "extends_clause",
            "implements_clause",
            "super_interfaces",
            "extends_interfaces",
        ):
            stack = list(child.named_children)
            while stack:
                item = stack.pop(0)
                if item.type in ("identifier", "type_identifier", "member_expression", "scoped_type_identifier"):
                    names.append(last_identifier(item) if item.named_child_count else node_text(item))
                elif item.type not in ("type_arguments",):
                    stack.extend(item.named_children)
    return [n for n in dict.fromkeys(names) if n and n != "object"]


def import_targets(node: ts.Node, language: str, path: str, module_q: str) -> list[str]:
    """Modules an import names, relative ones made absolute (Python dots, JS ./ paths)."""
    lang = language
    if lang == "python":
        if node.type == "import_from_statement":
            module = node.child_by_field_name("module_name")
            raw = node_text(module)
            if raw.startswith("."):
                dots = len(raw) - len(raw.lstrip("."))
                base = module_q.split(".")
                base = base[: len(base) - dots] if not path.endswith("__init__.py") else base[: len(base) - dots + 1]
                rest = raw.lstrip(".")
                return [".".join([*base, rest] if rest else base)] if base or rest else []
            return [raw] if raw else []
        return [node_text(c) for c in node.named_children if c.type in ("dotted_name", "aliased_import")]
    if lang in ("javascript", "typescript", "tsx"):
        source = node_text(node.child_by_field_name("source")).strip("'\"`")
        if source.startswith("."):
            return [posixpath.normpath(posixpath.join(posixpath.dirname(path), source))]
        return [source] if source else []
    if lang == "go":
        return [node_text(node.child_by_field_name("path")).strip('"`')]
    if lang == "rust":
        arg = node_text(node.child_by_field_name("argument")).replace("crate::", "").split("::{")[0]
        return [arg.replace("::", ".")] if arg else []
    return [node_text(c) for c in node.named_children if c.type in ("scoped_identifier", "identifier")][:1]
