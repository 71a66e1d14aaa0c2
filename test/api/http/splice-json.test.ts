/** Unit tests of the Splice JSON codec: keys, required/optional, int64, enums, unions, WKTs, strictness. */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { OnboardUserRequestSchema } from "../../../gen/ccwallet/validator/v0/validator_admin_service_pb.js";
import { DisclosedContractSchema, GetChoiceContextRequestSchema, TransferFactoryWithChoiceContextSchema, TransferKind } from "../../../gen/ccwallet/validator/v0/token_standard_registry_service_pb.js";
import { ContractWithStateSchema } from "../../../gen/ccwallet/wallet/v0/contract_pb.js";
import {
  CreateTransferOfferRequestSchema,
  GetBuyTrafficRequestStatusResponseSchema,
  GetTransferOfferStatusResponseSchema,
  TransferOfferFailureKind,
} from "../../../gen/ccwallet/wallet/v0/wallet_external_pb.js";
import {
  ListMintingDelegationProposalsResponseSchema,
  ListTransactionsRequestSchema,
  ListTransactionsResponseItemSchema,
  TransferInstructionResultResponseSchema,
} from "../../../gen/ccwallet/wallet/v0/wallet_internal_pb.js";
import { fromSpliceJson, SpliceJsonError, toSpliceJson } from "../../../src/api/http/splice-json.js";

const offer = { receiver_party_id: "bob::1220ab", amount: "10.5", description: "rent", expires_at: 1_700_000_000_000_000, tracking_id: "t-1" };

function decodeError(fn: () => unknown): SpliceJsonError {
  try {
    fn();
  } catch (e) {
    if (e instanceof SpliceJsonError) return e;
    throw e;
  }
  throw new Error("expected a SpliceJsonError");
}

describe("Splice JSON: plain messages", () => {
  it("decodes snake_case keys, int64 as JSON numbers, amounts as strings", () => {
    const m = fromSpliceJson(CreateTransferOfferRequestSchema, offer);
    expect(m.receiverPartyId).toBe("bob::1220ab");
    expect(m.amount).toBe("10.5");
    expect(m.expiresAt).toBe(1_700_000_000_000_000n);
    expect(toSpliceJson(CreateTransferOfferRequestSchema, m)).toEqual(offer);
  });

  it("rejects missing required fields, unknown fields and mistyped values with the JSON path", () => {
    const { tracking_id: _, ...missing } = offer;
    expect(decodeError(() => fromSpliceJson(CreateTransferOfferRequestSchema, missing)).message).toBe("tracking_id: missing required field");
    expect(decodeError(() => fromSpliceJson(CreateTransferOfferRequestSchema, { ...offer, extra: 1 })).message).toBe("extra: unknown field");
    expect(decodeError(() => fromSpliceJson(CreateTransferOfferRequestSchema, { ...offer, amount: 10 })).message).toBe("amount: expected a string, got number 10");
    expect(decodeError(() => fromSpliceJson(CreateTransferOfferRequestSchema, { ...offer, expires_at: "1700" })).message).toMatch(/^expires_at: expected an integer \(int64\), got the string/);
    expect(decodeError(() => fromSpliceJson(CreateTransferOfferRequestSchema, { ...offer, expires_at: 1.5 })).problem).toMatch(/integer/);
    expect(decodeError(() => fromSpliceJson(CreateTransferOfferRequestSchema, { ...offer, expires_at: 2 ** 60 })).problem).toMatch(/2\^53/);
    expect(decodeError(() => fromSpliceJson(CreateTransferOfferRequestSchema, { ...offer, amount: null })).message).toBe("amount: expected a string, got null");
    expect(decodeError(() => fromSpliceJson(CreateTransferOfferRequestSchema, [offer])).message).toBe("(root): expected an object, got an array");
  });

  it("treats proto3 optional fields as optional (absent or null) and honours json_key", () => {
    expect(fromSpliceJson(OnboardUserRequestSchema, { name: "alice" }).partyId).toBeUndefined();
    const m = fromSpliceJson(OnboardUserRequestSchema, { name: "alice", party_id: null, createPartyIfMissing: true });
    expect(m.partyId).toBeUndefined();
    expect(m.createPartyIfMissing).toBe(true);
    expect(toSpliceJson(OnboardUserRequestSchema, m)).toEqual({ name: "alice", createPartyIfMissing: true });
    expect(decodeError(() => fromSpliceJson(OnboardUserRequestSchema, { name: "a", create_party_if_missing: true })).message).toBe("create_party_if_missing: unknown field");
    expect(fromSpliceJson(ListTransactionsRequestSchema, { page_size: 10 }).beginAfterId).toBeUndefined();
  });

  it("prints optional fields only when set and required ones always", () => {
    const c = create(ContractWithStateSchema, {
      contract: {
        templateId: "p:M:T",
        contractId: "00ab",
        payload: { owner: "alice::1220", amount: { initialAmount: "1.0" } },
        createdEventBlob: new Uint8Array([1, 2, 3]),
        createdAt: timestampFromMs(Date.UTC(2025, 0, 2, 3, 4, 5, 678)),
      },
    });
    expect(toSpliceJson(ContractWithStateSchema, c)).toEqual({
      contract: {
        template_id: "p:M:T",
        contract_id: "00ab",
        payload: { owner: "alice::1220", amount: { initialAmount: "1.0" } },
        created_event_blob: "AQID",
        created_at: "2025-01-02T03:04:05.678Z",
      },
    });
    c.domainId = "global-domain::1220";
    expect(toSpliceJson(ContractWithStateSchema, c).domain_id).toBe("global-domain::1220");
    const page = create(ListMintingDelegationProposalsResponseSchema, {});
    expect(toSpliceJson(ListMintingDelegationProposalsResponseSchema, page)).toEqual({ proposals: [] });
    page.nextPageToken = 7n;
    expect(toSpliceJson(ListMintingDelegationProposalsResponseSchema, page)).toEqual({ proposals: [], next_page_token: 7 });
  });

  it("checks well-known types: Struct must be an object, Timestamp an RFC 3339 string, bytes base64", () => {
    const contract = { template_id: "p:M:T", contract_id: "00", payload: {}, created_event_blob: "AQID", created_at: "2025-01-02T03:04:05Z" };
    const decoded = fromSpliceJson(ContractWithStateSchema, { contract: { ...contract, payload: { a: ["1", null, { b: true }] } } });
    expect(decoded.contract?.createdEventBlob).toEqual(new Uint8Array([1, 2, 3]));
    // Struct fields are plain JSON objects in protobuf-es messages and survive the binary wire format.
    expect(decoded.contract?.payload).toEqual({ a: ["1", null, { b: true }] });
    expect(fromBinary(ContractWithStateSchema, toBinary(ContractWithStateSchema, decoded)).contract?.payload).toEqual({ a: ["1", null, { b: true }] });
    expect(decodeError(() => fromSpliceJson(ContractWithStateSchema, { contract: { ...contract, payload: [] } })).message).toBe(
      "contract.payload: expected a JSON object, got array",
    );
    expect(decodeError(() => fromSpliceJson(ContractWithStateSchema, { contract: { ...contract, created_at: "yesterday" } })).message).toBe(
      'contract.created_at: expected an RFC 3339 timestamp, got "yesterday"',
    );
    expect(decodeError(() => fromSpliceJson(ContractWithStateSchema, { contract: { ...contract, created_event_blob: "not base64!" } })).message).toMatch(
      /^contract.created_event_blob: expected a base64 string/,
    );
  });
});

describe("Splice JSON: enums and unions", () => {
  it("encodes a discriminated union flat, with the discriminator first", () => {
    const m = create(GetTransferOfferStatusResponseSchema, {
      status: { case: "failed", value: { failureKind: TransferOfferFailureKind.WITHDRAWN, withdrawnReason: "no funds" } },
    });
    const json = toSpliceJson(GetTransferOfferStatusResponseSchema, m);
    expect(json).toEqual({ status: "failed", failure_kind: "withdrawn", withdrawn_reason: "no funds" });
    expect(Object.keys(json)[0]).toBe("status");
    expect(fromSpliceJson(GetTransferOfferStatusResponseSchema, json)).toEqual(m);
    const created = { status: "created", transaction_id: "u1", contract_id: "00c1" };
    expect(toSpliceJson(GetTransferOfferStatusResponseSchema, fromSpliceJson(GetTransferOfferStatusResponseSchema, created))).toEqual(created);
    expect(toSpliceJson(GetBuyTrafficRequestStatusResponseSchema, create(GetBuyTrafficRequestStatusResponseSchema, { status: { case: "created", value: {} } }))).toEqual({
      status: "created",
    });
  });

  it("refuses a missing or unknown discriminator, a variant's unknown keys and unknown enum values", () => {
    expect(decodeError(() => fromSpliceJson(GetTransferOfferStatusResponseSchema, { transaction_id: "u" })).message).toBe(
      "status: missing discriminator; expected one of created, accepted, completed, failed",
    );
    expect(decodeError(() => fromSpliceJson(GetTransferOfferStatusResponseSchema, { status: "lost" })).problem).toMatch(/unknown value "lost"/);
    expect(decodeError(() => fromSpliceJson(GetTransferOfferStatusResponseSchema, { status: "failed", failure_kind: "expired", contract_id: "x" })).message).toBe(
      'contract_id: unknown field for status "failed"',
    );
    expect(decodeError(() => fromSpliceJson(GetTransferOfferStatusResponseSchema, { status: "failed", failure_kind: "unspecified" })).message).toBe(
      'failure_kind: unknown value "unspecified"; expected one of expired, rejected, withdrawn',
    );
    expect(() => toSpliceJson(GetTransferOfferStatusResponseSchema, create(GetTransferOfferStatusResponseSchema))).toThrow(TypeError);
  });

  it("flattens a union beside the parent's own fields (transaction history items)", () => {
    const item = {
      transaction_type: "transfer",
      sender: { party: "alice::1220", amount: "-10.0" },
      receivers: [{ party: "bob::1220", amount: "10.0" }],
      holding_fees: "0.0",
      app_rewards_used: "0.0",
      validator_rewards_used: "0.0",
      sv_rewards_used: "0.0",
      development_fund_coupons_used: "0.0",
      transaction_subtype: { template_id: "p:Splice.AmuletRules:AmuletRules", choice: "AmuletRules_Transfer" },
      event_id: "#u1:0",
      date: "2025-01-02T03:04:05Z",
    };
    const m = fromSpliceJson(ListTransactionsResponseItemSchema, item);
    expect(m.transactionType.case).toBe("transfer");
    expect(m.eventId).toBe("#u1:0");
    expect(toSpliceJson(ListTransactionsResponseItemSchema, m)).toEqual(item);
    const note = { transaction_type: "notification", details: "offer expired", transaction_subtype: { template_id: "t", choice: "c" }, event_id: "e", date: "2025-01-02T03:04:05Z" };
    expect(toSpliceJson(ListTransactionsResponseItemSchema, fromSpliceJson(ListTransactionsResponseItemSchema, note))).toEqual(note);
  });

  it("tells untagged variants apart by their keys", () => {
    const pending = { output: { transfer_instruction_cid: "00ti" }, sender_change_cids: ["00c"], meta: { k: "v" } };
    const completed = { output: { receiver_holding_cids: ["00h"] }, sender_change_cids: [], meta: {} };
    const failed = { output: {}, sender_change_cids: [], meta: {} };
    for (const j of [pending, completed, failed]) {
      expect(toSpliceJson(TransferInstructionResultResponseSchema, fromSpliceJson(TransferInstructionResultResponseSchema, j))).toEqual(j);
    }
    expect(fromSpliceJson(TransferInstructionResultResponseSchema, failed).output?.output.case).toBe("failed");
    expect(decodeError(() => fromSpliceJson(TransferInstructionResultResponseSchema, { ...failed, output: { foo: 1 } })).message).toMatch(
      /^output: expected the keys of exactly one of pending, completed, failed, got foo/,
    );
  });

  it("uses camelCase keys and lower-case enum values in the registry messages", () => {
    const m = create(TransferFactoryWithChoiceContextSchema, {
      factoryId: "00f",
      transferKind: TransferKind.DIRECT,
      choiceContext: {
        choiceContextData: { values: {} },
        disclosedContracts: [create(DisclosedContractSchema, { templateId: "p:M:T", contractId: "00a", createdEventBlob: new Uint8Array([0]), synchronizerId: "s" })],
      },
    });
    expect(toSpliceJson(TransferFactoryWithChoiceContextSchema, m)).toEqual({
      factoryId: "00f",
      transferKind: "direct",
      choiceContext: {
        choiceContextData: { values: {} },
        disclosedContracts: [{ templateId: "p:M:T", contractId: "00a", createdEventBlob: "AA==", synchronizerId: "s" }],
      },
    });
    expect(fromSpliceJson(GetChoiceContextRequestSchema, { transferInstructionId: "00t", meta: { a: "b" }, excludeDebugFields: true })).toMatchObject({
      transferInstructionId: "00t",
      meta: { a: "b" },
      excludeDebugFields: true,
    });
    expect(decodeError(() => fromSpliceJson(GetChoiceContextRequestSchema, { meta: { a: 1 } })).message).toBe('meta["a"]: expected a string, got number 1');
  });
});
