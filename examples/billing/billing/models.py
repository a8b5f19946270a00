"""Plain data records shared by the billing modules. Money is always integer cents."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date


@dataclass(frozen=True)
class Customer:
    """A paying customer, identified by the auth service's subject id."""

    customer_id: str
    email: str
    payment_token: str


@dataclass
class OrderLine:
    sku: str
    quantity: int
    unit_price_cents: int

    @property
    def total_cents(self) -> int:
        return self.quantity * self.unit_price_cents


@dataclass
class Order:
    """An order placed by the storefront; `status` moves from new to paid or failed."""

    order_id: str
    customer: Customer
    lines: list[OrderLine] = field(default_factory=list)
    currency: str = "EUR"
    status: str = "new"

    @property
    def amount_cents(self) -> int:
        return sum(line.total_cents for line in self.lines)


@dataclass(frozen=True)
class Invoice:
    number: str
    order_id: str
    amount_cents: int
    issued_on: date
