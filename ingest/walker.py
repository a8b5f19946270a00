"""Walking a project folder: .gitignore and default ignores honoured, unreadable files skipped with a reason, real
environment files (secrets) never read."""

from __future__ import annotations

import errno
import hashlib
import os
import re
import stat
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import pathspec

from trident.store.names.code_paths import CODE_LANGUAGES, TEXT_ONLY_CODE
from trident.store.schema import DocumentKind

# Version-control and Trident's own folders: never content, and no .gitignore negation brings them back.
ALWAYS_IGNORED = frozenset({".git", ".hg", ".svn", ".trident"})

# Build output, dependencies, caches and lock files: noise for retrieval. Lowest precedence, so a project's
# own `.gitignore` can re-include one with `!build/`.
DEFAULT_IGNORES = (
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
    "*.pyc",
    "*.min.js",
    "*.map",
    "package-lock.json",
    "yarn.lock",
    "pnpm-lock.yaml",
    "poetry.lock",
    "Cargo.lock",
    "uv.lock",
    "go.sum",
    ".DS_Store",
    # Tool configuration without content worth retrieving; listed so it is not reported as unsupported.
    ".gitignore",
    ".gitattributes",
    ".gitmodules",
    ".dockerignore",
    ".editorconfig",
)

_MARKDOWN = (".md", ".markdown", ".mdx")
_CONFIG = (".toml", ".yaml", ".yml", ".json", ".ini", ".cfg")
_TEXT = (".txt", ".rst")

# Extension (lower case) -> (kind, grammar language). Anything not here, or in FILE_NAMES, is not read.
FILE_TYPES: dict[str, tuple[DocumentKind, str | None]] = {
    **{ext: (DocumentKind.CODE, language) for ext, language in CODE_LANGUAGES.items()},
    **{ext: (DocumentKind.CODE, None) for ext in TEXT_ONLY_CODE},
    **{ext: (DocumentKind.MARKDOWN, None) for ext in _MARKDOWN},
    **{ext: (DocumentKind.CONFIG, None) for ext in _CONFIG},
    **{ext: (DocumentKind.TEXT, None) for ext in _TEXT},
}
# Exact file names, checked before the extension (requirements.txt is configuration, not prose).
FILE_NAMES: dict[str, tuple[DocumentKind, str | None]] = {
    **{name: (DocumentKind.TEXT, None) for name in ("README", "LICENSE", "CHANGELOG", "CONTRIBUTING", "NOTICE")},
    **{name: (DocumentKind.TEXT, None) for name in ("AUTHORS", "COPYING", "Makefile", "Dockerfile")},
    **{name: (DocumentKind.CONFIG, None) for name in ("go.mod", "Gemfile", "Pipfile", "requirements.txt")},
}
# Environment files. A real one (`.env`, `.env.local`, `.env.production`, `prod.env`) holds the project's secrets:
# it is never read, whatever the ignore rules say, so no key or token of it reaches the index (nor a client through a
# snippet); the walk reports it refused. A template committed beside it names the same variables with placeholders or
# defaults: it is read as configuration, so its `KEY=value` lines take part in the evidence checks (a README's default
# against the template's is a conflict).
_ENV_TEMPLATE = re.compile(r"(?:\.?env[.-](?:example|sample|template|dist)|(?:example|sample|template)\.env)", re.I)
_ENV_FILE = re.compile(r"\.env(?:\..*)?|.+\.env", re.I)
ENV_SECRETS_REASON = "environment file: may hold secrets, never read (a template such as .env.example is)"
BINARY_PROBE_BYTES = 8192


@dataclass(frozen=True)
class SourceFile:
    path: Path
    rel: str
    kind: DocumentKind
    language: str | None
    text: str
    content_hash: str
    size: int  # bytes read, the ones hashed
    mtime_ns: int  # modification time as stat gave it before the read (a write after it moves it on)


@dataclass(frozen=True)
class Skipped:
    rel: str
    reason: str


@dataclass
class WalkResult:
    files: list[SourceFile] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)


def classify(name: str) -> tuple[DocumentKind, str | None] | None:
    """(kind, grammar language) for a file name or path, or None when Trident does not read that type."""
    pure = PurePosixPath(name)
    if pure.name in FILE_NAMES:
        return FILE_NAMES[pure.name]
    if _ENV_TEMPLATE.fullmatch(pure.name):
        return DocumentKind.CONFIG, None
    if _ENV_FILE.fullmatch(pure.name):
        return None
    return FILE_TYPES.get(pure.suffix.lower())


def holds_secrets(name: str) -> bool:
    """Whether a file name or path is a real environment file (`.env`, `.env.local`, `prod.env`): never read."""
    pure = PurePosixPath(name).name
    return bool(_ENV_FILE.fullmatch(pure)) and not _ENV_TEMPLATE.fullmatch(pure)


# A folder's ignore rules: (folder rel, spec) from the root down; a deeper file's verdict wins, as in git.
_Rules = tuple[tuple[str, pathspec.PathSpec], ...]


def _is_ignored(rel: str, is_dir: bool, rules: _Rules, defaults: pathspec.PathSpec) -> bool:
    if PurePosixPath(rel).name in ALWAYS_IGNORED:
        return True
    for base, spec in reversed(rules):
        local = rel[len(base) + 1 :] if base else rel
        verdict = spec.check_file(local + "/" if is_dir else local).include
        if verdict is not None:
            return verdict
    return bool(defaults.check_file(rel + "/" if is_dir else rel).include)


@dataclass(frozen=True)
class _Link:
    """A symlink inside the root, followed only after the real tree so real paths win over aliases."""

    rel: str
    path: Path
    target: Path
    folder_real: Path
    rules: _Rules


class _Walker:
    def __init__(self, root: Path, max_file_bytes: int) -> None:
        self.root = root
        self.max_file_bytes = max_file_bytes
        self.result = WalkResult()
        self.defaults = pathspec.GitIgnoreSpec.from_lines(DEFAULT_IGNORES)
        self.seen: dict[Path, str] = {}  # real path -> the rel it was walked under
        self.links: deque[_Link] = deque()

    def run(self) -> WalkResult:
        rules: _Rules = ()
        exclude = self._spec(self.root / ".git" / "info" / "exclude")
        if exclude is not None:
            rules = (("", exclude),)
        self._folder(self.root, self.root, "", rules)
        while self.links:
            self._follow(self.links.popleft())
        self.result.files.sort(key=lambda f: f.rel)
        self.result.skipped.sort(key=lambda s: s.rel)
        return self.result

    def _skip(self, rel: str, reason: str) -> None:
        self.result.skipped.append(Skipped(rel, reason))

    def _spec(self, path: Path) -> pathspec.PathSpec | None:
        try:
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            return None
        return pathspec.GitIgnoreSpec.from_lines(lines)

    def _folder(self, folder: Path, real: Path, rel_dir: str, rules: _Rules) -> None:
        self.seen[real] = rel_dir
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            self._skip(rel_dir or ".", f"unreadable: {exc.strerror or exc}")
            return
        spec = self._spec(folder / ".gitignore")
        if spec is not None:
            rules = (*rules, (rel_dir, spec))
        for entry in entries:
            rel = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
            is_link = entry.is_symlink()
            try:
                is_dir = entry.is_dir()  # follows a link: a link to a folder is ignored like the folder
            except OSError as exc:
                if not is_link:  # a looping link is reported by _link
                    self._skip(rel, f"unreadable: {exc.strerror or exc}")
                    continue
                is_dir = False
            if _is_ignored(rel, is_dir, rules, self.defaults):
                continue
            if is_link:
                self._link(rel, Path(entry.path), real, rules)
            elif is_dir:
                self._folder(Path(entry.path), real / entry.name, rel, rules)
            else:
                self.seen[real / entry.name] = rel
                self._file(Path(entry.path), rel)

    def _link(self, rel: str, path: Path, folder_real: Path, rules: _Rules) -> None:
        try:
            target = path.resolve(strict=True)
        except RuntimeError:  # Python 3.11 reports a link cycle this way; later versions raise ELOOP
            self._skip(rel, "symlink loop")
            return
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                self._skip(rel, "symlink loop")
            else:
                self._skip(rel, "unreadable: broken symlink")
            return
        if not target.is_relative_to(self.root):
            self._skip(rel, "symlink outside the root")
            return
        self.links.append(_Link(rel, path, target, folder_real, rules))

    def _follow(self, link: _Link) -> None:
        target = link.target
        if target.is_dir() and link.folder_real.is_relative_to(target):
            self._skip(link.rel, "symlink loop")
        elif target in self.seen:
            self._skip(link.rel, f"symlink to {self.seen[target] or '.'}, walked already")
        elif target.is_dir():
            self._folder(link.path, target, link.rel, link.rules)
        else:
            self.seen[target] = link.rel
            self._file(link.path, link.rel)

    def _file(self, path: Path, rel: str) -> None:
        outcome = read_source(path, rel, self.max_file_bytes)
        if isinstance(outcome, SourceFile):
            self.result.files.append(outcome)
        else:
            self.result.skipped.append(outcome)


def walk(root: Path, max_file_bytes: int) -> WalkResult:
    """Every readable text file under `root` in path order, and every file refused with why.

    Ignored files (by .gitignore, .git/info/exclude or the default list) are neither listed nor reported.
    Symlinks are followed only within the root; a link to something walked under its real path is reported
    rather than read twice.

    Raises:
        NotADirectoryError: `root` is not a folder.
    """
    root = root.resolve()
    if not root.is_dir():
        raise NotADirectoryError(f"not a folder: {root}")
    return _Walker(root, max_file_bytes).run()


def read_source(path: Path, rel: str, max_file_bytes: int) -> SourceFile | Skipped:
    """The file as text, or why it cannot be: checked by type, then size, then content, cheapest first."""
    try:
        info = path.stat()
    except OSError as exc:
        return Skipped(rel, f"unreadable: {exc.strerror or exc}")
    if not stat.S_ISREG(info.st_mode):  # a FIFO or device would block or never end
        return Skipped(rel, "not a regular file")
    if holds_secrets(rel):
        return Skipped(rel, ENV_SECRETS_REASON)
    kind = classify(rel)
    if kind is None:
        return Skipped(rel, "binary file" if _starts_binary(path) else "unsupported file type")
    if info.st_size > max_file_bytes:
        return Skipped(rel, f"larger than {max_file_bytes} bytes")
    try:
        with path.open("rb") as handle:
            data = handle.read(max_file_bytes + 1)
    except OSError as exc:
        return Skipped(rel, f"unreadable: {exc.strerror or exc}")
    if len(data) > max_file_bytes:  # grew since stat
        return Skipped(rel, f"larger than {max_file_bytes} bytes")
    if b"\x00" in data[:BINARY_PROBE_BYTES]:
        return Skipped(rel, "binary file")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return Skipped(rel, "not UTF-8 text")
    return SourceFile(path, rel, kind[0], kind[1], text, hashlib.sha256(data).hexdigest(), len(data), info.st_mtime_ns)


def _starts_binary(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            return b"\x00" in handle.read(BINARY_PROBE_BYTES)
    except OSError:
        return False
