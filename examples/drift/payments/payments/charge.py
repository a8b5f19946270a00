"""Charging a card, with a bounded number of retries."""

MAX_RETRIES = 3


def charge_card(card, amount_cents):
    """Charge the card, retrying a decline up to MAX_RETRIES times."""
    for _ in range(MAX_RETRIES):
        if card.charge(amount_cents):
            return True
    return False
