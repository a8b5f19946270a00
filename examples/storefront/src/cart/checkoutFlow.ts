import { BillingClient, CheckoutResult } from "../api/billingClient";
import { currentSession } from "../auth/session";
import { Cart, computeTotal } from "./cart";

/** Start a checkout: refuse an empty cart, then hand the lines to billing. */
export async function startCheckout(cart: Cart, orderId: string): Promise<CheckoutResult> {
  const lines = cart.items();
  if (computeTotal(lines) <= 0) {
    throw new Error("the cart is empty");
  }
  const session = currentSession();
  const client = new BillingClient("/api/billing", session.token);
  return client.checkout(orderId, lines);
}
