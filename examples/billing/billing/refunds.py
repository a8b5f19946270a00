"""Refunds: giving money back for a paid order, in full or in part."""

from __future__ import annotations

from billing.gateway import PaymentGateway
from billing.models import Order


class RefundService:
    """Issues refunds through the payment gateway and records them on the order."""

    def __init__(self, gateway: PaymentGateway) -> None:
        self.gateway = gateway

    def issue_refund(self, order: Order, charge_id: str, amount_cents: int | None = None) -> str:
        """Refund `amount_cents` (default: everything) of a paid order; returns the refund id."""
        if order.status != "paid":
            raise ValueError("only paid orders can be refunded")
        amount = order.amount_cents if amount_cents is None else amount_cents
        refund_id = self.gateway.refund(charge_id, amount, f"refund-{order.order_id}-{amount}")
        order.status = "refunded" if amount == order.amount_cents else "partially_refunded"
        return refund_id
