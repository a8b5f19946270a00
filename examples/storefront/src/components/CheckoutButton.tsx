import { useState } from "react";
import { Cart } from "../cart/cart";
import { startCheckout } from "../cart/checkoutFlow";

/** The checkout button: disabled while a checkout is in flight. */
export function CheckoutButton({ cart, orderId }: { cart: Cart; orderId: string }) {
  const [busy, setBusy] = useState(false);
  const onClick = async () => {
    setBusy(true);
    try {
      await startCheckout(cart, orderId);
    } finally {
      setBusy(false);
    }
  };
  return (
    <button disabled={busy} onClick={onClick}>
      Pay now
    </button>
  );
}
