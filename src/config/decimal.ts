/**
 * Exact decimal amounts in the config file: a decimal string (or a JSON number, as Helm values
 * often are) that becomes a Numeric, never a float.
 */
import { z } from "zod";
import { Numeric } from "../ledger/numeric.js";

export const decimal = z
  .union([z.string(), z.number()])
  .transform((v, ctx) => {
    try {
      return Numeric.parse(typeof v === "number" ? String(v) : v);
    } catch {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `not a decimal: ${v}` });
      return z.NEVER;
    }
  });
export const positive = decimal.refine((n) => n.isPositive(), "must be positive");
export const nonNegative = decimal.refine((n) => !n.isNegative(), "must not be negative");
