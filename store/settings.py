"""Where the index lives and how it is stored: typed settings read from `TRIDENT_*` environment variables. The
model's, an index run's, the answering side's and the cluster's settings live with their concern
(`embedding/model_settings.py`, `ingest/ingest_settings.py`, `retrieval/retrieval_settings.py`,
`host/ray_cluster.py`)."""

from __future__ import annotations

import re
from pathlib import Path

from platformdirs import user_cache_dir, user_data_dir
from pydantic import AliasChoices, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from trident.store.engines.graph_backends import GraphBackend


class StoreSettings(BaseSettings):
    """Where the index lives."""

    model_config = SettingsConfigDict(env_prefix="TRIDENT_", extra="ignore")

    home: Path = Field(
        default_factory=lambda: Path(user_data_dir("trident")),
        description="Folder holding the three engines and the manifest (TRIDENT_HOME).",
    )
    tenant: str = Field("default", description="Index namespace this process reads and writes (TRIDENT_TENANT).")
    eval_cache: Path = Field(
        default_factory=lambda: Path(user_cache_dir("trident")) / "eval",
        description="Where `trident eval` keeps its per-dataset indexes (TRIDENT_EVAL_CACHE).",
    )
    graph_backend: GraphBackend = Field(
        GraphBackend.KUZU,
        description="The engine a new index keeps its graph in: kuzu (0.11.3, its last release) or ladybug (its "
        "maintained fork); an existing index keeps its own (TRIDENT_GRAPH_BACKEND).",
    )

    @field_validator("tenant")
    @classmethod
    def _tenant_is_a_name(cls, value: str) -> str:
        if not value or not value.replace("-", "").replace("_", "").isalnum():
            raise ValueError("TRIDENT_TENANT must be letters, digits, '-' or '_'")
        return value

    @property
    def index_dir(self) -> Path:
        return self.home / "tenants" / self.tenant


# S3's bucket naming rules (lower-case letters, digits, dots and hyphens, 3 to 63 long, a letter or digit at each end).
BUCKET_NAME = re.compile(r"^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$")


class StorageSettings(BaseSettings):
    """Where a shared index lives when it is not a local folder: S3-compatible object storage (#18).

    The endpoint and credentials are the standard AWS variables, so any S3 tool configured for the same bucket
    reads them too; unset, boto3's own chain (~/.aws, an instance role) supplies them.
    """

    model_config = SettingsConfigDict(env_prefix="TRIDENT_", extra="ignore", populate_by_name=True)

    storage: str | None = Field(
        None,
        description="`s3://bucket/prefix`: keep the index in object storage under that prefix (TRIDENT_STORAGE); "
        "unset, it stays in TRIDENT_HOME.",
    )
    endpoint_url: str | None = Field(
        None,
        validation_alias="AWS_ENDPOINT_URL",
        description="An S3-compatible server's URL (AWS_ENDPOINT_URL); unset, AWS's own.",
    )
    access_key_id: str | None = Field(None, validation_alias="AWS_ACCESS_KEY_ID", description="AWS_ACCESS_KEY_ID")
    secret_access_key: SecretStr | None = Field(
        None,
        validation_alias="AWS_SECRET_ACCESS_KEY",
        description="AWS_SECRET_ACCESS_KEY",
    )
    region: str | None = Field(
        None,
        validation_alias=AliasChoices("AWS_REGION", "AWS_DEFAULT_REGION"),
        description="AWS_REGION or AWS_DEFAULT_REGION; unset, boto3 finds it (profile, instance metadata) or does "
        "without.",
    )

    storage_refresh_s: float = Field(
        10.0,
        gt=0,
        description="How often `trident serve` reads the shared index's pointer and pulls a newer generation into its "
        "cache, in seconds (TRIDENT_STORAGE_REFRESH_S): the longest a server answers from the previous one.",
    )

    storage_grace_s: float = Field(
        3600.0,
        ge=0,
        description="How long `trident gc` keeps what the published generation no longer needs, in seconds "
        "(TRIDENT_STORAGE_GRACE_S): a file list superseded less than this long ago, and every blob or file list "
        "uploaded less than this long ago, stay (a server still pulling an older generation, a writer uploading).",
    )

    storage_gc_s: float = Field(
        3600.0,
        ge=0,
        description="How often the shared index is collected, in seconds (TRIDENT_STORAGE_GC_S): a writer that has "
        "just published runs the collection `trident gc` runs when the last one is at least this old; 0 leaves "
        "collecting to `trident gc` alone.",
    )

    @field_validator("storage")
    @classmethod
    def _an_s3_location(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        scheme, sep, rest = value.partition("://")
        bucket = rest.partition("/")[0]
        if scheme != "s3" or not sep:
            raise ValueError(f"TRIDENT_STORAGE {value!r} must be s3://bucket/prefix (the only backend besides local)")
        if not BUCKET_NAME.match(bucket):
            raise ValueError(
                f"TRIDENT_STORAGE {value!r}: {bucket!r} is not an S3 bucket name "
                "(3 to 63 lower-case letters, digits, '.' or '-')"
            )
        if any(not part for part in rest.strip("/").split("/")[1:]):
            raise ValueError(f"TRIDENT_STORAGE {value!r} has an empty part in its prefix ('//')")
        return value

    @property
    def bucket(self) -> str | None:
        """The bucket named by TRIDENT_STORAGE (None: local storage)."""
        return self.storage.partition("://")[2].partition("/")[0] if self.storage else None

    @property
    def prefix(self) -> str:
        """The key prefix under the bucket, without slashes at its ends ('' for the bucket's root)."""
        return self.storage.partition("://")[2].partition("/")[2].strip("/") if self.storage else ""
