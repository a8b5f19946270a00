"""Walking a project folder: .gitignore and default ignores honoured, unreadable files skipped with a reason."""

from __future__ import annotations

import contextlib
import hashlib
import os
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import pathspec
from trident.store.schema import DocumentKind

DEFAULT_IGNORES = (
    ".git/",
    ".hg/",
    ".svn/",
    "node_modules/",
    ".venv/",
    "venv/",
    "env/",
    "__pycache__/",
    "dist/",
    "build/",
    "target/",
    ".mypy_cache/",
    ".pytest_cache/",
    ".ruff_cache/",
    ".tox/",
    ".idea/",
    ".vscode/",
    ".trident/",
    "*.pyc",
    "*.min.js",
    "*.map",
    "package-lock.json",
    "yarn.lock",
    "pnpm-lock.yaml",
    "poetry.lock",
    "Cargo.lock",
    "uv.lock",
    ".DS_Store",
    ".gitignore",
    ".gitattributes",
    ".dockerignore",
    ".editorconfig",
    "go.sum",
)

GRAMMAR_LANGUAGES = {
    ".py": "python",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
    ".go": "go",
    ".rs": "rust",
    ".java": "java",
}
OTHER_CODE = frozenset(
    [
        ".c",
        ".h",
        ".cc",
        ".cpp",
        ".hpp",
        ".cs",
        ".rb",
        ".php",
        ".kt",
        ".kts",
        ".swift",
        ".scala",
        ".sh",
        ".bash",
        ".sql",
        ".lua",
        ".r",
        ".pl",
        ".m",
        ".dart",
        ".ex",
        ".exs",
    ]
)
MARKDOWN = frozenset({".md", ".markdown", ".mdx"})
CONFIG = frozenset({".toml", ".yaml", ".yml", ".json", ".ini", ".cfg"})
CONFIG_NAMES = frozenset({"go.mod", "Gemfile", "requirements.txt", "Pipfile"})
TEXT = frozenset({".txt", ".rst"})
TEXT_NAMES = frozenset({"README", "LICENSE", "Makefile", "Dockerfile", "CHANGELOG", "CONTRIBUTING", "NOTICE"})
BINARY_PROBE_BYTES = 8192


@dataclass(frozen=True)
class SourceFile:
    path: Path
    rel: str
    kind: DocumentKind
    language: str | None
    text: str
    content_hash: str


@dataclass(frozen=True)
class Skipped:
    rel: str
    reason: str


@dataclass
class WalkResult:
    files: list[SourceFile]
    skipped: list[Skipped]


def classify(name: str) -> tuple[DocumentKind, str | None] | None:
    """(kind, grammar language) for a file name, or None when Trident does not read that type."""
    suffix = PurePosixPath(name).suffix.lower()
    if suffix in GRAMMAR_LANGUAGES:
        return DocumentKind.CODE, GRAMMAR_LANGUAGES[suffix]
    if suffix in OTHER_CODE:
        return DocumentKind.CODE, None
    if suffix in MARKDOWN:
        return DocumentKind.MARKDOWN, None
    if suffix in CONFIG or name.rsplit("/", 1)[-1] in CONFIG_NAMES:
        return DocumentKind.CONFIG, None
    if suffix in TEXT or (PurePosixPath(name).stem in TEXT_NAMES and suffix in ("", ".txt")):
        return DocumentKind.TEXT, None
    return None


def _spec(lines: list[str]) -> pathspec.PathSpec:
    return pathspec.GitIgnoreSpec.from_lines(lines)


def walk(root: Path, max_file_bytes: int) -> WalkResult:
    """Every readable text file under `root` in path order, and every file refused with why.

    Ignored files (by .gitignore or the default list) are neither listed nor reported.
    """
    root = root.resolve()
    files: list[SourceFile] = []
    skipped: list[Skipped] = []
    specs: list[tuple[str, pathspec.PathSpec]] = [("", _spec(list(DEFAULT_IGNORES)))]
    visited_dirs: set[tuple[int, int]] = set()
    _walk_dir(root, root, "", specs, visited_dirs, files, skipped, max_file_bytes)
    files.sort(key=lambda f: f.rel)
    skipped.sort(key=lambda s: s.rel)
    return WalkResult(files, skipped)


def _ignored(rel: str, is_dir: bool, specs: list[tuple[str, pathspec.PathSpec]]) -> bool:
    for base, spec in specs:
        if base and not rel.startswith(base + "/"):
            continue
        local = rel[len(base) + 1 :] if base else rel
        if spec.match_file(local + ("/" if is_dir else "")):
            return True
    return False


def _walk_dir(
    root: Path,
    folder: Path,
    rel_dir: str,
    specs: list[tuple[str, pathspec.PathSpec]],
    visited: set[tuple[int, int]],
    files: list[SourceFile],
    skipped: list[Skipped],
    max_file_bytes: int,
) -> None:
    try:
        stat = folder.stat()
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError as exc:
        skipped.append(Skipped(rel_dir or ".", f"unreadable: {exc.strerror or exc}"))
        return
    if (stat.st_dev, stat.st_ino) in visited:
        skipped.append(Skipped(rel_dir, "symlink loop"))
        return
    visited.add((stat.st_dev, stat.st_ino))
    gitignore = folder / ".gitignore"
    if gitignore.is_file():
        with contextlib.suppress(OSError):
            specs = [*specs, (rel_dir, _spec(gitignore.read_text(encoding="utf-8", errors="replace").splitlines()))]
    for entry in entries:
        rel = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
        path = Path(entry.path)
        try:
            is_dir = entry.is_dir()
        except OSError:
            is_dir = False
        if _ignored(rel, is_dir, specs):
            continue
        if entry.is_symlink():
            try:
                target = path.resolve(strict=True)
            except (OSError, RuntimeError):
                skipped.append(Skipped(rel, "symlink loop or broken symlink"))
                continue
            if target != root and root not in target.parents:
                skipped.append(Skipped(rel, "symlink outside the root"))
                continue
        if is_dir:
            _walk_dir(root, path, rel, specs, visited, files, skipped, max_file_bytes)
            continue
        result = _read(path, rel, max_file_bytes)
        if isinstance(result, SourceFile):
            files.append(result)
        else:
            skipped.append(result)


def _read(path: Path, rel: str, max_file_bytes: int) -> SourceFile | Skipped:
    kind = classify(path.name)
    if kind is None:
        return Skipped(rel, "binary file" if _looks_binary(path) else "unsupported file type")
    try:
        size = path.stat().st_size
        if size > max_file_bytes:
            return Skipped(rel, f"larger than {max_file_bytes} bytes")
        data = path.read_bytes()
    except OSError as exc:
        return Skipped(rel, f"unreadable: {exc.strerror or exc}")
    if b"\x00" in data[:BINARY_PROBE_BYTES]:
        return Skipped(rel, "binary file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return Skipped(rel, "not UTF-8 text")
    return SourceFile(path, rel, kind[0], kind[1], text, hashlib.sha256(data).hexdigest())


def _looks_binary(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            return b"\x00" in handle.read(BINARY_PROBE_BYTES)
    except OSError:
        return False
