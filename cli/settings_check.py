"""Settings a command cannot run with, refused before any work in one line that names the setting (or the flag that
gave it) and what to do: a value a setting's validator refuses, a value that does not parse, or a folder setting
(TRIDENT_HOME, the caches) that names a path no folder can be made at."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Collection
from pathlib import Path
from typing import TypeVar

from pydantic import ValidationError
from pydantic_settings import SettingsError

from trident.embedding.model_settings import ModelSettings
from trident.store.settings import StoreSettings

T = TypeVar("T")
# pydantic-settings names the field of a value it could not parse only in its message.
UNPARSED_FIELD = re.compile(r'error parsing value for field "([^"]+)"')


class BadSetting(Exception):
    """A setting the command cannot run with; the message names the setting and what to do."""


def read_settings(build: Callable[[], T], flags: Collection[str] = ()) -> T:
    """The settings `build` reads; `flags`: the fields the command line gave, which a refusal blames instead of
    their environment variables.

    Raises:
        BadSetting: a value was refused or could not be parsed (the message never echoes it: it may be a token).
    """
    try:
        return build()
    except ValidationError as exc:
        raise BadSetting(_refused(exc, flags)) from None
    except SettingsError as exc:
        raise BadSetting(_unparsed(exc)) from None


def check_folders(store: StoreSettings, model: ModelSettings) -> None:
    """Refuse a folder setting whose path runs through a file (no folder can ever be made there), and a missing
    index folder that cannot be created: found here, a command never fails half-way with an OS traceback.

    Raises:
        BadSetting: the first such setting, with the file in the way or the folder that refuses writes.
    """
    for name, given, folder in (
        ("TRIDENT_HOME", store.home, store.index_dir),
        ("TRIDENT_MODEL_CACHE", model.model_cache, model.model_cache),
        ("TRIDENT_EVAL_CACHE", store.eval_cache, store.eval_cache),
    ):
        existing = _nearest_existing(folder)
        if not existing.is_dir():
            raise BadSetting(
                f"{name}: {existing} is a file, so no folder can be made at {given}; set {name} to a folder "
                "(or unset it for the default)"
            )
    index_dir = store.index_dir.absolute()
    existing = _nearest_existing(index_dir)
    if existing != index_dir and not os.access(existing, os.W_OK | os.X_OK):
        raise BadSetting(
            f"TRIDENT_HOME: cannot create {index_dir}: {existing} is not writable; set TRIDENT_HOME to a folder "
            "you can write to"
        )


def _nearest_existing(path: Path) -> Path:
    """`path`, or its nearest ancestor that exists (a file in the way counts: nothing below it exists)."""
    path = path.absolute()
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def _refused(invalid: ValidationError, flags: Collection[str]) -> str:
    """The first refused value: its flag if the command line gave it, else its variable, and why."""
    first = invalid.errors()[0]
    message = first["msg"].removeprefix("Value error, ")
    field = str(first["loc"][0]) if first["loc"] else ""
    if field in flags:
        return f"--{field.replace('_', '-')}: {message}"
    name = f"TRIDENT_{field.upper()}" if field else ""
    return message if name in message else f"{name}: {message}"


def _unparsed(error: SettingsError) -> str:
    """A value that is not of its setting's form (a JSON object or list where one is expected)."""
    found = UNPARSED_FIELD.search(str(error))
    name = f"TRIDENT_{found.group(1).upper()}" if found else "a TRIDENT_* variable"
    return f"{name}: cannot be parsed; give it as JSON (the README's Configuration table shows its form)"
