"""Code: chunks at symbol boundaries, and modules, classes, functions and methods with their relations.

One walk over the tree-sitter tree builds an outline (the definitions, nested as in the source) and collects
raw calls, imports and base types by row; the outline is then laid out into chunks, and only at the end are
names turned into entity ids and rows into the chunks that show them.
"""

from __future__ import annotations

import functools
import itertools
import logging
import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass, replace

import tree_sitter as ts

from trident.ingest.chunk_tokens import CHUNK_TOKEN_BUDGET, estimate_tokens, split_lines_by_budget
from trident.ingest.languages import SUPPORTED_LANGUAGES, LanguageSpec, parser_for, spec_for
from trident.ingest.languages.binding import Bindings, BoundAttribute, Target
from trident.ingest.languages.outline import Outline, Symbol, docstring
from trident.ingest.model import IMPORTS_ALL_MARK, PASSES, TABLE_MARK, Extraction, Reference
from trident.ingest.text import group_blocks, paragraphs
from trident.store.names.code_paths import HEADER_SUFFIXES, module_name, module_short_name
from trident.store.schema import (
    Chunk,
    DocumentKind,
    Entity,
    EntityType,
    Relation,
    RelationType,
    Resolution,
    chunk_id,
    entity_id,
)

__all__ = ["SUPPORTED_LANGUAGES", "parse_code"]

CALL_TARGETS = ("Function", "Method", "Class")
REFERENCE_TARGETS = ("Class", "Function", "Method")  # what a value passed on to be called or constructed can be
CLASS = ("Class",)  # what a base, a stated return or a held value is
HELD_TARGETS = ("Class", "Function", "Method")  # what an attribute holds: an instance of a class, or what a call gives
_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # universal newlines, the rule of text.source_lines
# A line of closing brackets, or PHP's `<?php` / `?>` tags alone, says nothing worth a chunk.
_TRIVIAL = re.compile(r"(?:<\?php|<\?=?|\?>|[\s{}()\[\];,])*")

log = logging.getLogger(__name__)


@functools.cache  # asked again for every entity of a file, every run
@dataclass(frozen=True)
class _Piece:
    rows: range
    title: str
    symbols: tuple[Symbol, ...] = ()


def _cost(lines: list[str], rows: range) -> int:
    return estimate_tokens("\n".join(lines[rows.start : rows.stop]))


def _trim(lines: list[str], rows: range) -> range:
    start, stop = rows.start, rows.stop
    while start < stop and not lines[start].strip():
        start += 1
    while stop > start and not lines[stop - 1].strip():
        stop -= 1
    return range(start, stop)


def _split(lines: list[str], rows: range, title: str, symbols: tuple[Symbol, ...]) -> list[_Piece]:
    """Pieces within budget that overlap a little; they share the title and what they define."""
    windows = split_lines_by_budget(lines[rows.start : rows.stop])
    return [_Piece(r, title, symbols) for r in _distinct(lines, rows.start, windows)]


def _distinct(lines: list[str], offset: int, windows: list[range]) -> list[range]:
    """Windows shifted by `offset` and trimmed of blank edges, minus any the window before already holds.

    Before an overlong line the splitter steps back by its overlap, which leaves such nested windows.
    """
    kept: list[range] = []
    for window in windows:
        rows = _trim(lines, range(offset + window.start, offset + window.stop))
        if rows and not (kept and rows.stop <= kept[-1].stop):
            kept.append(rows)
    return kept


def _loose(lines: list[str], rows: list[int], title: str) -> list[_Piece]:
    """Code outside any definition: runs of consecutive rows, paragraphs grouped up to the budget."""
    pieces: list[_Piece] = []
    runs: list[range] = []
    for row in rows:
        if runs and runs[-1].stop == row:
            runs[-1] = range(runs[-1].start, row + 1)
        else:
            runs.append(range(row, row + 1))
    for run in runs:
        local = lines[run.start : run.stop]
        blocks = [b for b in paragraphs(local) if not all(_TRIVIAL.fullmatch(local[i]) for i in b)]
        pieces += [_Piece(r, title) for r in _distinct(lines, run.start, group_blocks(local, blocks))]
    return pieces


def _clamped(symbols: list[Symbol]) -> list[Symbol]:
    """Siblings in row order, a doc comment never reaching back into the sibling above."""
    ordered = sorted(symbols, key=lambda s: (s.start, s.end))
    for before, after in itertools.pairwise(ordered):
        after.start = min(max(after.start, before.end + 1), after.end)
    return ordered


def _layout(symbol: Symbol, lines: list[str]) -> list[_Piece]:
    """One piece if the symbol fits; else a header, one layout per member, and the body left between."""
    rows = range(symbol.start, symbol.end + 1)
    own = (symbol,) if symbol.kind else ()
    symbol.children = _clamped(symbol.children)
    if _cost(lines, rows) <= CHUNK_TOKEN_BUDGET:
        return [_Piece(rows, symbol.local, tuple(s for s in symbol.walk() if s.kind))]
    if not symbol.children:
        return _split(lines, rows, symbol.local, own)
    first = symbol.children[0].start
    header = _trim(lines, range(symbol.start, first))
    # A container's lone opening line (`impl Checkout for Order {`) says too little to be found by.
    pieces = _split(lines, header, symbol.local, own) if own or len(header) > 1 else []
    covered = {r for child in symbol.children for r in range(child.start, child.end + 1)}
    for child in symbol.children:
        pieces += _layout(child, lines)
    pieces += _loose(lines, [r for r in range(first, symbol.end + 1) if r not in covered], symbol.local)
    if own and pieces and not any(symbol in p.symbols for p in pieces):
        pieces[0] = replace(pieces[0], symbols=(symbol, *pieces[0].symbols))
    return pieces


def _parsed(language: str, path: str, source: bytes) -> tuple[str, bytes, ts.Tree]:
    """The language a file is read as, its source and its tree. Where the whole file does not parse, the other
    readings its language has are tried, and the one with the fewest errors kept: another text of it with the same
    rows (C's one configuration), and, for a header that has its marks, another grammar (a `.h` written in C++)."""
    text = _plain(language, source)
    tree = parser_for(language).parse(text)
    if not tree.root_node.has_error:
        return language, text, tree
    best, fewest = (language, text, tree), _errors(tree)
    header = posixpath.splitext(path)[1].lower() in HEADER_SUFFIXES
    others = [o for o in spec_for(language).alternatives if header and _marked(spec_for(o), source)]
    for other in (language, *others):
        spec = spec_for(other)
        plain = _plain(other, source)
        texts = [plain] if other != language else []
        texts += spec.readings(plain) if spec.readings is not None else []
        for candidate_text in texts:
            candidate = parser_for(other).parse(candidate_text)
            if (errors := _errors(candidate)) < fewest:
                best, fewest = (other, candidate_text, candidate), errors
    return best


def _plain(language: str, source: bytes) -> bytes:
    plain = spec_for(language).plain_text
    return plain(source) if plain is not None else source


def _marked(spec: LanguageSpec, source: bytes) -> bool:
    return spec.marks is not None and spec.marks.search(source) is not None


def _errors(tree: ts.Tree) -> int:
    """The syntax errors tree-sitter recovered from: its ERROR nodes and the tokens it took as missing."""
    count, pending = 0, [tree.root_node]
    while pending:
        node = pending.pop()
        if node.has_error:
            count += node.type == "ERROR" or node.is_missing
            pending.extend(node.children)
    return count


def parse_code(project: str, path: str, text: str, language: str, doc_id: str, tenant: str = "default") -> Extraction:
    """Chunks at symbol boundaries plus the file's entities, its in-file relations and references to resolve.

    Broken syntax still chunks (tree-sitter recovers); an empty file gives its module alone, with no chunk (an empty
    `__init__.py` still makes its folder a package, and so names what the files under it are imported as).

    Raises:
        ValueError: `language` is not one of SUPPORTED_LANGUAGES.
    """
    spec = spec_for(language)
    if not text.strip():
        return _Builder(project, path, doc_id, tenant, language, module_name(path)).bare_module()
    # Lines as an editor numbers them; tree-sitter only breaks rows at "\n", so it parses the normalised text.
    lines = _LINE_BREAK.split(text)
    language, source, tree = _parsed(language, path, "\n".join(lines).encode("utf-8", "replace"))
    spec = spec_for(language)
    module_q = module_name(path)
    outline = Outline(spec, source, path, module_q)
    outline.walk(tree.root_node)
    units = _clamped(outline.units)
    pieces = [p for unit in units for p in _layout(unit, lines)]
    covered = {r for unit in units for r in range(unit.start, unit.end + 1)}
    pieces += _loose(lines, [r for r in range(len(lines)) if r not in covered], module_q)
    pieces.sort(key=lambda p: (p.rows.start, p.rows.stop))
    if not pieces:
        return Extraction()
    build = _Builder(project, path, doc_id, tenant, language, module_q)
    chunks = build.chunks(pieces, lines)
    description = docstring(tree.root_node) if spec.docstrings else ""
    bound = _bindings_of(spec, tree, outline)
    return build.extraction(chunks, [s for u in units for s in u.walk() if s.kind], outline, description, bound)


def bindings(path: str, text: str, language: str) -> Bindings | None:
    """What the binder of a file's language says its calls, bases, returns and fields are, as `parse_code` hands it to
    the indexer (None for a language with no binder): for tools that compare two binders."""
    lines = _LINE_BREAK.split(text)
    language, source, tree = _parsed(language, path, "\n".join(lines).encode("utf-8", "replace"))
    outline = Outline(spec_for(language), source, path, module_name(path))
    outline.walk(tree.root_node)
    return _bindings_of(spec_for(language), tree, outline)


def _bindings_of(spec: LanguageSpec, tree: ts.Tree, outline: Outline) -> Bindings | None:
    """The file bound by its language's binder from what the outline found in it; None (its calls and bases read by
    name, as for a language with no binder) where the binder fails on it: one file the binder cannot read (an
    expression nested deeper than it walks) costs that file's bindings, not the index."""
    if spec.bind is None:
        return None
    try:
        return spec.bind(tree.root_node, outline.path, outline.module, outline.found)
    except Exception as error:  # a fault boundary: any binder failure on one file (RecursionError among them)
        log.warning(
            "%s: the %s binder failed (%s: %s); its calls and bases are read by name",
            outline.path,
            spec.name,
            type(error).__name__,
            error,
        )
        return None


def _held(fact: BoundAttribute) -> tuple[str, ...]:
    """What an attribute's fact may name: a module a module imports every name of (`IMPORTS_ALL_MARK`), else a
    class, function or method (`HELD_TARGETS`)."""
    return ("Module",) if fact.attribute.startswith(IMPORTS_ALL_MARK) else HELD_TARGETS


def _table_names(tables: dict[str, list[str]]) -> list[tuple[str, str]]:
    """(`TABLE[*]`, local name) for each definition a module-level table holds: the name another file calls it by."""
    return [(f"{name}{TABLE_MARK}", local) for name, held in tables.items() for local in held]


class _Builder:
    """Turns the laid-out pieces and the outline into records keyed by stable ids."""

    def __init__(self, project: str, path: str, doc_id: str, tenant: str, language: str, module_q: str) -> None:
        self.project, self.path, self.doc_id, self.tenant = project, path, doc_id, tenant
        self.language, self.module_q = language, module_q
        self.chunk_of: dict[Symbol, str] = {}

    def chunks(self, pieces: list[_Piece], lines: list[str]) -> list[Chunk]:
        out: list[Chunk] = []
        seen: dict[tuple[int, int], int] = {}
        for piece in pieces:
            start, end = piece.rows.start + 1, piece.rows.stop
            ordinal = seen.get((start, end), 0)
            seen[(start, end)] = ordinal + 1
            cid = chunk_id(self.project, self.path, start, end, ordinal)
            for symbol in piece.symbols:
                self.chunk_of.setdefault(symbol, cid)
            out.append(
                Chunk(
                    id=cid,
                    doc_id=self.doc_id,
                    project=self.project,
                    path=self.path,
                    text="\n".join(lines[piece.rows.start : piece.rows.stop]),
                    start_line=start,
                    end_line=end,
                    kind=DocumentKind.CODE,
                    language=self.language,
                    title=piece.title,
                    symbols=tuple(dict.fromkeys(n for s in piece.symbols for n in s.names())),
                    tenant=self.tenant,
                )
            )
        return out

    def _entity(self, etype: str, name: str, qname: str, aliases: tuple[str, ...], description: str) -> Entity:
        return Entity(
            id=entity_id(etype, self.project, qname),
            name=name,
            type=etype,
            project=self.project,
            qualified_name=qname,
            aliases=aliases,
            description=description,
            doc_id=self.doc_id,
            path=self.path,
            tenant=self.tenant,
        )

    def bare_module(self) -> Extraction:
        """The module of a file with nothing in it."""
        name = module_short_name(self.path)
        return Extraction(entities=[self._entity(EntityType.MODULE, name, self.module_q, (self.path,), "")])

    def extraction(
        self, chunks: list[Chunk], symbols: list[Symbol], outline: Outline, doc: str, bound: Bindings | None
    ) -> Extraction:
        """The file's entities and in-file relations, and its references: calls and bases as `bound` (the
        language's binder) describes them, else by the names the outline read."""
        at = _row_locator(chunks)
        module_name_ = module_short_name(self.path)
        module = self._entity(EntityType.MODULE, module_name_, self.module_q, (self.path,), doc)
        entities = {module.id: module.model_copy(update={"chunk_id": chunks[0].id})}
        ids: dict[str, str] = {"": module.id}
        classes: dict[str, str] = {}
        for s in symbols:
            qname = f"{self.module_q}.{s.local}"
            entity = self._entity(s.kind or "", s.name, qname, s.names()[1:], s.description)
            entities.setdefault(entity.id, entity.model_copy(update={"chunk_id": self.chunk_of.get(s, at(s.start))}))
            ids.setdefault(s.local, entity.id)
            if s.kind == EntityType.CLASS:
                classes.setdefault(s.local, entity.id)
        names = [] if bound is None else [*bound.held.items(), *_table_names(bound.tables)]
        for name, local in sorted(names):
            if local in ids:  # a module-level name holding a top-level definition (or a table of them) names it too
                held = entities[ids[local]]
                entities[held.id] = held.model_copy(update={"aliases": (*held.aliases, f"{self.module_q}.{name}")})
        relations = self._containment(symbols, entities, ids, classes)
        refs = _References()
        for target, row in outline.imports:
            if target != self.module_q:
                refs.add(Reference(module.id, RelationType.IMPORTS, target, at(row), ("Module",)))
        if bound is not None:
            _add_bound(refs, bound, ids, classes, entities, module.id, at)
        else:
            for caller, callee, row in outline.calls:
                refs.add(Reference(ids.get(caller, module.id), RelationType.CALLS, callee, at(row), CALL_TARGETS))
            for local, base_name, row in outline.bases:
                if local in classes:
                    refs.add(Reference(classes[local], RelationType.INHERITS, base_name, at(row), ("Class",)))
        return Extraction(chunks, list(entities.values()), relations, refs.all())

    def _containment(
        self, symbols: list[Symbol], entities: dict[str, Entity], ids: dict[str, str], classes: dict[str, str]
    ) -> list[Relation]:
        """The module DEFINES its top-level symbols; a class CONTAINS its members."""
        relations: dict[tuple[str, str, str], Relation] = {}
        for s in symbols:
            target = ids[s.local]
            parent = classes.get(s.owner) if s.owner else None
            source, rtype = (parent, RelationType.CONTAINS) if parent else (ids[""], RelationType.DEFINES)
            relations.setdefault(
                (source, rtype, target),
                Relation(
                    source=source,
                    type=rtype,
                    target=target,
                    evidence=entities[target].chunk_id,
                    project=self.project,
                    doc_id=self.doc_id,
                    tenant=self.tenant,
                ),
            )
        return list(relations.values())


def _passes(bound: Bindings, ids: dict[str, str], module: str, at: Callable[[int], str]) -> list[Reference]:
    """What the file's calls pass the functions they call (`PASSES`): the call's target, with the slot and value."""
    found = []
    for passed in bound.passes:
        called = _bound(ids.get(passed.caller, module), PASSES, passed.target, at(passed.row), CALL_TARGETS)
        found.append(replace(called, passed=(passed.slot, passed.value)))
    return found


def _row_locator(chunks: list[Chunk]) -> Callable[[int], str]:
    """The chunk showing a row: the first that does; for a dropped row (a lone brace), the nearest chunk above it."""
    by_row: dict[int, str] = {}
    for c in chunks:
        for row in range(c.start_line - 1, c.end_line):
            by_row.setdefault(row, c.id)

    def at(row: int) -> str:
        if row in by_row:
            return by_row[row]
        return next((c.id for c in reversed(chunks) if c.start_line - 1 <= row), chunks[0].id)

    return at


class _References:
    """One reference per target from one source, the surest kept (`this.total()` beats `svc.total()`)."""

    def __init__(self) -> None:
        self._refs: dict[tuple[str, ...], Reference] = {}

    def add(self, ref: Reference) -> None:
        key: tuple[str, ...] = (ref.source, ref.type, ref.form, ref.owner, ref.target, str(ref.after_owner))
        key += (str(ref.virtual), *ref.passed)
        kept = self._refs.get(key)
        if kept is None or Resolution(ref.resolution).rank < Resolution(kept.resolution).rank:
            self._refs[key] = ref

    def all(self) -> list[Reference]:
        return list(self._refs.values())


def _add_bound(
    refs: _References,
    bound: Bindings,
    ids: dict[str, str],
    classes: dict[str, str],
    entities: dict[str, Entity],
    module_id: str,
    at: Callable[[int], str],
) -> None:
    """The references a language's binder states for a file: its calls, references, decorations, bases (each with
    its place), stated returns and yields, what calls pass, and what attributes and callbacks hold."""
    for call in bound.calls:
        source = ids.get(call.caller, module_id)
        refs.add(_bound(source, RelationType.CALLS, call.target, at(call.row), CALL_TARGETS))
    for ref in bound.references:
        source = ids.get(ref.caller, module_id)
        refs.add(_bound(source, RelationType.REFERENCES, ref.target, at(ref.row), REFERENCE_TARGETS))
    for decoration in bound.decorations:
        if decoration.caller in ids:
            decorated, evidence = ids[decoration.caller], at(decoration.row)
            refs.add(_bound(decorated, RelationType.DECORATED_BY, decoration.target, evidence, CALL_TARGETS))
    for base in bound.bases:
        if base.owner in classes:
            refs.add(_bound(classes[base.owner], RelationType.INHERITS, base.target, at(base.row), CLASS, base.place))
    for kind, stated in ((RelationType.RETURNS, bound.returns), (RelationType.YIELDS, bound.yields)):
        for returned in stated:
            if returned.owner in ids:
                source = ids[returned.owner]
                refs.add(_bound(source, kind, returned.target, at(returned.row), CLASS))
    for passed in _passes(bound, ids, module_id, at):  # what a call passes a function
        refs.add(passed)
    for fact in bound.holds:  # a class's attribute, or a function's callback's parameter
        if (holder := entities.get(classes.get(fact.owner) or ids.get(fact.owner, ""))) is not None:
            declared = _bound(holder.id, RelationType.HOLDS, fact.target, holder.chunk_id or "", _held(fact))
            refs.add(replace(declared, owner=fact.attribute))


def _bound(
    source: str, rtype: str, target: Target, evidence: str, types: tuple[str, ...], place: int = -1
) -> Reference:
    return Reference(
        source,
        rtype,
        target.name,
        evidence,
        types,
        form=target.form,
        resolution=target.resolution,
        owner=target.owner,
        after_owner=target.after_owner,
        virtual=target.virtual,
        place=place,
    )
