"""Checkout: the entry point the storefront calls to turn a cart into a paid order."""

from __future__ import annotations

from billing.auth_client import AuthClient
from billing.invoices import InvoiceBuilder
from billing.models import Invoice, Order
from billing.payments import PaymentAdapter


class OrderService:
    """Places orders: verifies the customer, charges through the PaymentAdapter, issues the invoice."""

    def __init__(self, payments: PaymentAdapter, auth: AuthClient, invoices: InvoiceBuilder) -> None:
        self.payments = payments
        self.auth = auth
        self.invoices = invoices

    def checkout(self, order: Order, customer_token: str) -> Invoice:
        """Verify the caller, charge the order and return its invoice."""
        self.auth.verify_token(customer_token)
        if not order.lines:
            raise ValueError("an order needs at least one line")
        charge_id = self.payments.process(order)
        order.status = "paid"
        return self.invoices.build(order, charge_id)

    def cancel(self, order: Order) -> None:
        """Cancel an unpaid order."""
        if order.status == "paid":
            raise ValueError("paid orders are refunded, not cancelled")
        order.status = "cancelled"
