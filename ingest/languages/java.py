"""Java: classes, interfaces, enums and records; methods and constructors; Javadoc as descriptions; calls and
bases bound by scope and stated type (`java_scope`)."""

from __future__ import annotations

import tree_sitter as ts

from trident.ingest.languages import LanguageSpec, node_text, terminal_name
from trident.ingest.languages.java_scope import bind_java


def _grammar() -> object:
    import tree_sitter_java

    return tree_sitter_java.language()


def read_imports(node: ts.Node, path: str, module: str) -> list[str]:
    """`import com.acme.Foo;` -> com.acme.Foo; `import static com.acme.Util.helper;` -> com.acme.Util."""
    name = next((c for c in node.named_children if c.type in ("scoped_identifier", "identifier")), None)
    target = node_text(name)
    is_static = any(c.type == "static" for c in node.children)
    has_wildcard = any(c.type == "asterisk" for c in node.named_children)
    if is_static and not has_wildcard and "." in target:
        target = target.rsplit(".", 1)[0]
    return [target] if target else []


def read_bases(node: ts.Node) -> list[str]:
    """`extends Base<T> implements A, B` on a class, `extends A, B` on an interface."""
    holders = [node.child_by_field_name("superclass"), node.child_by_field_name("interfaces")]
    holders += [c for c in node.named_children if c.type == "extends_interfaces"]
    names: list[str] = []
    for holder in holders:
        for child in holder.named_children if holder is not None else []:
            targets = child.named_children if child.type == "type_list" else [child]
            names.extend(terminal_name(t) for t in targets)
    return [n for n in dict.fromkeys(names) if n]


SPECS = {
    "java": LanguageSpec(
        name="java",
        grammar=_grammar,
        classes=frozenset(
            {
                "class_declaration",
                "interface_declaration",
                "enum_declaration",
                "record_declaration",
                "annotation_type_declaration",
            }
        ),
        methods=frozenset({"method_declaration", "constructor_declaration", "compact_constructor_declaration"}),
        calls={"method_invocation": "name", "object_creation_expression": "type"},
        imports=frozenset({"import_declaration"}),
        comments=frozenset({"line_comment", "block_comment"}),
        read_imports=read_imports,
        read_bases=read_bases,
        binder=bind_java,
    )
}
