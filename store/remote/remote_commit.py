"""The commit point of a shared index: one pointer object naming the published generation.

A writer uploads a generation under keys of its own (nothing reads them yet), then publishes by replacing the
pointer with a conditional write on the version it started from (`put_if_match`; `put_if_absent` for the first
publication). So two writers that started from the same version cannot both publish: the second is refused
(`StalePublishError`) whatever its lease says, and a writer killed before the pointer moved leaves the published
generation as it was. Readers read the pointer and pin the generation it names; S3 reads are strongly consistent,
so a reader that reads after a publication sees it.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel, Field, ValidationError

from trident.store.errors import TridentIndexError
from trident.store.remote.object_store import ObjectMissingError, ObjectStore, PreconditionFailedError

POINTER_KEY = "published.json"
GENERATIONS_PREFIX = "generations/"


class PublishedPointer(BaseModel):
    """The pointer's content (JSON): which generation readers open, and who published it."""

    generation: int = Field(ge=1, description="Counts publications: each one adds one to its base's")
    manifest_key: str = Field(description="The generation's manifest, relative to the store's prefix")
    writer_token: str = Field(
        pattern=r"^[A-Za-z0-9_-]{1,64}$",  # part of a folder name in every cache: never a path
        description="The publishing writer's lease token: tells its publication apart",
    )
    sealed: str = Field(
        "",
        description="Rewritten by each garbage collection (a fresh token): a writer that read the pointer before "
        "it can no longer publish, since it may count on a blob the collection deleted",
    )

    def same_publication(self, other: PublishedPointer | None) -> bool:
        """Whether `other` names the same publication (a collection's seal aside)."""
        return other is not None and self.model_copy(update={"sealed": ""}) == other.model_copy(update={"sealed": ""})


@dataclass(frozen=True)
class Published:
    """The pointer as read: None and no ETag before the first publication."""

    pointer: PublishedPointer | None
    etag: str | None

    @property
    def generation(self) -> int:
        return self.pointer.generation if self.pointer else 0


class StalePublishError(TridentIndexError):
    """Another writer published since this one read the pointer: its generation is not published."""


def generation_prefix(generation: int, writer_token: str) -> str:
    """Where a writer uploads a generation: its own keys (the token), so a writer that died uploading the same
    number leaves nothing the next one overwrites or reads."""
    return f"{GENERATIONS_PREFIX}g{generation:08d}-{writer_token[:12]}/"


def read_published(store: ObjectStore, key: str = POINTER_KEY) -> Published:
    """The published pointer and its ETag (what a reader pins and a writer starts from).

    Raises:
        TridentIndexError: the pointer is not one this version can read.
    """
    try:
        stored = store.get(key)
    except ObjectMissingError:
        return Published(None, None)
    try:
        return Published(PublishedPointer.model_validate_json(stored.data), stored.etag)
    except ValidationError as error:
        raise TridentIndexError(
            f"the published pointer {key} is not one this version can read (damaged, or written by a newer "
            f"Trident): {error.errors()[0]['msg']}"
        ) from None


def seal(store: ObjectStore, base: Published, token: str, key: str = POINTER_KEY) -> Published:
    """Rewrite the pointer `base` as read, naming the same publication with a fresh seal: from then on, a writer
    that started from `base` is refused (its conditional publication names the old version).

    Raises:
        StalePublishError: a writer published since `base` was read.
    """
    if base.pointer is None or base.etag is None:
        raise ValueError("nothing is published: there is no pointer to seal")
    sealed = base.pointer.model_copy(update={"sealed": token})
    try:
        etag = store.put_if_match(key, sealed.model_dump_json().encode(), base.etag)
    except PreconditionFailedError:
        current = read_published(store, key)
        if current.pointer == sealed:  # ours: its answer was lost and the request retried
            return current
        raise StalePublishError(
            f"generation {current.generation} was published while the collection started from generation "
            f"{base.generation}; run it again"
        ) from None
    return Published(sealed, etag)


def publish(
    store: ObjectStore, base: Published, manifest_key: str, writer_token: str, key: str = POINTER_KEY
) -> Published:
    """Make `manifest_key` the published generation, if the pointer is still `base` (what this writer started from).

    Raises:
        StalePublishError: another writer published since `base` was read; nothing of this one's is visible.
    """
    pointer = PublishedPointer(generation=base.generation + 1, manifest_key=manifest_key, writer_token=writer_token)
    data = pointer.model_dump_json().encode()
    try:
        etag = store.put_if_absent(key, data) if base.etag is None else store.put_if_match(key, data, base.etag)
    except PreconditionFailedError:
        current = read_published(store, key)
        if current.pointer == pointer:  # ours: its answer was lost and the request retried
            return current
        raise StalePublishError(
            f"another writer published generation {current.generation} after this one started from generation "
            f"{base.generation}; this writer's changes ({manifest_key}) are not published"
        ) from None
    return Published(pointer, etag)
