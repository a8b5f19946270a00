"""Settings are typed, validated, and every one of them is documented in the README."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError
from trident.server.settings import ServerSettings
from trident.store.settings import IngestSettings, ModelSettings, RetrievalSettings, StoreSettings

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()


@pytest.mark.parametrize("settings", [StoreSettings, ModelSettings, IngestSettings, RetrievalSettings, ServerSettings])
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
