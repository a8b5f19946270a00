"""Invoices: sequential numbering per year and a plain-text rendering."""

from __future__ import annotations

from datetime import date

from billing.models import Invoice, Order


class InvoiceBuilder:
    """Numbers invoices INV-<year>-<sequence> and renders them for e-mail."""

    def __init__(self) -> None:
        self._sequence = 0

    def build(self, order: Order, charge_id: str) -> Invoice:
        self._sequence += 1
        today = date.today()
        return Invoice(f"INV-{today.year}-{self._sequence:05d}", order.order_id, order.amount_cents, today)


def render_invoice(invoice: Invoice) -> str:
    """The invoice as text, amounts formatted from integer cents."""
    euros, cents = divmod(invoice.amount_cents, 100)
    return f"Invoice {invoice.number}\nOrder {invoice.order_id}\nTotal: {euros}.{cents:02d} EUR\n"
