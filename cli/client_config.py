"""`trident client-config`: the exact configuration an MCP client needs to serve this index, with absolute paths to
the `trident` executable and the home, so the client searches the index just built (not an empty default one)."""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from pathlib import Path

from trident.server.server_settings import TridentSettings


def trident_executable() -> Path:
    """The `trident` command of the running environment, by absolute path (a client's PATH may not hold it)."""
    beside = Path(sys.executable).parent / "trident"
    if beside.is_file():
        return beside.absolute()
    found = shutil.which("trident")
    return Path(found).absolute() if found else Path(sys.argv[0]).absolute()


def server_env(settings: TridentSettings) -> dict[str, str]:
    """The variables the client must pass: the home always, the tenant and the folders index_path may read when
    they are set."""
    env = {"TRIDENT_HOME": str(settings.store.home.expanduser().absolute())}
    if settings.store.tenant != "default":
        env["TRIDENT_TENANT"] = settings.store.tenant
    if settings.server.allowed_roots:
        env["TRIDENT_ALLOWED_ROOTS"] = ":".join(str(root) for root in settings.server.resolved_roots())
    return env


def client_config(settings: TridentSettings) -> str:
    """A Claude Desktop `mcpServers` entry and the Claude Code command line, for this environment and index."""
    command = str(trident_executable())
    env = server_env(settings)
    desktop = {"mcpServers": {"trident": {"command": command, "args": ["serve"], "env": env}}}
    flags = " ".join(f"-e {shlex.quote(f'{name}={value}')}" for name, value in env.items())
    return (
        "Claude Desktop (claude_desktop_config.json) and other clients' JSON configuration:\n"
        f"{json.dumps(desktop, indent=2)}\n\n"
        "Claude Code:\n"
        f"claude mcp add trident {flags} -- {shlex.quote(command)} serve\n"
    )
