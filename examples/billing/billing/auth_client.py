"""Client for the auth service: billing never parses tokens itself."""

from __future__ import annotations

import json
import urllib.request


class TokenRejected(Exception):
    """The auth service said the token is invalid or expired."""


class AuthClient:
    """Calls the auth service's /verify endpoint (see auth/docs/token-design.md)."""

    def __init__(self, base_url: str = "http://auth.internal:8080") -> None:
        self.base_url = base_url

    def verify_token(self, token: str) -> str:
        """Ask the auth service to verify a customer token; returns the subject id."""
        request = urllib.request.Request(
            f"{self.base_url}/verify", data=json.dumps({"token": token}).encode(), method="POST"
        )
        with urllib.request.urlopen(request, timeout=2) as response:  # noqa: S310 - internal URL
            payload = json.load(response)
        if not payload.get("valid"):
            raise TokenRejected(payload.get("reason", "invalid token"))
        return payload["subject"]
