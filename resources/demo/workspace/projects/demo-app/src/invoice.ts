import { type Cents, toCents } from "./money.ts";

export interface LineItem {
  description: string;
  unitPrice: number;
  quantity: number;
}

/** Total of one line in cents. */
export function lineTotal(item: LineItem): Cents {
  return toCents(item.unitPrice) * item.quantity;
}

/** Subtotal plus tax, rounded half up to whole cents. */
export function invoiceTotal(items: LineItem[], taxRate: number): Cents {
  const subtotal = items.reduce((sum, item) => sum + lineTotal(item), 0);
  return subtotal + Math.round(subtotal * taxRate);
}
