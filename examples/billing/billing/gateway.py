"""Payment gateways: the one place that talks to the card processor."""

from __future__ import annotations

import hashlib
import hmac


class PaymentDeclined(Exception):
    """The processor refused the card."""


class GatewayUnavailable(Exception):
    """The processor could not be reached; safe to retry with the same idempotency key."""


class PaymentGateway:
    """Charges and refunds cards through a card processor.

    Subclasses implement `_send`; this class signs every request and maps processor errors.
    """

    def __init__(self, api_key: str, secret: bytes) -> None:
        self.api_key = api_key
        self.secret = secret

    def charge(self, token: str, amount_cents: int, currency: str, idempotency_key: str) -> str:
        """Charge a card token and return the processor's charge id."""
        if amount_cents <= 0:
            raise ValueError("amount_cents must be positive")
        body = {"token": token, "amount": amount_cents, "currency": currency}
        response = self._send("/charges", body, sign_request(self.secret, idempotency_key))
        if response.get("status") == "declined":
            raise PaymentDeclined(response.get("reason", "declined"))
        return response["id"]

    def refund(self, charge_id: str, amount_cents: int, idempotency_key: str) -> str:
        """Refund part or all of a charge; returns the refund id."""
        body = {"charge": charge_id, "amount": amount_cents}
        return self._send("/refunds", body, sign_request(self.secret, idempotency_key))["id"]

    def _send(self, path: str, body: dict, signature: str) -> dict:
        raise NotImplementedError


class StripeGateway(PaymentGateway):
    """The production gateway: Stripe's REST API over HTTPS."""

    def _send(self, path: str, body: dict, signature: str) -> dict:
        # The HTTP client is injected in production; the sample keeps the call shape only.
        raise GatewayUnavailable(f"no network in the sample for {path}")


def sign_request(secret: bytes, idempotency_key: str) -> str:
    """HMAC-SHA256 signature the processor checks on every request."""
    return hmac.new(secret, idempotency_key.encode(), hashlib.sha256).hexdigest()
