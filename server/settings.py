"""Server settings: transport, binding, access, and which folders index_path may read."""

from __future__ import annotations

import ipaddress
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class ServerSettings(BaseSettings):
    """How `trident serve` listens and what it lets clients do."""

    model_config = SettingsConfigDict(env_prefix="TRIDENT_", extra="ignore")

    transport: Literal["stdio", "streamable-http", "sse"] = Field("stdio", description="TRIDENT_TRANSPORT")
    host: str = Field("127.0.0.1", description="Bind address for HTTP transports (TRIDENT_HOST).")
    port: int = Field(8765, ge=1, le=65535, description="Port for HTTP transports (TRIDENT_PORT).")
    token: SecretStr | None = Field(None, description="Bearer token HTTP clients must send (TRIDENT_TOKEN).")
    read_only: bool = Field(False, description="Register no write tools (TRIDENT_READ_ONLY).")
    allowed_roots: Annotated[list[Path], NoDecode] = Field(
        default_factory=list,
        description="Folders index_path may read, separated by ':' (TRIDENT_ALLOWED_ROOTS); empty = none.",
    )
    max_body_bytes: int = Field(1_000_000, ge=1_000, description="Largest HTTP request body accepted.")

    @field_validator("allowed_roots", mode="before")
    @classmethod
    def _split_roots(cls, value: object) -> object:
        if isinstance(value, str):
            return [Path(part).expanduser() for part in value.split(":") if part]
        return value

    @model_validator(mode="after")
    def _token_off_loopback(self) -> ServerSettings:
        if self.transport != "stdio" and not is_loopback(self.host) and self.token is None:
            raise ValueError(
                f"binding to {self.host} exposes the index beyond this machine; set TRIDENT_TOKEN to a secret "
                "bearer token, or bind to 127.0.0.1"
            )
        return self

    def resolved_roots(self) -> list[Path]:
        return [root.resolve() for root in self.allowed_roots]
