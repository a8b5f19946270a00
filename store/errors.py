"""Index problems a user can act on, each with a message that says what to do."""

from __future__ import annotations


class TridentIndexError(RuntimeError):
    """Base for index problems the user can fix."""


class ModelMismatchError(TridentIndexError):
    pass


class SchemaMismatchError(TridentIndexError):
    pass


class IndexLockedError(TridentIndexError):
    """Another writer holds the index's write lock."""


class ReadOnlyIndexError(TridentIndexError):
    """A write through a catalog opened read-only."""
