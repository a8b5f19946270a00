"""Problems a user can act on (index problems, bad arguments), each with a message that says what to do."""

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


class ArgumentError(ValueError):
    """A caller's argument is malformed or out of range; the message names the argument and what to give instead.

    The only exception the server reports as the client's fault: any other failure is the server's.
    """
