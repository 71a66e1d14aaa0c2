/**
 * `/v0/admin/external-party/*` (validator-internal.yaml; reference/external-parties.md §2, §4): the
 * operator's endpoints that wrap the Ledger API's external-party onboarding and interactive
 * submission for a client holding a raw Ed25519 key. The node prepares as its own ledger user with
 * the party as actor, and executes what the party signed with the key the request names; the
 * execute path checks that key against the party's registered ones.
 */
import { create, fromBinary } from "@bufbuild/protobuf";
import type { ExternalPartyAdminService, ExternalPartySubmission } from "../../../../../gen/ccwallet/validator/v0/external_party_admin_service_pb.js";
import { AllocateExternalPartyRequestSchema, GenerateExternalPartyTopologyRequestSchema } from "../../../../../gen/com/daml/ledger/api/v2/admin/party_management_service_pb.js";
import { CryptoKeyFormat, SignatureFormat, SigningAlgorithmSpec, SigningKeySpec } from "../../../../../gen/com/daml/ledger/api/v2/crypto_pb.js";
import { ExecuteSubmissionRequestSchema, HashingSchemeVersion, PreparedTransactionSchema, PrepareSubmissionRequestSchema } from "../../../../../gen/com/daml/ledger/api/v2/interactive/interactive_submission_service_pb.js";
import type { Value } from "@bufbuild/protobuf/wkt";
import { toHex } from "../../../../external/canton-hash.js";
import { fingerprintOf } from "../../../../external/fingerprint.js";
import { ed25519Key, InvalidSigningKey } from "../../../../external/signing-key.js";
import { topologyTransactionHash } from "../../../../external/topology-transactions.js";
import { randomHex } from "../../../../ledger/ids.js";
import type { ExternalCommand } from "../../../../wallet/index.js";
import {
  acceptedPreapprovalOf,
  createExternalPartySetupProposal,
  listExternalPartySetupProposals,
  parseAmount,
  setupProposalAcceptCommand,
  transferCommandCreation,
  walletErrors,
} from "../../../../wallet/index.js";
import { commandToProto, disclosedContractToProto } from "../../../convert/command-to-proto.js";
import { preparedTransactionBase64 } from "../../../convert/prepared-transaction-binary.js";
import { microsOf } from "../../../convert/ledger-proto.js";
import { execution } from "../../ledger/execute-submission.js";
import { allocateFor, topologyFor } from "../../ledger/external-party-onboarding.js";
import { prepare, submissionToPrepare, type Prepared } from "../../ledger/prepare-submission.js";
import { contractWithStateToProto } from "../contract-proto.js";
import type { Handler } from "../endpoints.js";
import type { WalletApi } from "../wallet-api.js";
import { extend } from "../../../../util/extend.js";

type Admin = typeof ExternalPartyAdminService;

/** Hex of exactly `bytes` bytes (`what` names the field in the 400). */
function hexOf(what: string, text: string, bytes?: number): Uint8Array {
  if (!/^([0-9a-fA-F]{2})*$/.test(text) || text === "") throw walletErrors.badRequest(`${what}: not a hex string`);
  const b = Buffer.from(text, "hex");
  if (bytes !== undefined && b.length !== bytes) throw walletErrors.badRequest(`${what}: expected ${bytes} bytes, got ${b.length}`);
  return b;
}

function base64Of(what: string, text: string): Uint8Array {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0 || text === "") throw walletErrors.badRequest(`${what}: not base64`);
  return Buffer.from(text, "base64");
}

function keyOf(publicKeyHex: string) {
  try {
    return ed25519Key(hexOf("public_key", publicKeyHex));
  } catch (e) {
    if (e instanceof InvalidSigningKey) throw walletErrors.badRequest(`public_key: ${e.message}`);
    throw e;
  }
}

/**
 * The OpenAPI's `amount: number`, or a decimal string. A number is read as the decimal it was
 * written as (its shortest form), so one with more than 10 decimals is refused as its string
 * would be, not rounded; one with more digits than a double keeps is refused too.
 */
function amountOf(v: Value | undefined) {
  const k = v?.kind;
  if (k?.case === "stringValue") return parseAmount("amount", k.value);
  if (k?.case !== "numberValue") throw walletErrors.badRequest("amount: expected a number or a decimal string");
  const text = plainDecimal(k.value);
  if (text.replace(/^-?0*\.?0*/, "").replace(".", "").length > 15) {
    throw walletErrors.badRequest(`amount: ${k.value} has more significant digits than a JSON number carries exactly; send it as a decimal string`);
  }
  return parseAmount("amount", text);
}

/** `n`'s shortest decimal form without an exponent: 2.5e-10 is "0.00000000025". */
function plainDecimal(n: number): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(String(n));
  if (!m) return String(n);
  const [, sign, int, frac = "", exp] = m;
  const digits = int + frac;
  const point = int.length + Number(exp);
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`;
  if (point >= digits.length) return sign + digits + "0".repeat(point - digits.length);
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** Prepares `external` for `party`'s key, as the node's own ledger user (Splice's endpoints estimate no cost). */
async function prepareFor(api: WalletApi, party: string, external: ExternalCommand, verboseHashing: boolean | undefined): Promise<Prepared> {
  const req = create(PrepareSubmissionRequestSchema, {
    userId: api.wallet.validatorUser,
    commandId: randomHex(16),
    commands: [commandToProto(external.command)],
    actAs: [party],
    readAs: [party],
    disclosedContracts: external.disclosed.map((c) => disclosedContractToProto(c, api.ledger.identity.synchronizerId)),
  });
  return prepare(api.ledger, await submissionToPrepare(api.ledger, req, api.wallet.validatorUser), { verboseHashing: verboseHashing === true });
}

const preparedAnswer = (p: Prepared) => ({
  transaction: preparedTransactionBase64(p.preparedTransaction),
  txHash: toHex(p.preparedTransactionHash),
  ...(p.hashingDetails !== undefined ? { hashingDetails: p.hashingDetails } : {}),
});

/** Executes what the party signed and waits for its commit; answers the update id. */
async function submit(api: WalletApi, s: ExternalPartySubmission | undefined): Promise<{ updateId: string; party: string }> {
  if (!s) throw walletErrors.badRequest("submission: missing");
  const key = keyOf(s.publicKey);
  const bytes = base64Of("submission.transaction", s.transaction);
  let preparedTransaction;
  try {
    preparedTransaction = fromBinary(PreparedTransactionSchema, bytes);
  } catch (e) {
    throw walletErrors.badRequest(`submission.transaction: not a PreparedTransaction (${(e as Error).message})`);
  }
  const signature = { format: SignatureFormat.CONCAT, signature: hexOf("submission.signed_tx_hash", s.signedTxHash, 64), signedBy: fingerprintOf(key), signingAlgorithmSpec: SigningAlgorithmSpec.ED25519 };
  const req = create(ExecuteSubmissionRequestSchema, {
    preparedTransaction,
    partySignatures: { signatures: [{ party: s.partyId, signatures: [signature] }] },
    submissionId: randomHex(16),
    userId: api.wallet.validatorUser,
    hashingSchemeVersion: HashingSchemeVersion.V2,
  });
  const { submission, pinned } = await execution(api.ledger, req, api.wallet.validatorUser);
  const outcome = await api.ledger.ledger.submit(submission, pinned);
  if (outcome.kind === "rejected") throw outcome.error;
  return { updateId: outcome.transaction.updateId, party: s.partyId };
}

export const externalPartyHandlers: { [K in keyof Admin["method"]]: Handler<Admin, K, string> } = {
  generateExternalPartyTopology: async (req, _caller, api) => {
    const request = create(GenerateExternalPartyTopologyRequestSchema, {
      synchronizer: api.ledger.identity.synchronizerId,
      partyHint: req.partyHint,
      publicKey: { format: CryptoKeyFormat.RAW, keyData: hexOf("public_key", req.publicKey), keySpec: SigningKeySpec.EC_CURVE25519 },
    });
    const t = topologyFor(api.ledger, request);
    return { partyId: t.partyId, topologyTxs: t.topologyTransactions.map((tx) => ({ topologyTx: Buffer.from(tx).toString("base64"), hash: toHex(topologyTransactionHash(tx)) })) };
  },
  submitExternalPartyTopology: async (req, _caller, api) => {
    const signedBy = fingerprintOf(keyOf(req.publicKey));
    const onboardingTransactions = req.signedTopologyTxs.map((t, i) => ({
      transaction: base64Of(`signed_topology_txs[${i}].topology_tx`, t.topologyTx),
      signatures: [{ format: SignatureFormat.CONCAT, signature: hexOf(`signed_topology_txs[${i}].signed_hash`, t.signedHash, 64), signedBy, signingAlgorithmSpec: SigningAlgorithmSpec.ED25519 }],
    }));
    return allocateFor(api.ledger, create(AllocateExternalPartyRequestSchema, { synchronizer: api.ledger.identity.synchronizerId, onboardingTransactions }));
  },
  createExternalPartySetupProposal: async (req, _caller, api) => ({ contractId: await createExternalPartySetupProposal(api.wallet, req.userPartyId) }),
  listExternalPartySetupProposals: async (_req, _caller, api) => ({
    contracts: (await listExternalPartySetupProposals(api.wallet)).map((c) => contractWithStateToProto(c, api.ledger.registry, api.ledger.identity.synchronizerId)),
  }),
  prepareAcceptExternalPartySetupProposal: async (req, _caller, api) =>
    preparedAnswer(await prepareFor(api, req.userPartyId, await setupProposalAcceptCommand(api.wallet, req.contractId, req.userPartyId), req.verboseHashing)),
  submitAcceptExternalPartySetupProposal: async (req, _caller, api) => {
    const { updateId, party } = await submit(api, req.submission);
    return { transferPreapprovalContractId: await acceptedPreapprovalOf(api.wallet, party), updateId };
  },
  prepareTransferPreapprovalSend: async (req, _caller, api) => {
    if (!req.expiresAt) throw walletErrors.badRequest("expires_at: missing");
    const external = await transferCommandCreation(api.wallet, {
      sender: req.senderPartyId,
      receiver: req.receiverPartyId,
      amount: amountOf(req.amount),
      expiresAt: microsOf(req.expiresAt),
      nonce: req.nonce,
      description: req.description,
    });
    const prepared = await prepareFor(api, req.senderPartyId, external, req.verboseHashing);
    const firstCreate = prepared.preparedTransaction.transaction!.nodes.find((n) => n.versionedNode.value?.nodeType.case === "create")?.versionedNode.value?.nodeType.value as { contractId: string } | undefined;
    return extend(preparedAnswer(prepared), { transferCommandContractIdPrefix: firstCreate?.contractId ?? "" });
  },
  submitTransferPreapprovalSend: async (req, _caller, api) => ({ updateId: (await submit(api, req.submission)).updateId }),
};
