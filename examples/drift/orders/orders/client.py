"""The warehouse client: how long a request may take and how often it is retried."""

DEFAULT_TIMEOUT_S = 10
MAX_RETRIES = 5


def submit_order(order):
    """Send one order to the warehouse, retrying up to MAX_RETRIES times."""
    for attempt in range(MAX_RETRIES):
        if order.send(timeout=DEFAULT_TIMEOUT_S, attempt=attempt):
            return True
    return False
