"""Walking project folders: ignore rules, refused files with their reasons, symlinks, and classification."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from trident.ingest import walker
from trident.ingest.walker import classify, walk
from trident.store.schema import DocumentKind

LIMIT = 1_000_000


def _tree(root: Path, files: dict[str, bytes | str]) -> None:
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else content.encode())


def _listed(root: Path, limit: int = LIMIT) -> list[str]:
    return [f.rel for f in walk(root, limit).files]


def _reasons(root: Path, limit: int = LIMIT) -> dict[str, str]:
    return {s.rel: s.reason for s in walk(root, limit).skipped}


def test_root_and_nested_gitignores_hide_files_relative_to_their_own_folder(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {
            ".gitignore": "*.log\n/secrets.txt\n",
            "app.py": "x = 1\n",
            "debug.log": "noise\n",
            "secrets.txt": "hidden\n",
            "web/secrets.txt": "only the root one is anchored\n",
            "web/.gitignore": "generated/\n/local.ts\n!keep.log\n",
            "web/generated/out.ts": "x\n",
            "web/local.ts": "x\n",
            "web/lib/local.ts": "x\n",
            "web/keep.log": "re-included by the nested file\n",
            "web/trace.log": "still ignored by the root file\n",
        },
    )
    assert _listed(tmp_path) == ["app.py", "web/lib/local.ts", "web/secrets.txt"]
    assert _reasons(tmp_path) == {"web/keep.log": "unsupported file type"}


def test_default_ignores_hide_dependencies_caches_and_lock_files_without_reporting_them(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {
            "src/app.js": "x\n",
            "node_modules/lib/index.js": "x\n",
            "web/node_modules/lib/index.js": "x\n",
            ".git/config": "[core]\n",
            ".venv/lib/site.py": "x\n",
            "pkg/__pycache__/m.py": "x\n",
            "dist/bundle.js": "x\n",
            "package-lock.json": "{}\n",
            "poetry.lock": "x\n",
            "vendor.min.js": "x\n",
            ".trident/state.json": "{}\n",
        },
    )
    result = walk(tmp_path, LIMIT)
    assert [f.rel for f in result.files] == ["src/app.js"]
    assert result.skipped == []


def test_a_gitignore_negation_brings_back_a_default_ignored_folder_but_never_git_metadata(tmp_path: Path) -> None:
    _tree(tmp_path, {".gitignore": "!build/\n!.git/\n", "build/gen.py": "x\n", ".git/notes.md": "# x\n"})
    assert _listed(tmp_path) == ["build/gen.py"]


def test_git_info_exclude_is_honoured(tmp_path: Path) -> None:
    _tree(tmp_path, {".git/info/exclude": "scratch/\n", "scratch/try.py": "x\n", "main.py": "x\n"})
    assert _listed(tmp_path) == ["main.py"]


def test_binary_files_are_skipped_with_a_reason_even_with_a_text_extension(tmp_path: Path) -> None:
    _tree(tmp_path, {"blob.txt": b"abc\x00def", "image.png": b"\x89PNG\r\n\x1a\n\x00\x00", "ok.md": "# fine\n"})
    assert _reasons(tmp_path) == {"blob.txt": "binary file", "image.png": "binary file"}
    assert _listed(tmp_path) == ["ok.md"]


def test_a_nul_byte_after_the_first_8_kib_does_not_make_a_file_binary(tmp_path: Path) -> None:
    _tree(tmp_path, {"late.txt": b"a" * 9000 + b"\x00"})
    assert _listed(tmp_path) == ["late.txt"]


def test_non_utf8_text_is_skipped_with_a_reason(tmp_path: Path) -> None:
    _tree(tmp_path, {"latin.txt": "café".encode("latin-1")})
    assert _reasons(tmp_path) == {"latin.txt": "not UTF-8 text"}


def test_files_over_the_size_limit_are_skipped_and_a_file_at_the_limit_is_read(tmp_path: Path) -> None:
    _tree(tmp_path, {"big.txt": "x" * 1001, "exact.txt": "x" * 1000})
    result = walk(tmp_path, 1000)
    assert [f.rel for f in result.files] == ["exact.txt"]
    assert {s.rel: s.reason for s in result.skipped} == {"big.txt": "larger than 1000 bytes"}


def test_unsupported_file_types_are_skipped_with_a_reason(tmp_path: Path) -> None:
    _tree(tmp_path, {"data.csv": "a,b\n", "notes.txt": "hi\n"})
    assert _reasons(tmp_path) == {"data.csv": "unsupported file type"}


def test_a_fifo_is_refused_instead_of_blocking_the_walk(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.txt")
    assert _reasons(tmp_path) == {"pipe.txt": "not a regular file"}


def test_an_unreadable_folder_is_reported_and_the_walk_goes_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _tree(tmp_path, {"locked/a.py": "x\n", "open/b.py": "x\n"})
    real_scandir = os.scandir

    def scandir(path: str | os.PathLike[str]) -> object:
        if Path(path).name == "locked":
            raise PermissionError(13, "Permission denied")
        return real_scandir(path)

    monkeypatch.setattr(walker.os, "scandir", scandir)
    result = walk(tmp_path, LIMIT)
    assert [f.rel for f in result.files] == ["open/b.py"]
    assert {s.rel: s.reason for s in result.skipped} == {"locked": "unreadable: Permission denied"}


def test_a_symlink_leaving_the_root_is_not_followed(tmp_path: Path) -> None:
    _tree(tmp_path / "outside", {"secret.py": "x = 1\n"})
    root = tmp_path / "root"
    _tree(root, {"a.py": "x = 1\n"})
    os.symlink(tmp_path / "outside", root / "escape")
    os.symlink(tmp_path / "outside" / "secret.py", root / "secret.py")
    assert _listed(root) == ["a.py"]
    assert _reasons(root) == {"escape": "symlink outside the root", "secret.py": "symlink outside the root"}


def test_symlink_loops_are_reported_not_followed(tmp_path: Path) -> None:
    _tree(tmp_path, {"a.py": "x = 1\n", "sub/b.py": "y = 2\n"})
    os.symlink(tmp_path, tmp_path / "sub" / "up")
    os.symlink("ping.py", tmp_path / "pong.py")
    os.symlink("pong.py", tmp_path / "ping.py")
    assert _listed(tmp_path) == ["a.py", "sub/b.py"]
    assert _reasons(tmp_path) == {"ping.py": "symlink loop", "pong.py": "symlink loop", "sub/up": "symlink loop"}


def test_a_symlink_to_a_folder_inside_the_root_is_listed_once_under_its_real_path(tmp_path: Path) -> None:
    _tree(tmp_path, {"zdocs/guide.md": "# Guide\n"})
    os.symlink(tmp_path / "zdocs", tmp_path / "adocs")
    assert _listed(tmp_path) == ["zdocs/guide.md"]
    assert _reasons(tmp_path) == {"adocs": "symlink to zdocs, walked already"}


def test_a_symlink_into_an_ignored_folder_is_followed(tmp_path: Path) -> None:
    _tree(tmp_path, {".gitignore": "vendor/\n", "vendor/pkg/docs/use.md": "# Use\n"})
    os.symlink(tmp_path / "vendor" / "pkg" / "docs", tmp_path / "pkg-docs")
    assert _listed(tmp_path) == ["pkg-docs/use.md"]


def test_a_broken_symlink_is_reported(tmp_path: Path) -> None:
    os.symlink(tmp_path / "missing.py", tmp_path / "dangling.py")
    assert _reasons(tmp_path) == {"dangling.py": "unreadable: broken symlink"}


def test_files_come_sorted_with_their_text_and_the_sha256_of_their_bytes(tmp_path: Path) -> None:
    _tree(tmp_path, {"b.py": "b = 1\n", "a/z.py": "z = 1\n", "a.py": "\ufeffa = 1\n"})
    files = walk(tmp_path, LIMIT).files
    assert [f.rel for f in files] == ["a.py", "a/z.py", "b.py"]
    first = files[0]
    assert first.text == "a = 1\n", "a UTF-8 byte order mark is not part of the text"
    assert first.content_hash == hashlib.sha256((tmp_path / "a.py").read_bytes()).hexdigest()
    assert first.path == tmp_path / "a.py"


def test_walking_a_missing_folder_raises(tmp_path: Path) -> None:
    with pytest.raises(NotADirectoryError, match="nowhere"):
        walk(tmp_path / "nowhere", LIMIT)


@pytest.mark.parametrize(
    ("name", "kind", "language"),
    [
        ("a.py", DocumentKind.CODE, "python"),
        ("a.mjs", DocumentKind.CODE, "javascript"),
        ("a.jsx", DocumentKind.CODE, "javascript"),
        ("a.cts", DocumentKind.CODE, "typescript"),
        ("a.tsx", DocumentKind.CODE, "tsx"),
        ("a.go", DocumentKind.CODE, "go"),
        ("a.rs", DocumentKind.CODE, "rust"),
        ("A.JAVA", DocumentKind.CODE, "java"),
        ("a.c", DocumentKind.CODE, "c"),
        ("a.h", DocumentKind.CODE, "c"),
        ("a.hpp", DocumentKind.CODE, "cpp"),
        ("a.hs", DocumentKind.CODE, None),
        ("a.kt", DocumentKind.CODE, "kotlin"),
        ("a.swift", DocumentKind.CODE, "swift"),
        ("a.scala", DocumentKind.CODE, "scala"),
        ("a.lua", DocumentKind.CODE, "lua"),
        ("a.sql", DocumentKind.CODE, None),
        ("deploy.sh", DocumentKind.CODE, "bash"),
        ("deploy.zsh", DocumentKind.CODE, None),
        ("a.md", DocumentKind.MARKDOWN, None),
        ("a.mdx", DocumentKind.MARKDOWN, None),
        ("pyproject.toml", DocumentKind.CONFIG, None),
        ("a.yml", DocumentKind.CONFIG, None),
        ("setup.cfg", DocumentKind.CONFIG, None),
        ("requirements.txt", DocumentKind.CONFIG, None),
        ("notes.txt", DocumentKind.TEXT, None),
        ("index.rst", DocumentKind.TEXT, None),
        ("README", DocumentKind.TEXT, None),
        ("LICENSE", DocumentKind.TEXT, None),
        ("Makefile", DocumentKind.TEXT, None),
        ("Dockerfile", DocumentKind.TEXT, None),
        ("CHANGELOG", DocumentKind.TEXT, None),
        (".env.example", DocumentKind.CONFIG, None),
        (".env.sample", DocumentKind.CONFIG, None),
        ("deploy/.ENV.Template", DocumentKind.CONFIG, None),
        ("example.env", DocumentKind.CONFIG, None),
    ],
)
def test_file_names_classify_by_the_table(name: str, kind: DocumentKind, language: str | None) -> None:
    assert classify(name) == (kind, language)


@pytest.mark.parametrize(
    "name", ["photo.png", "data.csv", "archive.tar.gz", "Procfile", "a.exe", ".env", ".env.local", "prod.env"]
)
def test_other_file_types_are_not_read(name: str) -> None:
    assert classify(name) is None


def test_the_walk_reports_kind_and_language_of_each_file(tmp_path: Path) -> None:
    _tree(tmp_path, {"a.go": "package a\n", "b.tsx": "x\n", "c.yaml": "a: 1\n", "README": "hi\n", "d.hs": "x\n"})
    kinds = {f.rel: (f.kind, f.language) for f in walk(tmp_path, LIMIT).files}
    assert kinds == {
        "README": (DocumentKind.TEXT, None),
        "a.go": (DocumentKind.CODE, "go"),
        "b.tsx": (DocumentKind.CODE, "tsx"),
        "c.yaml": (DocumentKind.CONFIG, None),
        "d.hs": (DocumentKind.CODE, None),
    }


def test_real_environment_files_are_never_read_and_their_templates_are_read_as_configuration(tmp_path: Path) -> None:
    secret = "sk_live_do_not_index"
    _tree(
        tmp_path,
        {
            ".env": f"API_KEY={secret}\n",
            ".env.production": f"API_KEY={secret}\n",
            "deploy/staging.env": f"API_KEY={secret}\n",
            ".env.example": "API_KEY=changeme\nREQUEST_TIMEOUT=30\n",
        },
    )
    result = walk(tmp_path, LIMIT)
    assert [(f.rel, f.kind) for f in result.files] == [(".env.example", DocumentKind.CONFIG)]
    assert _reasons(tmp_path) == dict.fromkeys(
        [".env", ".env.production", "deploy/staging.env"], walker.ENV_SECRETS_REASON
    )
    assert all(secret not in f.text for f in result.files)
