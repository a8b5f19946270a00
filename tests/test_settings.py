"""Settings are typed, validated, and every one of them is documented in the README."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from tests.conftest import HashEmbedder
from trident.embedding.model_settings import ModelSettings
from trident.host.ray_cluster import ClusterSettings
from trident.ingest.ingest_settings import IngestSettings
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.server.context import make_lifespan
from trident.server.server_settings import ServerSettings, TridentSettings
from trident.store.catalog import Catalog
from trident.store.settings import StoreSettings

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()


@pytest.mark.parametrize(
    "settings", [StoreSettings, ModelSettings, ClusterSettings, IngestSettings, RetrievalSettings, ServerSettings]
)
def test_every_setting_appears_in_the_readme_environment_table(settings: type) -> None:
    missing = [f"TRIDENT_{name.upper()}" for name in settings.model_fields if f"TRIDENT_{name.upper()}" not in README]
    assert not missing, f"document these in README.md: {missing}"


def test_binding_http_off_loopback_without_a_token_is_refused() -> None:
    with pytest.raises(ValidationError, match="TRIDENT_TOKEN"):
        ServerSettings(transport="streamable-http", host="0.0.0.0")
    assert ServerSettings(transport="streamable-http", host="0.0.0.0", token="s3cret").token is not None
    assert ServerSettings(transport="streamable-http", host="127.0.0.1").token is None


def test_allowed_roots_are_read_from_a_colon_separated_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRIDENT_ALLOWED_ROOTS", "/srv/a:/srv/b")
    assert ServerSettings().allowed_roots == [Path("/srv/a"), Path("/srv/b")]


def test_a_tenant_name_with_path_characters_is_refused() -> None:
    with pytest.raises(ValidationError, match="TRIDENT_TENANT"):
        StoreSettings(tenant="../other")


def test_a_damping_outside_zero_to_one_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRIDENT_PPR_DAMPING", "1.5")
    with pytest.raises(ValidationError, match="ppr_damping"):
        RetrievalSettings()


def test_the_settings_bundle_reads_every_concern_from_the_environment_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRIDENT_PPR_DAMPING", "0.5")
    monkeypatch.setenv("TRIDENT_MAX_FILE_BYTES", "5000")
    monkeypatch.setenv("TRIDENT_READ_ONLY", "true")
    settings = TridentSettings.from_env()
    assert (settings.retrieval.ppr_damping, settings.ingest.max_file_bytes) == (0.5, 5000)
    assert settings.server.read_only
    assert not TridentSettings.from_env(ServerSettings(read_only=False)).server.read_only, "a given server wins"


@pytest.mark.anyio
async def test_a_server_runs_with_the_settings_it_was_given_not_the_environment_of_the_moment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TRIDENT_PPR_DAMPING", "0.5")
    monkeypatch.setenv("TRIDENT_MAX_FILE_BYTES", "5000")
    settings = TridentSettings.from_env(ServerSettings(warm_up=False))
    monkeypatch.setenv("TRIDENT_PPR_DAMPING", "0.9")
    monkeypatch.setenv("TRIDENT_MAX_FILE_BYTES", "9000")
    catalog = Catalog(tmp_path / "index", "default", HashEmbedder())
    try:
        async with make_lifespan(settings, lambda: catalog, close_catalog=False)(None) as context:
            assert context.views.settings.ppr_damping == 0.5
            assert context.limits.max_file_bytes == 5000 and context.settings is settings.server
    finally:
        catalog.close()
