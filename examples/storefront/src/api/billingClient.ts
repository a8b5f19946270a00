import { CartLine } from "../cart/cart";

export interface CheckoutResult {
  invoiceNumber: string;
  amountCents: number;
}

/** HTTP client for the billing service's checkout endpoint. */
export class BillingClient {
  constructor(private readonly baseUrl: string, private readonly sessionToken: string) {}

  /** Send the cart to billing; billing charges the customer and returns the invoice. */
  async checkout(orderId: string, lines: CartLine[]): Promise<CheckoutResult> {
    const response = await fetch(`${this.baseUrl}/orders/${orderId}/checkout`, {
      method: "POST",
      headers: { Authorization: `Bearer ${this.sessionToken}`, "Content-Type": "application/json" },
      body: JSON.stringify({ lines }),
    });
    if (!response.ok) {
      throw new Error(`checkout failed: ${response.status}`);
    }
    return (await response.json()) as CheckoutResult;
  }
}
