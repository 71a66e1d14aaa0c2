/**
 * `automation.topup` (Splice's Helm `topup`, HOCON `domains.global.buy-extra-traffic` and
 * `reserved-traffic`): the validator buys extra traffic for its participant so that it can keep
 * sending `targetThroughput` bytes per second above the free base rate.
 */
import { z } from "zod";
import { duration } from "./duration.js";

export const TopupSchema = z
  .strictObject({
    enabled: z.boolean().default(false),
    /** Bytes per second to sustain; 0 buys nothing (Splice's code default; its Helm chart uses 20000). */
    targetThroughput: z.number().nonnegative().default(0),
    /** Least time between two purchases (Splice's code default 10m; its Helm chart "1m"). */
    minTopupInterval: duration.prefault("10m"),
    /** Bytes kept for the top-up itself: the operator's other submissions stop below it. */
    reservedTraffic: z.number().int().nonnegative().default(200_000),
  })
  .prefault({});

export type TopupConfig = z.infer<typeof TopupSchema>;
