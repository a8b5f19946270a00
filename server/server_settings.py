"""Server settings (transport, binding, access, which folders index_path may read), and the bundle of every
setting a process runs with, read once where the process starts and passed down."""

from __future__ import annotations

import ipaddress
import re
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from trident.embedding.model_settings import ModelSettings
from trident.host.ray_cluster import ClusterSettings
from trident.ingest.ingest_settings import IngestSettings
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.store.settings import StoreSettings

TENANT_NAME = re.compile(r"[A-Za-z0-9_-]+")


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class ServerSettings(BaseSettings):
    """How `trident serve` listens and what it lets clients do."""

    # Errors name the setting, never echo its value: a rejected TRIDENT_TOKENS must not print the tokens.
    model_config = SettingsConfigDict(env_prefix="TRIDENT_", extra="ignore", hide_input_in_errors=True)

    transport: Literal["stdio", "streamable-http", "sse"] = Field("stdio", description="TRIDENT_TRANSPORT")
    host: str = Field("127.0.0.1", description="Bind address for HTTP transports (TRIDENT_HOST).")
    port: int = Field(8765, ge=1, le=65535, description="Port for HTTP transports (TRIDENT_PORT).")
    token: SecretStr | None = Field(None, description="Bearer token HTTP clients must send (TRIDENT_TOKEN).")
    tokens: dict[str, str] = Field(
        default_factory=dict,
        repr=False,
        description='More bearer tokens, each answering from its own tenant: JSON {"token": "tenant"} '
        "(TRIDENT_TOKENS). TRIDENT_TOKEN answers from TRIDENT_TENANT.",
    )
    read_only: bool = Field(False, description="Register no write tools (TRIDENT_READ_ONLY).")
    allowed_roots: Annotated[list[Path], NoDecode] = Field(
        default_factory=list,
        description="Folders index_path may read, separated by ':' (TRIDENT_ALLOWED_ROOTS); empty = none.",
    )
    max_body_bytes: int = Field(1_000_000, ge=1_000, description="Largest HTTP request body accepted.")
    watch: bool = Field(
        False, description="Re-index folders indexed through index_path as their files change (TRIDENT_WATCH)."
    )
    model_wait_seconds: float = Field(
        120.0,
        ge=0.0,
        description="How long a search waits for what its paths read while it loads after a start (the embedding "
        "model; on a large index the walk's views), so the first answers are complete (TRIDENT_MODEL_WAIT_SECONDS); "
        "0 answers at once from what is ready, and the answer's message names the paths left out.",
    )
    warm_up: bool = Field(
        True,
        description="Build the entity directory, in-memory graph and walk graph in the background at start, so the "
        "first graph question does not wait for them (TRIDENT_WARM_UP).",
    )

    @field_validator("allowed_roots", mode="before")
    @classmethod
    def _split_roots(cls, value: object) -> object:
        if isinstance(value, str):
            return [Path(part).expanduser() for part in value.split(":") if part]
        return value

    @field_validator("tokens")
    @classmethod
    def _tokens_name_tenants(cls, value: dict[str, str]) -> dict[str, str]:
        for token, tenant in value.items():
            if not token.strip():
                raise ValueError("TRIDENT_TOKENS: a token cannot be empty")
            if not TENANT_NAME.fullmatch(tenant):
                raise ValueError(f"TRIDENT_TOKENS: tenant {tenant!r} must be letters, digits, '-' or '_'")
        return value

    @model_validator(mode="after")
    def _no_contradictions(self) -> ServerSettings:
        if self.token is not None and self.token.get_secret_value() in self.tokens:
            raise ValueError("TRIDENT_TOKEN is also a key of TRIDENT_TOKENS; give each token one tenant")
        if self.watch and self.read_only:
            raise ValueError("TRIDENT_WATCH re-indexes, which a read-only server cannot do; unset one of them")
        return self

    @model_validator(mode="after")
    def _token_off_loopback(self) -> ServerSettings:
        if self.transport != "stdio" and not is_loopback(self.host) and not self.tenant_tokens():
            raise ValueError(
                f"binding to {self.host} exposes the index beyond this machine; set TRIDENT_TOKEN to a secret "
                "bearer token, or bind to 127.0.0.1"
            )
        return self

    def tenant_tokens(self) -> dict[str, str | None]:
        """Every accepted bearer token and the tenant it answers from; None is the server's own tenant."""
        accepted: dict[str, str | None] = dict(self.tokens)
        if self.token is not None:
            accepted[self.token.get_secret_value()] = None
        return accepted

    def resolved_roots(self) -> list[Path]:
        return [root.resolve() for root in self.allowed_roots]


class TridentSettings(BaseModel):
    """Every setting one process runs with, one object per concern. Whoever starts the process (a CLI command, a
    test) reads them once, with `from_env`, and hands them down: nothing below reads a TRIDENT_* variable."""

    model_config = ConfigDict(frozen=True)

    store: StoreSettings
    model: ModelSettings
    cluster: ClusterSettings
    ingest: IngestSettings
    retrieval: RetrievalSettings
    server: ServerSettings

    @classmethod
    def from_env(cls, server: ServerSettings | None = None) -> TridentSettings:
        """Read every concern from the TRIDENT_* environment, except `server` when given (the serve command builds
        it from its options over the environment).

        Raises:
            ValidationError: a variable holds a value its setting refuses (the error names the setting).
        """
        return cls(
            store=StoreSettings(),
            model=ModelSettings(),
            cluster=ClusterSettings(),
            ingest=IngestSettings(),
            retrieval=RetrievalSettings(),
            server=server if server is not None else ServerSettings(),
        )
