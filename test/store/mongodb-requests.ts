/** Commit requests for the MongoDB adapter's own tests: small, or with a payload of a chosen size. */
import { randomBytes } from "node:crypto";
import type { CompletionRecord, ContractRecord, StatusRecord } from "../../src/ledger/records.js";
import type { RejectionCommit, TransactionCommit } from "../../src/ledger/store-port.js";

const ALICE = "alice::1220aa";
const IOU = "pkg1:Demo.Iou:Iou";

const unique = (prefix: string) => `${prefix}-${randomBytes(6).toString("hex")}`;
const ok = (): StatusRecord => ({ code: 0, message: "", errorCode: "", category: 0, context: {}, resources: [], correlationId: "corr" });

function completion(commandId: string, updateId?: string): Omit<CompletionRecord, "offset"> {
  return {
    commandId,
    userId: "user-1",
    actAs: [ALICE],
    submissionId: unique("sub"),
    deduplication: { kind: "none" },
    recordTime: 1_000n,
    ...(updateId ? { updateId } : {}),
    status: ok(),
  };
}

export interface RequestOptions {
  /** Length of a string in the created contract's payload (it appears in the contract and in the transaction's create node). */
  readonly payloadChars?: number;
  readonly dedup?: boolean;
}

/** A transaction that creates one contract. */
export function transactionRequest(options: RequestOptions = {}): TransactionCommit {
  const updateId = unique("1220upd");
  const commandId = unique("cmd");
  const create: Omit<ContractRecord, "createdOffset"> = {
    contractId: unique("00cid"),
    templateId: IOU,
    packageName: "demo",
    payload: { owner: ALICE, note: "x".repeat(options.payloadChars ?? 10), count: 123456789012345678901234567890n },
    signatories: [ALICE],
    observers: [],
    createdAt: 1_700_000_000_000_000n,
    createUpdateId: updateId,
    nodeId: 0,
  };
  return {
    kind: "transaction",
    ...(options.dedup ? { dedup: { changeKey: `["user-1",["${ALICE}"],"${commandId}"]`, since: 0n } } : {}),
    inputs: [],
    archives: [],
    creates: [create],
    transaction: {
      updateId,
      commandId,
      workflowId: "wf",
      submitters: [ALICE],
      effectiveAt: 1_000n,
      recordTime: 1_000n,
      nodes: [
        {
          kind: "create",
          nodeId: 0,
          contractId: create.contractId,
          templateId: IOU,
          packageName: "demo",
          payload: create.payload,
          signatories: [ALICE],
          observers: [],
          witnesses: [ALICE],
        },
      ],
    },
    completion: completion(commandId, updateId),
    onConflict: () => ({ ...completion(commandId), status: { ...ok(), code: 10, message: "conflict" } }),
  };
}

export function rejectionRequest(): RejectionCommit {
  return { kind: "rejection", completion: { ...completion(unique("rej")), status: { ...ok(), code: 3, message: "rejected" } } };
}
