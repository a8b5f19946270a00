"""The readers of `facts`: one per form a setting is written in (configuration lines, JSON, code constants, front
matter, prose sentences, table rows). Each reads a chunk's text line by line and keeps only unmistakable forms."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator

from trident.retrieval.facts import NAME, Fact, make_fact
from trident.retrieval.facts_values import Value
from trident.retrieval.source_kinds import SourceKind
from trident.store.schema import Chunk

_YAML = re.compile(r"^(\s*)([A-Za-z_][\w.-]*)\s*:(?:\s+(.*?))?\s*$")
_ASSIGN = re.compile(r"^(\s*)(?:export\s+)?([A-Za-z_][\w.-]*)\s*[=:]\s*(.*?)\s*$")
_SECTION = re.compile(r"^\s*\[+\s*([\w.\- \"]+?)\s*\]+\s*$")
_JSON = re.compile(r'^(\s*)"([A-Za-z_][\w.-]*)"\s*:\s*(.*?)\s*,?\s*$')
_COMMENT = re.compile(r"\s+[#;].*$")

_PYTHON_CONSTANT = re.compile(r"^(_?[A-Z][A-Z0-9_]*[A-Z0-9])\s*(?::\s*[\w\[\]., |]+)?=\s*([^=].*?)\s*(?:#.*)?$")
_JS_CONSTANT = re.compile(
    r"^(?:export\s+)?(?:const|let|var)\s+([A-Z][A-Z0-9_]*[A-Z0-9])\s*(?::\s*[\w<>\[\]| ]+)?=\s*(.+?);?\s*(?://.*)?$"
)
_GO_CONSTANT = re.compile(r"^\s*(?:const\s+)?([A-Za-z]\w*)\s*(?:[\w.]+\s*)?=\s*(.+?)\s*(?://.*)?$")
_RUST_CONSTANT = re.compile(r"^\s*(?:pub(?:\([\w:]+\))?\s+)?(?:const|static)\s+([A-Z][A-Z0-9_]*)\s*:[^=]+=\s*(.+?);")
# In code a bare word is another name (`ALL = futures.ALL`), not a value: only quoted, numeric and boolean literals.
_CODE_LITERAL = re.compile(r"^(?:[\"'].*[\"']|[-+]?\d.*|true|false|True|False)$")
_JAVA_CONSTANT = re.compile(r"\bstatic\s+final\s+[\w<>]+\s+([A-Z][A-Z0-9_]*)\s*=\s*(.+?);")

_KEY = r"(?P<key>`[A-Za-z_][\w.]*`|[A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*){0,2})"
_VALUE = r"(?P<value>`[^`]{1,40}`|[-+]?\d[\d_,]*(?:\.\d+)?(?:\s*(?:%|[A-Za-z]+\b))?|true\b|false\b)"
_PROSE = (
    re.compile(rf"(?<![\w`-]){_KEY}\s+defaults\s+to\s+{_VALUE}", re.IGNORECASE),
    re.compile(rf"\bthe\s+(?P<mod>default|maximum|minimum|max|min)\s+{_KEY}\s+(?:is|of)\s+{_VALUE}", re.IGNORECASE),
    re.compile(rf"(?<![\w`-]){_KEY}\s+is\s+(?:set\s+to\s+)?{_VALUE}\s+by\s+default\b", re.IGNORECASE),
)
_LIST_ITEM = re.compile(r"^\s*[-*]\s+(?:\*\*|`)([A-Za-z_][\w. -]*?)(?:\*\*|`)\s*:\s*(.+?)\s*$")
_ROW = re.compile(r"^\s*\|(.+)\|\s*$")
_RULE = re.compile(r"^\s*\|?\s*:?-{3,}")
_FENCE = re.compile(r"^\s*(```|~~~)")


def facts_of(chunk: Chunk, kind: SourceKind) -> list[Fact]:
    """The facts a chunk states, read by the rules of its kind of source (passages and knowledge: none, they
    describe many subjects in one voice)."""
    if kind is SourceKind.CONFIG:
        suffix = posixpath.splitext(chunk.path.lower())[1]
        found = json_facts(chunk) if suffix == ".json" else assignment_facts(chunk)
    elif kind is SourceKind.CODE:
        found = constant_facts(chunk)
    elif kind is SourceKind.DOC:
        found = front_matter_facts(chunk) + prose_facts(chunk) + table_facts(chunk)
    else:
        found = []
    return _one_value_per_key(found)


def _one_value_per_key(found: list[Fact]) -> list[Fact]:
    """A chunk that gives one key two values speaks of two things under one name: neither is taken."""
    values: dict[str, set[Value]] = {}
    for fact in found:
        values.setdefault(fact.key, set()).add(fact.value)
    seen: set[str] = set()
    kept = []
    for fact in found:
        if len(values[fact.key]) == 1 and fact.key not in seen:
            seen.add(fact.key)
            kept.append(fact)
    return kept


def _lines(chunk: Chunk) -> Iterator[tuple[int, str]]:
    for offset, line in enumerate(chunk.text.splitlines()):
        yield chunk.start_line + offset, line


def assignment_facts(chunk: Chunk) -> list[Fact]:
    """YAML `key: value` (qualified by the parent key), TOML/ini `key = value` (by the section), .env `KEY=value`.
    Lines whose parent or section lies before the chunk are left out: which setting they are is not known."""
    yaml = chunk.path.lower().endswith((".yaml", ".yml"))
    facts: list[Fact] = []
    parents: list[tuple[int, str]] = []  # (indent, key) of the open YAML mappings
    section: str | None = "" if chunk.start_line == 1 else None
    for number, line in _lines(chunk):
        if not line.strip() or line.lstrip().startswith(("#", ";", "-")):
            continue
        header = None if yaml else _SECTION.match(line)
        if header is not None:
            section = header.group(1).strip('" ').rsplit(".", 1)[-1]
            continue
        found = (_YAML if yaml else _ASSIGN).match(line)
        if found is None:
            continue
        indent, key, raw = len(found.group(1)), found.group(2), _COMMENT.sub("", found.group(3) or "")
        while parents and parents[-1][0] >= indent:
            parents.pop()
        if yaml and not raw:
            parents.append((indent, key))
            continue
        known = (parents[-1][1] if parents else "") if yaml else section
        if known is None or (yaml and indent and not parents and chunk.start_line > 1):
            continue
        fact = make_fact(key, raw, number, qualifier=known)
        if fact is not None:
            facts.append(fact)
    return facts


def json_facts(chunk: Chunk) -> list[Fact]:
    """`"key": literal` lines of pretty-printed JSON, qualified by the enclosing object's key."""
    facts: list[Fact] = []
    parents: list[tuple[int, str]] = []
    for number, line in _lines(chunk):
        found = _JSON.match(line)
        if found is None:
            continue
        indent, key, raw = len(found.group(1)), found.group(2), found.group(3)
        while parents and parents[-1][0] >= indent:
            parents.pop()
        if raw.startswith(("{", "[")):
            parents.append((indent, key))
            continue
        fact = make_fact(key, raw, number, qualifier=parents[-1][1] if parents else "")
        if fact is not None:
            facts.append(fact)
    return facts


def constant_facts(chunk: Chunk) -> list[Fact]:
    """Module-level constants: Python and JS/TS `UPPER_CASE = literal` at the margin, Go `const`, Rust
    `const`/`static`, Java-like `static final`."""
    language = (chunk.language or "").lower()
    facts: list[Fact] = []
    in_go_block = False
    for number, line in _lines(chunk):
        found: re.Match[str] | None = None
        if language == "python":
            found = _PYTHON_CONSTANT.match(line)
        elif language in ("javascript", "typescript", "tsx"):
            found = _JS_CONSTANT.match(line)
        elif language == "go":
            if line.startswith("const ("):
                in_go_block = True
                continue
            if in_go_block and line.startswith(")"):
                in_go_block = False
            if in_go_block or line.startswith("const "):
                found = _GO_CONSTANT.match(line)
        elif language == "rust":
            found = _RUST_CONSTANT.match(line)
        elif language in ("java", "kotlin", "csharp"):
            found = _JAVA_CONSTANT.search(line)
        literal = found is not None and _CODE_LITERAL.match(found.group(2)) is not None
        fact = make_fact(found.group(1), found.group(2), number) if found is not None and literal else None
        if fact is not None:
            facts.append(fact)
    return facts


def front_matter_facts(chunk: Chunk) -> list[Fact]:
    """A markdown file's front matter (`---` lines at its top): its top-level `key: value` lines."""
    lines = chunk.text.splitlines()
    if chunk.start_line != 1 or not lines or lines[0].strip() != "---":
        return []
    facts = []
    for offset, line in enumerate(lines[1:], start=2):
        if line.strip() == "---":
            break
        found = _YAML.match(line)
        if found is not None and not found.group(1) and found.group(3):
            fact = make_fact(found.group(2), _COMMENT.sub("", found.group(3)), offset)
            if fact is not None:
                facts.append(fact)
    return facts


def prose_lines(chunk: Chunk) -> Iterator[tuple[int, str]]:
    """The chunk's lines outside fenced code blocks."""
    fenced = False
    for number, line in _lines(chunk):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            yield number, line


def prose_facts(chunk: Chunk) -> list[Fact]:
    """ "X defaults to N", "the default/maximum/minimum X is N", "X is N by default", and list items
    "- **X**: N" / "- `X`: N"."""
    facts: list[Fact] = []
    for number, line in prose_lines(chunk):
        for pattern in _PROSE:
            for found in pattern.finditer(line):
                modifier = found.groupdict().get("mod") or ""
                key = found.group("key").strip("`")
                fact = make_fact(key, found.group("value"), number, qualifier=modifier)
                if fact is not None:
                    facts.append(fact)
        item = _LIST_ITEM.match(line)
        if item is not None and NAME.match(item.group(1)):
            fact = make_fact(item.group(1), item.group(2).rstrip("."), number)
            if fact is not None:
                facts.append(fact)
    return facts


def table_facts(chunk: Chunk) -> list[Fact]:
    """Rows of a markdown table whose first column names a setting: the value from the column headed "default"
    (or "value", "limit"), or from the second of a two-column table."""
    facts: list[Fact] = []
    header: list[str] | None = None
    column: int | None = None
    previous: list[str] | None = None
    for number, line in prose_lines(chunk):
        row = _ROW.match(line)
        if row is None:
            header, column, previous = None, None, None
            continue
        cells = [cell.strip() for cell in row.group(1).split("|")]
        if _RULE.match(line):
            header, column = previous, _value_column(previous)
            continue
        previous = cells
        if header is None or column is None or column >= len(cells):
            continue
        name = cells[0].strip("*` ")
        if NAME.match(name):
            fact = make_fact(name, cells[column].strip("*"), number)
            if fact is not None:
                facts.append(fact)
    return facts


def _value_column(header: list[str] | None) -> int | None:
    if header is None or len(header) < 2:
        return None
    titles = [cell.strip("*` ").lower() for cell in header]
    for wanted in ("default", "value", "limit"):
        if wanted in titles[1:]:
            return titles.index(wanted, 1)
    return 1 if len(header) == 2 else None
