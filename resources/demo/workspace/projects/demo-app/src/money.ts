// Money helpers: every amount is an integer number of cents.

export type Cents = number;

/** Converts a decimal amount such as 19.99 into cents. */
export function toCents(amount: number): Cents {
  return Math.round(amount * 100);
}

/** Formats cents for display, e.g. 1083 -> "$10.83". */
export function formatCents(cents: Cents, currency = "USD"): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency }).format(cents / 100);
}
