"""Errors the command line's own code raises for something the user can fix; each message names what exists."""

from __future__ import annotations


class NotIndexed(LookupError):
    """A project or file asked for by name is not in the index; the message names what is."""


def unknown_project(project: str, known: list[str]) -> NotIndexed:
    """The error for a project the index does not hold, naming those it does."""
    return NotIndexed(f"no project '{project}' in the index (its projects: {', '.join(known) or 'none, it is empty'})")
