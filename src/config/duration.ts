/**
 * Durations in config files as Splice's Helm values write them (`"30s"`, `"1m"`, `"10m"`,
 * `"1h"`, `"500ms"`) or as ISO-8601 (`"PT1M"`, `"PT1H30M"`, `"PT0.5S"`), parsed to milliseconds.
 */
import { z } from "zod";

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const SHORT = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/;
const ISO = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/i;

/** Milliseconds, or undefined when the text is no duration. */
export function parseDurationMs(text: string): number | undefined {
  const short = SHORT.exec(text.trim());
  if (short) return Math.round(Number(short[1]) * UNIT_MS[short[2]!]!);
  const iso = ISO.exec(text.trim());
  if (!iso || text.trim().toUpperCase() === "P" || /T$/i.test(text.trim())) return undefined;
  const [, d, h, m, s] = iso;
  return Math.round(Number(d ?? 0) * UNIT_MS.d! + Number(h ?? 0) * UNIT_MS.h! + Number(m ?? 0) * UNIT_MS.m! + Number(s ?? 0) * 1_000);
}

/** The longest duration a config takes: ten years (a longer one is a typo, and "9…9d" was Infinity). */
export const MAX_DURATION_MS = 3650 * UNIT_MS.d!;

/** A duration string in the config, as milliseconds. */
export const duration = z.string().transform((text, ctx) => {
  const ms = parseDurationMs(text);
  if (ms === undefined) {
    ctx.issues.push({ code: "custom", input: text, message: `not a duration: ${JSON.stringify(text)} (write e.g. "30s", "1m", "10m" or "PT1M")` });
    return z.NEVER;
  }
  if (!(ms <= MAX_DURATION_MS)) {
    ctx.issues.push({ code: "custom", input: text, message: `${JSON.stringify(text)} is longer than the longest duration taken, 3650d` });
    return z.NEVER;
  }
  return ms;
});
