"""Order totals."""


def compute_order_total(items, discount):
    """The order's total in cents: the items' prices less the discount."""
    return sum(item.price_cents * item.quantity for item in items) - discount
