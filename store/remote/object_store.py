"""Object storage: the few operations a shared index needs from S3, conditional writes among them.

The conditional puts are what make one writer at a time and an atomic publication possible without any server of
our own: `put_if_absent` (`If-None-Match: *`) creates a key only if nobody has, `put_if_match` (`If-Match: <etag>`)
replaces it only if nobody changed it since it was read. Both are refused with 412, raised here as
`PreconditionFailedError`. An ETag is a digest of the content, so a writer that must see every change (a lease, a
pointer) puts a fresh token in each version it writes: two different writes never share an ETag.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from trident.store.errors import TridentIndexError
from trident.store.settings import StorageSettings

if TYPE_CHECKING:
    from boto3.s3.transfer import TransferConfig
    from botocore.exceptions import ClientError
    from mypy_boto3_s3 import S3Client

# S3's status for a condition that did not hold (If-None-Match on an existing key, If-Match on a changed or missing
# one), and the code some servers send for two conditional writes racing on one key (retrying is right for both).
PRECONDITION_FAILED = 412
CONDITIONAL_CONFLICT = 409
MISSING_CODES = frozenset({"NoSuchKey", "404", "NotFound"})
# Files from this size on move in parts (multipart upload, ranged downloads), several at a time, never whole in
# memory. S3 takes parts of 5 MiB to 5 GiB, at most 10,000 of them: 64 MiB parts carry files up to 625 GiB.
PART_BYTES = 64 * 1024 * 1024
PART_THREADS = 4


class ObjectStoreError(TridentIndexError):
    """Object storage refused or failed a request; the message names the bucket, key and the server's answer."""


class ObjectMissingError(ObjectStoreError):
    """No object under that key."""


class PreconditionFailedError(ObjectStoreError):
    """A conditional write lost: the key already existed (put_if_absent) or changed since it was read (put_if_match)."""


@dataclass(frozen=True)
class StoredObject:
    """One version of an object: its bytes and the ETag a conditional write names it by."""

    data: bytes
    etag: str


class ObjectStore(Protocol):
    """Keys are relative to the store's own prefix; listing and reading are strongly consistent (S3 since 2020)."""

    def get(self, key: str) -> StoredObject: ...

    def put(self, key: str, data: bytes) -> str: ...

    def put_if_absent(self, key: str, data: bytes) -> str: ...

    def put_if_match(self, key: str, data: bytes, etag: str) -> str: ...

    def upload_file(self, key: str, path: Path) -> None: ...

    def download_file(self, key: str, path: Path) -> None: ...

    def list(self, prefix: str) -> list[str]: ...

    def list_modified(self, prefix: str) -> dict[str, float]: ...

    def delete(self, key: str) -> None: ...


class S3ObjectStore:
    """An `ObjectStore` over one bucket and prefix of an S3-compatible server (AWS, SeaweedFS, MinIO...)."""

    def __init__(self, client: S3Client, bucket: str, prefix: str = "", *, part_bytes: int = PART_BYTES) -> None:
        self._client = client
        self.bucket = bucket
        self.prefix = prefix.strip("/")
        self._part_bytes = part_bytes

    def __repr__(self) -> str:
        return f"S3ObjectStore(s3://{self.bucket}/{self.prefix})"

    def _key(self, key: str) -> str:
        return f"{self.prefix}/{key}" if self.prefix else key

    def get(self, key: str) -> StoredObject:
        """The object's current bytes and ETag.

        Raises:
            ObjectMissingError: nothing is stored under `key`.
            ObjectStoreError: the server refused or failed the request.
        """
        with self._errors(key):
            answer = self._client.get_object(Bucket=self.bucket, Key=self._key(key))
            return StoredObject(answer["Body"].read(), answer["ETag"])

    def put(self, key: str, data: bytes) -> str:
        """Write `data` under `key` whatever is there; its new ETag.

        Raises:
            ObjectStoreError: the server refused or failed the request.
        """
        with self._errors(key):
            return self._client.put_object(Bucket=self.bucket, Key=self._key(key), Body=data)["ETag"]

    def put_if_absent(self, key: str, data: bytes) -> str:
        """Create `key` only if no object has it; its ETag.

        Raises:
            PreconditionFailedError: the key exists (or another create of it raced this one and won).
            ObjectStoreError: the server refused or failed the request.
        """
        with self._errors(key, conditional=True):
            return self._client.put_object(Bucket=self.bucket, Key=self._key(key), Body=data, IfNoneMatch="*")["ETag"]

    def put_if_match(self, key: str, data: bytes, etag: str) -> str:
        """Replace `key` only if its ETag is still `etag`; the new ETag.

        Raises:
            PreconditionFailedError: the object changed since that ETag was read, or is gone.
            ObjectStoreError: the server refused or failed the request.
        """
        with self._errors(key, conditional=True):
            return self._client.put_object(Bucket=self.bucket, Key=self._key(key), Body=data, IfMatch=etag)["ETag"]

    def upload_file(self, key: str, path: Path) -> None:
        """Write the file's content under `key` whatever is there, read from disk as it goes: in parts of
        `part_bytes`, several at a time, from that size on. Unconditional, so only for keys named by their content
        (writing the same bytes again changes nothing a reader sees).

        Raises:
            ObjectStoreError: the server refused or failed the request (no part of the object is then visible).
        """
        with self._errors(key):
            self._client.upload_file(str(path), self.bucket, self._key(key), Config=self._transfer())

    def download_file(self, key: str, path: Path) -> None:
        """Write the object's bytes to `path`, written as they come (ranged parts, several at a time, from
        `part_bytes` on; the caller checks the content and makes it durable).

        Raises:
            ObjectMissingError: nothing is stored under `key`.
            ObjectStoreError: the server refused or failed the request.
        """
        with self._errors(key):
            self._client.download_file(self.bucket, self._key(key), str(path), Config=self._transfer())

    def _transfer(self) -> TransferConfig:
        from boto3.s3.transfer import TransferConfig

        size = self._part_bytes
        return TransferConfig(multipart_threshold=size, multipart_chunksize=size, max_concurrency=PART_THREADS)

    def list(self, prefix: str) -> list[str]:
        """Every key under `prefix` (relative to the store's prefix), sorted.

        Raises:
            ObjectStoreError: the server refused or failed the request.
        """
        keys: list[str] = []
        strip = len(self._key(""))
        with self._errors(prefix):
            pages = self._client.get_paginator("list_objects_v2").paginate(Bucket=self.bucket, Prefix=self._key(prefix))
            for page in pages:
                keys.extend(entry["Key"][strip:] for entry in page.get("Contents", []) if "Key" in entry)
        return sorted(keys)

    def list_modified(self, prefix: str) -> dict[str, float]:
        """Every key under `prefix` with when it was last written (Unix time, by the server's clock): what a
        collector needs to tell an old object from one a writer or reader may still be using.

        Raises:
            ObjectStoreError: the server refused or failed the request.
        """
        found: dict[str, float] = {}
        strip = len(self._key(""))
        with self._errors(prefix):
            pages = self._client.get_paginator("list_objects_v2").paginate(Bucket=self.bucket, Prefix=self._key(prefix))
            for page in pages:
                for entry in page.get("Contents", []):
                    if "Key" in entry and "LastModified" in entry:
                        found[entry["Key"][strip:]] = entry["LastModified"].timestamp()
        return dict(sorted(found.items()))

    def delete(self, key: str) -> None:
        """Remove `key` (nothing happens if it is already gone).

        Raises:
            ObjectStoreError: the server refused or failed the request.
        """
        with self._errors(key):
            self._client.delete_object(Bucket=self.bucket, Key=self._key(key))

    @contextmanager
    def _errors(self, key: str, conditional: bool = False) -> Iterator[None]:
        """Turn botocore's errors into this module's, naming the bucket and key; `conditional`: a conditional put,
        whose 409 is a lost race."""
        from botocore.exceptions import BotoCoreError, ClientError

        where = f"s3://{self.bucket}/{self._key(key)}"
        try:
            yield
        except ClientError as error:
            raise _translate(error, where, conditional) from error
        except BotoCoreError as error:
            raise ObjectStoreError(f"{where}: {error}") from error


def _translate(error: ClientError, where: str, conditional: bool) -> ObjectStoreError:
    """A 409 is a lost race only for a conditional put; elsewhere (a bucket being created or emptied, a versioning
    conflict) it is the server's own failure, reported as such rather than as "read it again and retry"."""
    code = str(error.response.get("Error", {}).get("Code", ""))
    status = error.response.get("ResponseMetadata", {}).get("HTTPStatusCode")
    lost = (
        status == PRECONDITION_FAILED
        or code == "PreconditionFailed"
        or (conditional and status == CONDITIONAL_CONFLICT)
    )
    if lost:
        return PreconditionFailedError(f"{where} changed under this write ({code or status}); read it again and retry")
    if code in MISSING_CODES:
        return ObjectMissingError(f"{where} does not exist")
    return ObjectStoreError(f"{where}: the server answered {status} {code}: {error}")


def open_object_store(settings: StorageSettings, under: str = "", *, part_bytes: int = PART_BYTES) -> S3ObjectStore:
    """The object store TRIDENT_STORAGE names (and `under` that prefix, if given), with the endpoint and credentials
    of `settings`; files from `part_bytes` on move in parts of that size.

    Raises:
        ObjectStoreError: TRIDENT_STORAGE is unset (the index is local), or boto3 is not installed.
    """
    if settings.bucket is None:
        raise ObjectStoreError("TRIDENT_STORAGE is unset: set it to s3://bucket/prefix to keep the index there")
    try:
        import boto3
        from botocore.config import Config
    except ImportError as error:
        raise ObjectStoreError(
            "TRIDENT_STORAGE names object storage but boto3 is missing: pip install 'trident-mcp[s3]'"
        ) from error
    secret = settings.secret_access_key.get_secret_value() if settings.secret_access_key else None
    client = boto3.client(
        "s3",
        endpoint_url=settings.endpoint_url,
        aws_access_key_id=settings.access_key_id,
        aws_secret_access_key=secret,
        region_name=settings.region,
        # Path-style addressing: S3-compatible servers on a bare host:port have no per-bucket host names.
        config=Config(s3={"addressing_style": "path"}, retries={"max_attempts": 3, "mode": "standard"}),
    )
    prefix = "/".join(part for part in (settings.prefix, under.strip("/")) if part)
    return S3ObjectStore(client, settings.bucket, prefix, part_bytes=part_bytes)
