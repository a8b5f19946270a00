from billing.models import Customer, Order, OrderLine


def test_order_amount_is_the_sum_of_its_lines_in_cents():
    order = Order("o-1", Customer("c-1", "a@example.com", "tok"), [OrderLine("sku-1", 2, 1250)])
    assert order.amount_cents == 2500
