"""Many tiny projects of varied shapes, generated from a seed: what a folder of small repositories looks like to the
indexer (shared names across projects, hubs, chains, cross-module imports, prose that names code, several
languages). Each project defines one function whose name no other project has, so each can be found by it."""

from __future__ import annotations

import random
from pathlib import Path

WORDS = ("ledger", "invoice", "token", "cache", "queue", "route", "parser", "render", "report", "session")
SHARED = ("Client", "Config", "main", "load", "save", "run")  # names many projects define: shared-name links


def marker(index: int) -> str:
    """The function name only project `index` defines."""
    return f"reconcile_{WORDS[index % len(WORDS)]}_{index:03d}"


def project_name(index: int) -> str:
    return f"tiny{index:03d}"


def _python_package(rng: random.Random, index: int) -> dict[str, str]:
    word = rng.choice(WORDS)
    modules = rng.randint(2, 3)
    files: dict[str, str] = {"pkg/__init__.py": f'"""The {word} package."""\nfrom .core import Client\n'}
    files["pkg/core.py"] = (
        f'"""Core of the {word} project."""\n\n\n'
        "class Client:\n"
        f'    """Sends {word} requests."""\n\n'
        "    def send(self, item):\n"
        "        return self._encode(item)\n\n"
        "    def _encode(self, item):\n"
        "        return str(item)\n\n\n"
        f"def {marker(index)}(entries):\n"
        f'    """Reconcile {word} entries against the books."""\n'
        "    client = Client()\n"
        "    return [client.send(e) for e in entries]\n"
    )
    for m in range(1, modules):
        files[f"pkg/part{m}.py"] = (
            "from .core import Client\n\n\n"
            f"class {word.title()}Worker{m}(Client):\n"
            "    def run(self, items):\n"
            "        return [self.send(i) for i in items]\n\n\n"
            f"def load(path):\n    return {word.title()}Worker{m}().run([path])\n"
        )
    return files


def _hub_module(rng: random.Random, index: int) -> dict[str, str]:
    """One function called by many: a star, the shape igraph's Leiden never settled on."""
    spokes = rng.randint(3, 8)
    body = [f"def {marker(index)}(value):\n    return value\n"]
    body += [f"\ndef spoke_{n}(value):\n    return {marker(index)}(value) + {n}\n" for n in range(spokes)]
    readme = f"# Hub {index}\n\n`{marker(index)}` is what every spoke calls. See also `main` and `Config`.\n"
    return {"hub.py": "\n".join(body), "README.md": readme}


def _chain_with_docs(rng: random.Random, index: int) -> dict[str, str]:
    length = rng.randint(3, 6)
    steps = [f"def step_{n}(x):\n    return step_{n + 1}(x)\n" for n in range(length)]
    steps.append(f"def step_{length}(x):\n    return {marker(index)}(x)\n")
    steps.append(f"def {marker(index)}(x):\n    return x\n")
    docs = "# Guide\n\n## Running\n\nCall `step_0`; it ends in `" + marker(index) + "`.\n\n## Config\n\nSee `Config`.\n"
    return {"chain.py": "\n\n".join(steps), "docs/guide.md": docs, "config.py": "class Config:\n    debug = False\n"}


def _mixed_languages(rng: random.Random, index: int) -> dict[str, str]:
    name = marker(index)
    js = (
        f"export function {name}(rows) {{\n  return rows.map(save);\n}}\n\n"
        "export function save(row) {\n  return row;\n}\n"
    )
    go = (
        "package main\n\n"
        "type Client struct{}\n\n"
        "func (c Client) Run() int { return load() }\n\n"
        "func load() int { return 1 }\n\n"
        "func main() { Client{}.Run() }\n"
    )
    files = {"web/app.js": js, "cmd/main.go": go}
    if rng.random() < 0.5:
        files["NOTES.txt"] = f"Notes for project {index}: the web app calls {name}.\n"
    return files


SHAPES = (_python_package, _hub_module, _chain_with_docs, _mixed_languages)


def write_projects(root: Path, count: int, seed: int = 21) -> list[Path]:
    """`count` project folders under `root`, each of one shape (in turn) with sizes drawn from `seed`."""
    rng = random.Random(seed)
    folders = []
    for index in range(count):
        folder = root / project_name(index)
        for rel, text in SHAPES[index % len(SHAPES)](rng, index).items():
            path = folder / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        folders.append(folder)
    return folders
