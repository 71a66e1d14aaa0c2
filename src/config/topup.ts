/**
 * `automation.topup` (Splice's Helm `topup`, HOCON `domains.global.buy-extra-traffic` and
 * `reserved-traffic`): the validator buys extra traffic for its participant so that it can keep
 * sending `targetThroughput` bytes per second above the free base rate.
 */
import { z } from "zod";
import { duration } from "./duration.js";

export const MAX_TARGET_THROUGHPUT = 10_000_000;

export const TopupSchema = z
  .strictObject({
    enabled: z.boolean().default(false),
    /**
     * Bytes per second to sustain; 0 buys nothing (Splice's code default; its Helm chart uses 20000).
     * Otherwise 1 to 10^7: below a byte a second a purchase would take forever to be due, and
     * 1e308 made every purchase infinite.
     */
    targetThroughput: z
      .number()
      .refine((v) => v === 0 || (v >= 1 && v <= MAX_TARGET_THROUGHPUT), `must be 0, or from 1 to ${MAX_TARGET_THROUGHPUT} bytes per second`)
      .default(0),
    /** Least time between two purchases (Splice's code default 10m; its Helm chart "1m"). */
    minTopupInterval: duration.prefault("10m"),
    /** Bytes kept for the top-up itself: the operator's other submissions stop below it. */
    reservedTraffic: z.number().int().nonnegative().default(200_000),
  })
  .prefault({});

export type TopupConfig = z.infer<typeof TopupSchema>;
