/**
 * The closing test of a `/v0` suite: every response it logged is checked against the Splice
 * OpenAPI files (../shared/reference/openapi). Without the folder the test is skipped, and its
 * suite's name says so and where the folder was looked for.
 */
import { describe, expect, it } from "vitest";
import { loadOpenApi, OPENAPI_DIR, type ResponseLog } from "./openapi-validator.js";

export interface Conformance {
  /** The test's name: what it checks. */
  readonly title: string;
  /** Statuses whose bodies must match their documented schema (default: 200). */
  readonly success?: (status: number) => boolean;
  /** The operations the suite must have exercised, sorted; unchecked when absent. */
  readonly operations?: readonly string[];
  /** Operations the suite must have exercised among others. */
  readonly operationsInclude?: readonly string[];
  /** Whether every error body must match too (`{error}`); default true. */
  readonly errors?: boolean;
}

/** `log` is read when the test runs, after the suite's other tests filled it. */
export function describeOpenApiConformance(log: () => ResponseLog, expected: Conformance): void {
  const openapi = loadOpenApi();
  describe(`responses against the Splice OpenAPI${openapi ? "" : ` (SKIPPED: ${OPENAPI_DIR} not found)`}`, () => {
    it.skipIf(!openapi)(expected.title, () => {
      const ok = log().check(openapi!, expected.success);
      expect(ok.problems).toEqual([]);
      if (expected.operations) expect([...ok.operations].sort()).toEqual(expected.operations);
      for (const operation of expected.operationsInclude ?? []) expect(ok.operations).toContain(operation);
      if (expected.errors ?? true) expect(log().check(openapi!, (status) => status >= 400).problems).toEqual([]);
    });
  });
}
