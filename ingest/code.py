"""Code: chunks at symbol boundaries, and modules, classes, functions and methods with their relations."""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field

import tree_sitter as ts
from trident.ingest.code_syntax import base_names, import_targets, last_identifier, node_text
from trident.ingest.languages import SPECS, SUPPORTED_LANGUAGES, LanguageSpec, parser_for
from trident.ingest.model import Extraction, Reference
from trident.ingest.text import group_blocks, paragraphs
from trident.ingest.tokens import CHUNK_TOKEN_BUDGET, estimate_tokens, split_lines_by_budget
from trident.store.schema import Chunk, DocumentKind, Entity, EntityType, Relation, RelationType, chunk_id, entity_id

__all__ = ["SUPPORTED_LANGUAGES", "module_name", "parse_code"]

DESCRIPTION_CHARS = 300
CALL_TARGETS = ("Function", "Method", "Class")
_STRIP_COMMENT = re.compile(r"^\s*(///?|/\*\*?|\*/?|#)\s?")


def module_name(path: str) -> str:
    """`billing/orders.py` -> `billing.orders`; a package's `__init__.py` names the package."""
    root, _ = posixpath.splitext(path)
    if root.endswith("/__init__"):
        root = root[: -len("/__init__")]
    return root.replace("/", ".")


@dataclass
class _Symbol:
    entity: Entity
    start: int  # 0-based first line, including decorators and doc comments
    end: int  # 0-based last line
    methods: list[_Symbol] = field(default_factory=list)


@dataclass
class _State:
    spec: LanguageSpec
    project: str
    path: str
    doc_id: str
    tenant: str
    module_q: str
    module_id: str
    top: list[_Symbol] = field(default_factory=list)
    calls: list[tuple[str, str, int]] = field(default_factory=list)  # (caller id, callee name, line)
    imports: list[tuple[str, int]] = field(default_factory=list)
    inherits: list[tuple[str, str, int]] = field(default_factory=list)
    contains: list[tuple[str, str, str, int]] = field(default_factory=list)  # (parent, type, child, line)


def _name(node: ts.Node) -> str:
    named = node.child_by_field_name("name")
    return node_text(named) if named is not None else ""


def _doc_start(node: ts.Node, spec: LanguageSpec) -> int:
    """First line of the comments directly above a definition (they belong to its chunk)."""
    start = node.start_point.row
    prev = node.prev_named_sibling
    while prev is not None and prev.type in spec.comments and prev.end_point.row >= start - 1:
        start = prev.start_point.row
        prev = prev.prev_named_sibling
    return start


def _description(node: ts.Node, outer: ts.Node, spec: LanguageSpec) -> str:
    body = node.child_by_field_name("body")
    if spec.name == "python" and body is not None and body.named_child_count:
        first = body.named_children[0]
        if first.type == "expression_statement" and first.named_children and first.named_children[0].type == "string":
            raw = node_text(first.named_children[0]).strip("\"' \n\r\t")
            return raw.split("\n\n")[0].strip()[:DESCRIPTION_CHARS]
    lines: list[str] = []
    prev = outer.prev_named_sibling
    row = outer.start_point.row
    while prev is not None and prev.type in spec.comments and prev.end_point.row >= row - 1:
        lines = [*node_text(prev).splitlines(), *lines]
        row = prev.start_point.row
        prev = prev.prev_named_sibling
    cleaned = " ".join(_STRIP_COMMENT.sub("", line).strip() for line in lines).strip()
    return cleaned[:DESCRIPTION_CHARS]


def _entity(state: _State, etype: str, local_q: str, name: str, description: str) -> Entity:
    aliases = (local_q,) if local_q != name else ()
    return Entity(
        id=entity_id(etype, state.project, f"{state.module_q}.{local_q}"),
        name=name,
        type=etype,
        project=state.project,
        qualified_name=f"{state.module_q}.{local_q}",
        aliases=aliases,
        description=description,
        doc_id=state.doc_id,
        path=state.path,
        tenant=state.tenant,
    )


def _go_receiver(node: ts.Node) -> str:
    receiver = node.child_by_field_name("receiver")
    stack = [receiver] if receiver is not None else []
    while stack:
        current = stack.pop(0)
        if current.type == "type_identifier":
            return node_text(current)
        stack.extend(current.named_children)
    return ""


def _function_value(node: ts.Node) -> tuple[str, ts.Node] | None:
    """`const f = (...) => ...` / `= function ...` at the top of a JS/TS file is a function named f."""
    for declarator in node.named_children:
        value = declarator.child_by_field_name("value")
        if (
            declarator.type == "variable_declarator"
            and value is not None
            and value.type in ("arrow_function", "function_expression", "function")
        ):
            return _name(declarator), value
    return None


def _visit(node: ts.Node, state: _State, scope: str, owner: _Symbol | None, class_name: str, in_function: bool) -> None:
    spec = state.spec
    for child in node.named_children:
        target, outer = child, child
        while target.type in spec.wrappers and target.named_children:
            inner = [c for c in target.named_children if c.type not in ("decorator", *spec.comments)]
            if not inner:
                break
            target = inner[-1] if spec.name != "go" else inner[0]
        if spec.name == "go" and outer.type == "type_declaration":
            outer = child
        kind = _kind(target, spec)
        if kind == "variable_function" and not in_function and not class_name:
            found = _function_value(target)
            if found:
                _define(found[1], outer, state, "function", found[0], owner, "", scope, in_function)
                continue
        if kind in ("class", "function") and not in_function:
            name = _name(target)
            receiver = _go_receiver(target) if target.type == "method_declaration" else ""
            _define(target, outer, state, kind, name, owner, receiver or class_name, scope, in_function)
            continue
        if kind == "impl" and not in_function:
            type_name = last_identifier(target.child_by_field_name("type"))
            trait = last_identifier(target.child_by_field_name("trait"))
            if trait and type_name:
                state.inherits.append(
                    (
                        entity_id(EntityType.CLASS, state.project, f"{state.module_q}.{type_name}"),
                        trait,
                        target.start_point.row,
                    )
                )
            _visit(target, state, scope, None, type_name, in_function)
            continue
        _record(child, state, scope)
        _visit(child, state, scope, owner, class_name, in_function)


def _kind(node: ts.Node, spec: LanguageSpec) -> str | None:
    if node.type in spec.classes:
        return "class"
    if node.type in spec.functions:
        return "function"
    if node.type in spec.impls:
        return "impl"
    if node.type in spec.variable_functions:
        return "variable_function"
    return None


def _define(
    node: ts.Node,
    outer: ts.Node,
    state: _State,
    kind: str,
    name: str,
    owner: _Symbol | None,
    class_name: str,
    scope: str,
    in_function: bool,
) -> None:
    spec = state.spec
    if not name:
        _visit(node, state, scope, owner, class_name, in_function)
        return
    description = _description(node, outer, spec)
    start, end = _doc_start(outer, spec), outer.end_point.row
    if kind == "class":
        entity = _entity(state, EntityType.CLASS, name, name, description)
        symbol = _Symbol(entity, start, end)
        for base in base_names(node):
            state.inherits.append((entity.id, base, node.start_point.row))
        _attach(state, symbol, owner, RelationType.DEFINES)
        _visit(node, state, entity.id, symbol, name, False)
        return
    etype = EntityType.METHOD if class_name else EntityType.FUNCTION
    local_q = f"{class_name}.{name}" if class_name else name
    entity = _entity(state, etype, local_q, name, description)
    symbol = _Symbol(entity, start, end)
    if class_name and owner is None:
        # Go and Rust define methods away from their type: hang them on the type's entity by id.
        class_id = entity_id(EntityType.CLASS, state.project, f"{state.module_q}.{class_name}")
        state.contains.append((class_id, RelationType.CONTAINS, entity.id, start))
        state.top.append(symbol)
    else:
        _attach(state, symbol, owner, RelationType.DEFINES)
    _visit(node, state, entity.id, symbol, "", True)


def _attach(state: _State, symbol: _Symbol, owner: _Symbol | None, top_relation: str) -> None:
    if owner is None:
        state.top.append(symbol)
        state.contains.append((state.module_id, top_relation, symbol.entity.id, symbol.start))
    else:
        owner.methods.append(symbol)
        state.contains.append((owner.entity.id, RelationType.CONTAINS, symbol.entity.id, symbol.start))


def _record(node: ts.Node, state: _State, scope: str) -> None:
    spec = state.spec
    if node.type in spec.calls:
        callee = last_identifier(node.child_by_field_name(spec.calls[node.type]))
        if callee and callee not in spec.skip_calls:
            state.calls.append((scope, callee, node.start_point.row))
    elif node.type in spec.imports:
        for target in import_targets(node, state.spec.name, state.path, state.module_q):
            state.imports.append((target, node.start_point.row))


def _spans(symbols: list[_Symbol], lines: list[str]) -> list[tuple[range, str, list[_Symbol]]]:
    """(0-based line range, title, symbols defined) for each chunk of the file, in line order."""
    out: list[tuple[range, str, list[_Symbol]]] = []
    for symbol in symbols:
        text = "\n".join(lines[symbol.start : symbol.end + 1])
        title = symbol.entity.aliases[0] if symbol.entity.aliases else symbol.entity.name
        if estimate_tokens(text) <= CHUNK_TOKEN_BUDGET:
            out.append((range(symbol.start, symbol.end + 1), title, [symbol, *symbol.methods]))
            continue
        methods = sorted(symbol.methods, key=lambda m: m.start)
        header_end = methods[0].start if methods else symbol.end + 1
        out.extend(_split(range(symbol.start, header_end), lines, title, [symbol]))
        for method in methods:
            m_title = method.entity.aliases[0] if method.entity.aliases else method.entity.name
            out.extend(_split(range(method.start, method.end + 1), lines, m_title, [method]))
    return out


def _split(span: range, lines: list[str], title: str, symbols: list[_Symbol]) -> list[tuple[range, str, list[_Symbol]]]:
    windows = split_lines_by_budget(lines[span.start : span.stop])
    return [
        (range(span.start + w.start, span.start + w.stop), title, symbols if i == 0 else [])
        for i, w in enumerate(windows)
    ]


def parse_code(project: str, path: str, text: str, language: str, doc_id: str, tenant: str = "default") -> Extraction:
    """Chunks at symbol boundaries plus the file's entities, its in-file relations and references to resolve."""
    if not text.strip():
        return Extraction()
    spec = SPECS[language]
    tree = parser_for(language).parse(text.encode("utf-8"))
    module_q = module_name(path)
    module = Entity(
        id=entity_id(EntityType.MODULE, project, module_q),
        name=module_q.rsplit(".", 1)[-1],
        type=EntityType.MODULE,
        project=project,
        qualified_name=module_q,
        aliases=(path,),
        doc_id=doc_id,
        path=path,
        tenant=tenant,
    )
    state = _State(spec, project, path, doc_id, tenant, module_q, module.id)
    _visit(tree.root_node, state, module.id, None, "", False)
    lines = text.splitlines()
    symbols = sorted(state.top, key=lambda s: s.start)
    pieces = _spans(symbols, lines)
    covered = sorted((p[0] for p in pieces), key=lambda r: r.start)
    gaps, cursor = [], 0
    for span in [*covered, range(len(lines), len(lines))]:
        if span.start > cursor:
            gaps.append(range(cursor, span.start))
        cursor = max(cursor, span.stop)
    for gap in gaps:
        local = lines[gap.start : gap.stop]
        for block in group_blocks(local, paragraphs(local)):
            pieces.append((range(gap.start + block.start, gap.start + block.stop), module_q, []))
    pieces.sort(key=lambda p: (p[0].start, p[0].stop))
    chunks: list[Chunk] = []
    chunk_of: dict[str, str] = {}
    for ordinal, (span, title, defined) in enumerate(pieces):
        start, end = span.start + 1, span.stop
        cid = chunk_id(project, path, start, end, ordinal)
        names = tuple(dict.fromkeys(n for s in defined for n in (s.entity.name, *s.entity.aliases)))
        chunks.append(
            Chunk(
                id=cid,
                doc_id=doc_id,
                project=project,
                path=path,
                text="\n".join(lines[span.start : span.stop]),
                start_line=start,
                end_line=end,
                kind=DocumentKind.CODE,
                language=language,
                title=title,
                symbols=names,
                tenant=tenant,
            )
        )
        for s in defined:
            chunk_of.setdefault(s.entity.id, cid)
    if not chunks:
        return Extraction()

    def chunk_at(row: int) -> str:
        containing = [c for c in chunks if c.start_line <= row + 1 <= c.end_line]
        return (min(containing, key=lambda c: c.end_line - c.start_line) if containing else chunks[0]).id

    all_symbols = [s for top in symbols for s in (top, *top.methods)]
    entities = [module.model_copy(update={"chunk_id": chunks[0].id})]
    entities += [
        s.entity.model_copy(update={"chunk_id": chunk_of.get(s.entity.id, chunk_at(s.start))}) for s in all_symbols
    ]
    known = {e.id for e in entities}
    relations = [
        Relation(
            source=parent,
            type=rtype,
            target=child,
            evidence=chunk_at(row),
            project=project,
            doc_id=doc_id,
            tenant=tenant,
        )
        for parent, rtype, child, row in state.contains
        if parent in known and child in known
    ]
    references = [
        Reference(module.id, RelationType.IMPORTS, t, chunk_at(row), ("Module",)) for t, row in state.imports if t
    ]
    seen: set[tuple[str, str]] = set()
    for caller, callee, row in state.calls:
        if (caller, callee) not in seen:
            seen.add((caller, callee))
            references.append(Reference(caller, RelationType.CALLS, callee, chunk_at(row), CALL_TARGETS))
    references += [
        Reference(cls, RelationType.INHERITS, base, chunk_at(row), ("Class",))
        for cls, base, row in state.inherits
        if cls in known
    ]
    return Extraction(chunks=chunks, entities=entities, relations=relations, references=references)
