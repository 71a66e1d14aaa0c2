/** The OpenAPI response validator used by the /v0 API tests: lookup, schemas, unions, strictness. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadOpenApi, OPENAPI_DIR } from "../support/openapi-validator.js";

const openapi = loadOpenApi();
const absent = openapi ? "" : ` (SKIPPED: ${OPENAPI_DIR} not found)`;

describe(`OpenAPI validator on the Splice files${absent}`, () => {
  it.skipIf(!openapi)("finds operations with and without the /api/validator prefix and behind the scan proxy", () => {
    const v = openapi!;
    expect(v.checkResponse("GET", "/v0/wallet/balance", 200, {}).operation).toBe("wallet-internal.yaml#getBalance");
    expect(v.checkResponse("GET", "/api/validator/v0/wallet/balance", 200, {}).operation).toBe("wallet-internal.yaml#getBalance");
    expect(v.checkResponse("POST", "/api/validator/v0/scan-proxy/registry/transfer-instruction/v1/00ab/choice-contexts/accept", 200, {}).operation).toBe(
      "transfer-instruction-v1.yaml#getTransferInstructionAcceptContext",
    );
    expect(v.checkResponse("GET", "/v0/admin/transfer-preapprovals/by-party/alice::1220", 200, {}).operation).toBe(
      "validator-internal.yaml#lookupTransferPreapprovalByParty",
    );
    expect(v.checkResponse("GET", "/v0/no-such-thing", 200, {}).problems[0]).toMatch(/no operation GET \/v0\/no-such-thing/);
    // 200 without a body schema (reject): nothing to check
    expect(v.checkResponse("POST", "/v0/wallet/transfer-offers/00ab/reject", 200, {})).toMatchObject({ checked: false, problems: [] });
  });

  it.skipIf(!openapi)("checks required properties, types, int64 integers and undeclared keys", () => {
    const v = openapi!;
    const ok = { round: 3, effective_unlocked_qty: "1.0", effective_locked_qty: "0.0", total_holding_fees: "0.0" };
    expect(v.checkResponse("GET", "/v0/wallet/balance", 200, ok)).toMatchObject({ checked: true, problems: [] });
    const { round: _, ...missing } = ok;
    expect(v.checkResponse("GET", "/v0/wallet/balance", 200, missing).problems).toEqual(["$: missing required property round"]);
    expect(v.checkResponse("GET", "/v0/wallet/balance", 200, { ...ok, round: "3" }).problems).toEqual(["$.round: expected an integer, got string"]);
    expect(v.checkResponse("GET", "/v0/wallet/balance", 200, { ...ok, extra: 1 }).problems).toEqual(["$: property extra is not in the schema"]);
    expect(v.checkResponse("GET", "/v0/wallet/balance", 404, { error: "no wallet" }).problems).toEqual([]);
    expect(v.checkResponse("GET", "/v0/wallet/balance", 404, { message: "no wallet" }).problems).toContain("$: missing required property error");
  });

  it.skipIf(!openapi)("validates discriminated unions through allOf, with the discriminator's mapping", () => {
    const v = openapi!;
    const path = "/v0/wallet/transfer-offers/t-1/status";
    expect(v.checkResponse("POST", path, 200, { status: "created", transaction_id: "u", contract_id: "c" }).problems).toEqual([]);
    expect(v.checkResponse("POST", path, 200, { status: "failed", failure_kind: "withdrawn", withdrawn_reason: "x" }).problems).toEqual([]);
    expect(v.checkResponse("POST", path, 200, { status: "failed", failure_kind: "lost" }).problems[0]).toMatch(/failure_kind: "lost" is not one of/);
    expect(v.checkResponse("POST", path, 200, { status: "created", transaction_id: "u" }).problems).toEqual(["$: missing required property contract_id"]);
    expect(v.checkResponse("POST", path, 200, { status: "gone" }).problems[0]).toMatch(/"gone" is not one of created, accepted, completed, failed/);
    expect(v.checkResponse("POST", path, 200, { transaction_id: "u" }).problems).toEqual(["$: missing discriminator status"]);
  });

  it.skipIf(!openapi)("decides oneOf without discriminator by exactly one matching branch", () => {
    const v = openapi!;
    const path = "/v0/wallet/token-standard/transfers";
    const base = { sender_change_cids: [], meta: {} };
    expect(v.checkResponse("POST", path, 200, { ...base, output: { transfer_instruction_cid: "c" } }).problems).toEqual([]);
    expect(v.checkResponse("POST", path, 200, { ...base, output: { receiver_holding_cids: ["h"] } }).problems).toEqual([]);
    expect(v.checkResponse("POST", path, 200, { ...base, output: {} }).problems).toEqual([]);
    expect(v.checkResponse("POST", path, 200, { ...base, output: { other: 1 } }).problems[0]).toMatch(/matches 0 of the 3 oneOf branches/);
    expect(v.checkResponse("POST", path, 200, { ...base, meta: { k: 1 }, output: {} }).problems).toEqual(["$.meta.k: expected a string, got number"]);
  });

  it.skipIf(!openapi)("checks date-time strings", () => {
    const item = {
      transaction_type: "notification",
      transaction_subtype: { template_id: "t", choice: "c" },
      event_id: "e",
      date: "2025-01-02T03:04:05.123Z",
      details: "d",
    };
    expect(openapi!.checkResponse("POST", "/v0/wallet/transactions", 200, { items: [item] }).problems).toEqual([]);
    expect(openapi!.checkResponse("POST", "/v0/wallet/transactions", 200, { items: [{ ...item, date: "yesterday" }] }).problems[0]).toMatch(/not an RFC 3339/);
  });
});

describe("OpenAPI validator on a synthetic file", () => {
  const dir = mkdtempSync(join(tmpdir(), "ccwallet-openapi-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(
    join(dir, "t.yaml"),
    [
      "openapi: 3.0.0",
      "paths:",
      "  /v0/things/{id}:",
      "    get:",
      "      operationId: getThing",
      "      responses:",
      "        '200':",
      "          content:",
      "            application/json:",
      "              schema: { $ref: '#/components/schemas/Thing' }",
      "components:",
      "  schemas:",
      "    Thing:",
      "      type: object",
      "      required: [name, tags]",
      "      properties:",
      "        name: { type: string, nullable: true }",
      "        size: { type: integer, format: int32 }",
      "        tags: { type: object, additionalProperties: { type: integer } }",
      "        free: { type: object }",
    ].join("\n"),
  );
  const v = loadOpenApi(dir)!;

  it("honours nullable, int32 ranges, additionalProperties schemas and free-form objects", () => {
    expect(v.checkResponse("GET", "/v0/things/1", 200, { name: null, tags: { a: 1 }, free: { anything: [1] } }).problems).toEqual([]);
    expect(v.checkResponse("GET", "/v0/things/1", 200, { name: "n", tags: { a: "x" }, size: 2 ** 31 }).problems.slice().sort()).toEqual([
      "$.size: 2147483648 is not an int32",
      "$.tags.a: expected an integer, got string",
    ]);
    expect(v.checkResponse("GET", "/v0/things/1", 200, { name: "n", tags: {}, free: null }).problems).toEqual(["$.free: null is not allowed"]);
  });

  it("is undefined, with a clear message, when the folder is absent", () => {
    expect(loadOpenApi(join(dir, "missing"))).toBeUndefined();
  });
});
