"""Connecting to the Ray cluster of TRIDENT_RAY_ADDRESS (#18), for the parts of an index run that go to it (parsing,
embedding): refused at once, with what to do, when ray is missing or nothing answers (Ray itself would retry a
missing cluster for minutes)."""

from __future__ import annotations

import logging
import socket
from typing import Any

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class ClusterSettings(BaseSettings):
    """Where index runs parse and embed: in this process, or on the workers of a Ray cluster (#18)."""

    model_config = SettingsConfigDict(env_prefix="TRIDENT_", extra="ignore")

    ray_address: str | None = Field(
        None,
        description="The Ray cluster `trident index` and `trident watch` parse and embed on (TRIDENT_RAY_ADDRESS): "
        "`auto`, or the `host:port` a `ray start --head` printed; unset, they do both in their own process.",
    )
    ray_workers: int = Field(
        2,
        ge=1,
        le=1024,
        description="Embedding workers on that cluster, one CPU and one copy of the model each, and parse tasks in "
        "flight at a time (TRIDENT_RAY_WORKERS).",
    )

    @field_validator("ray_address")
    @classmethod
    def _blank_is_unset(cls, value: str | None) -> str | None:
        return (value.strip() or None) if value is not None else None


# How long the head's port may take to accept a connection.
CONNECT_TIMEOUT_S = 10.0


class ClusterUnavailable(RuntimeError):
    """The Ray cluster cannot be used: ray is not installed, or nothing answers at the address."""


def connect_ray(cluster: ClusterSettings) -> Any:
    """The `ray` module, connected to the cluster (once per process).

    Raises:
        ClusterUnavailable: ray is not installed, or the cluster does not answer.
    """
    try:
        import ray
    except ImportError as exc:
        raise ClusterUnavailable(
            "TRIDENT_RAY_ADDRESS is set but ray is not installed here: pip install 'trident-mcp[ray]' (or unset it "
            "to index on this machine alone)"
        ) from exc
    if not ray.is_initialized():
        _check_reachable(cluster.ray_address)
        try:
            ray.init(
                address=cluster.ray_address,
                logging_level=logging.WARNING,
                log_to_driver=False,  # the workers' output would reach this process's stdout
                configure_logging=False,
            )
        except ConnectionError as exc:
            raise ClusterUnavailable(_no_cluster(cluster.ray_address, str(exc))) from exc
    return ray


def _no_cluster(address: str | None, reason: str) -> str:
    return (
        f"no Ray cluster answers at TRIDENT_RAY_ADDRESS={address} ({reason}): start one with `ray start --head` (it "
        "prints the address), or unset the variable to index on this machine alone"
    )


def _check_reachable(address: str | None) -> None:
    """Fail at once when a `host:port` (or `ray://host:port`) cluster does not accept connections.

    Raises:
        ClusterUnavailable: nothing listens there.
    """
    if address is None or address == "auto":
        return  # Ray finds (or fails to find) the cluster this machine started
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        raise ClusterUnavailable(
            f"TRIDENT_RAY_ADDRESS={address} is not `auto` or host:port (what `ray start --head` prints)"
        )
    try:
        socket.create_connection((host, int(port)), timeout=CONNECT_TIMEOUT_S).close()
    except OSError as exc:
        raise ClusterUnavailable(_no_cluster(address, exc.strerror or str(exc))) from exc
