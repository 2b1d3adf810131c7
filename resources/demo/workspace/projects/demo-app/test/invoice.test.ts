import { test } from "node:test";
import assert from "node:assert/strict";
import { invoiceTotal } from "../src/invoice.ts";

test("two widgets at 5.00 with 8.25% tax cost 10.83", () => {
  assert.equal(invoiceTotal([{ description: "Widget", unitPrice: 5, quantity: 2 }], 0.0825), 1083);
});

test("an empty invoice costs nothing", () => {
  assert.equal(invoiceTotal([], 0.0825), 0);
});
