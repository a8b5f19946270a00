"""From an order to a charge: amounts, idempotency keys and retries around the gateway."""

from __future__ import annotations

import time

from billing.gateway import GatewayUnavailable, PaymentGateway
from billing.models import Order

MAX_ATTEMPTS = 3


class PaymentAdapter:
    """Turns an order into exactly one gateway charge, retrying transport failures."""

    def __init__(self, gateway: PaymentGateway) -> None:
        self.gateway = gateway

    def process(self, order: Order) -> str:
        """Charge the order's customer; returns the charge id. Retries are safe: the key is per order."""
        key = idempotency_key(order.order_id)
        for attempt in range(1, MAX_ATTEMPTS + 1):
            try:
                return self.gateway.charge(order.customer.payment_token, order.amount_cents, order.currency, key)
            except GatewayUnavailable:
                if attempt == MAX_ATTEMPTS:
                    raise
                time.sleep(0.2 * 2**attempt)
        raise AssertionError("unreachable")


def idempotency_key(order_id: str) -> str:
    return f"order-{order_id}"
