export interface CartLine {
  sku: string;
  quantity: number;
  unitPriceCents: number;
}

/** The shopping cart; amounts are integer cents, like billing's. */
export class Cart {
  private lines: CartLine[] = [];

  add(line: CartLine): void {
    const existing = this.lines.find((l) => l.sku === line.sku);
    if (existing) {
      existing.quantity += line.quantity;
    } else {
      this.lines.push({ ...line });
    }
  }

  remove(sku: string): void {
    this.lines = this.lines.filter((l) => l.sku !== sku);
  }

  items(): CartLine[] {
    return [...this.lines];
  }
}

/** Compute the cart total in cents: the sum of quantity times unit price over all lines. */
export function computeTotal(lines: CartLine[]): number {
  return lines.reduce((sum, line) => sum + line.quantity * line.unitPriceCents, 0);
}
