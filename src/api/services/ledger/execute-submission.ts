/**
 * ExecuteSubmission and its waiting forms: the checks of an externally signed transaction, then
 * its commit. The node re-hashes the submitted bytes, checks that every acting party signed that
 * hash with its registered keys (reference §3.6) and that the preparation time is within the
 * tolerance (§3.7), then re-interprets the command the transaction came from with the signed update
 * ids, at now or the nearest time the signed ledger-time bounds allow. It commits only if the
 * re-interpretation, on the ledger as it is now, hashes to what
 * the parties signed: tampered bytes fail the signatures, a stale transaction fails the comparison
 * or the contention check, and a replay is a duplicate. When the node still holds its own
 * interpretation of exactly the signed bytes (PreparedInterpretations), that commits instead of a
 * re-interpretation, with the same contention check on its inputs.
 */
import { create } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import { CommandsSchema, type Commands } from "../../../../gen/com/daml/ledger/api/v2/commands_pb.js";
import {
  HashingSchemeVersion,
  type ExecuteSubmissionRequest,
  type PreparedTransaction,
} from "../../../../gen/com/daml/ledger/api/v2/interactive/interactive_submission_service_pb.js";
import { isParticipantAdmin, requireExecuteAs } from "../../../auth/index.js";
import { toHex } from "../../../external/canton-hash.js";
import { ExecuteSignaturesRejected, verifyExecuteSignatures, type PartyKeys } from "../../../external/execute-signatures.js";
import { preparedTransactionHash, UnhashableTransaction } from "../../../external/prepared-transaction-hash.js";
import { InvalidSigningKey, type KeyKind, type SigningKey } from "../../../external/signing-key.js";
import type { Submission } from "../../../ledger/commands.js";
import type { PinnedRun } from "../../../ledger/engine.js";
import { errors, type LedgerError } from "../../../ledger/errors.js";
import { pinnedUpdateIds } from "../../../ledger/ids.js";
import type { TransactionFormat } from "../../../ledger/event-format.js";
import { requireFormatReaders } from "./format-claims.js";
import type { InterpretedTransaction } from "../../../ledger/interpreter.js";
import { checkedSubmission, submissionFromProto } from "../../convert/commands-proto.js";
import { commandsOfPrepared } from "../../convert/prepared-commands.js";
import { preparedTransactionOf } from "../../convert/prepared-transaction.js";
import { authenticate } from "./authenticate.js";
import type { LedgerApi } from "./ledger-api.js";
import { inputContractsOf } from "./prepare-submission.js";
import { signatureBy } from "./signature-by.js";
import { extend } from "../../../util/extend.js";

/** Canton's default `preparation_time_record_time_tolerance` (a dynamic synchronizer parameter). */
export const PREPARATION_TIME_TOLERANCE_MICROS = 24n * 3600n * 1_000_000n;

/** A checked execute request: what the ledger runs, pinned to what was signed. */
export interface Execution {
  readonly submission: Submission;
  readonly pinned: PinnedRun;
}

/** The fields the three execute requests share (1 to 8). */
export type ExecuteRequest = Omit<ExecuteSubmissionRequest, "$typeName" | "$unknown">;

type Signed = Required<Pick<PreparedTransaction, "transaction" | "metadata">> & PreparedTransaction;

function signedTransactionOf(req: ExecuteRequest): Signed {
  const p = req.preparedTransaction;
  if (!p?.transaction || !p.metadata) throw errors.missingField("prepared_transaction");
  if (!p.metadata.submitterInfo || p.metadata.submitterInfo.actAs.length === 0) throw errors.missingField("prepared_transaction.metadata.submitter_info.act_as");
  if (req.hashingSchemeVersion !== HashingSchemeVersion.V2) {
    throw errors.invalidField("hashing_scheme_version", `hashing scheme ${HashingSchemeVersion[req.hashingSchemeVersion] ?? req.hashingSchemeVersion} is not supported; use HASHING_SCHEME_VERSION_V2`);
  }
  if (!req.submissionId) throw errors.missingField("submission_id");
  return p as Signed;
}

function hashOf(prepared: PreparedTransaction): Uint8Array {
  try {
    return preparedTransactionHash(prepared);
  } catch (e) {
    if (e instanceof UnhashableTransaction) throw errors.invalidField("prepared_transaction", e.message);
    throw e;
  }
}

function checkPreparationTime(preparationTime: bigint, now: bigint): void {
  if (preparationTime > now + PREPARATION_TIME_TOLERANCE_MICROS || now - preparationTime > PREPARATION_TIME_TOLERANCE_MICROS) {
    throw errors.invalidArgument(
      `The preparation time ${preparationTime} is outside the preparation time tolerance of 24h around the record time ${now}; prepare the transaction again`,
    );
  }
}

/**
 * A party's stored key, or undefined for one onboarding now refuses (a weak Ed25519 key stored
 * before the check): anyone may be able to make its signatures, so they count for nothing, while
 * the party's other keys still count.
 */
function storedKey(api: LedgerApi, k: { readonly kind: KeyKind; readonly spki: string }): SigningKey | undefined {
  try {
    return api.signingKeys.get(k.kind, k.spki);
  } catch (e) {
    if (e instanceof InvalidSigningKey) return undefined;
    throw e;
  }
}

/** The signing keys of each acting party, from its hosting record (undefined for a local party). */
async function partyKeysOf(api: LedgerApi, parties: readonly string[]): Promise<Map<string, PartyKeys>> {
  const keys = new Map<string, PartyKeys>();
  for (const party of parties) {
    const hosting = (await api.store.party(party))?.external;
    if (!hosting) continue;
    const byFingerprint = new Map<string, SigningKey>();
    for (const k of hosting.signingKeys) {
      const key = storedKey(api, k);
      if (key) byFingerprint.set(k.fingerprint, key);
    }
    keys.set(party, { threshold: hosting.threshold, keys: byFingerprint });
  }
  return keys;
}

async function verifySignatures(api: LedgerApi, hash: Uint8Array, actAs: readonly string[], req: ExecuteRequest): Promise<void> {
  const keys = await partyKeysOf(api, actAs);
  const given = (req.partySignatures?.signatures ?? []).map((p) => ({ party: p.party, signatures: p.signatures.map(signatureBy) }));
  try {
    await verifyExecuteSignatures(hash, actAs, given, (party) => keys.get(party));
  } catch (e) {
    if (e instanceof ExecuteSignaturesRejected) throw errors.invalidArgument(e.message);
    throw e;
  }
}

export async function executionOf(api: LedgerApi, req: ExecuteRequest, ctx: HandlerContext, format?: TransactionFormat): Promise<Execution> {
  const user = await authenticate(api, ctx);
  requireFormatReaders(user, format);
  const signed = signedTransactionOf(req);
  const userId = req.userId || user.id;
  if (userId !== user.id && !isParticipantAdmin(user)) throw errors.permissionDenied(`the token's user ${user.id} may not execute as user ${userId}`);
  requireExecuteAs(user, signed.metadata.submitterInfo!.actAs);
  return execution(api, req, userId);
}

/** The checked execution of a request whose caller is authorized to execute as `userId` for its parties. */
export async function execution(api: LedgerApi, req: ExecuteRequest, userId: string): Promise<Execution> {
  const signed = signedTransactionOf(req);
  const md = signed.metadata;
  const actAs = md.submitterInfo!.actAs;
  if (md.synchronizerId !== api.identity.synchronizerId) throw errors.invalidPrescribedSynchronizer(md.synchronizerId);
  checkPreparationTime(md.preparationTime, api.clock.now());
  const { updateId, seed } = pinnedUpdateIds(md.preparationTime, md.transactionUuid);
  // The very message this node prepared (handed back by the JSON decoder) needs no second hash.
  const known = api.prepared.hashOf(updateId, signed);
  const hash = known ? Buffer.from(known, "hex") : hashOf(signed);
  await verifySignatures(api, hash, actAs, req);

  const externalTransactionHash = toHex(hash);
  // The node's own interpretation, when it holds it, commits as is: the commands and disclosed
  // contracts only matter to a re-interpretation. (Taken by a request refused below, it is
  // re-interpreted at the next execute.)
  const prepared = api.prepared.take(updateId, externalTransactionHash);
  const submission = prepared
    ? await checkedSubmission(signedCommands(signed, req, userId, false), userId, api.store, () => [])
    : await submissionFromProto(signedCommands(signed, req, userId, true), userId, api.registry, api.store);
  const timeBounds = { min: md.minLedgerEffectiveTime, max: md.maxLedgerEffectiveTime };
  const pinnedTo = { updateId, seed, timeBounds, externalTransactionHash, signatures: signatureCount(req, actAs) };
  const conforms = (interpreted: InterpretedTransaction) => conformance(api, signed, hash, seed, interpreted);
  return { submission, pinned: prepared ? extend(pinnedTo, { prepared }) : extend(pinnedTo, { conforms }) };
}

/** The submission the signed transaction came from; its commands only when they will be interpreted. */
function signedCommands(signed: Signed, req: ExecuteRequest, userId: string, toInterpret: boolean): Commands {
  const md = signed.metadata;
  return create(CommandsSchema, {
    userId,
    commandId: md.submitterInfo!.commandId,
    submissionId: req.submissionId,
    actAs: md.submitterInfo!.actAs,
    commands: toInterpret ? commandsOfPrepared(signed.transaction) : [],
    disclosedContracts: toInterpret ? md.inputContracts.filter((c) => c.eventBlob.length > 0).map((c) => ({ createdEventBlob: c.eventBlob })) : [],
    deduplicationPeriod: req.deduplicationPeriod,
  });
}

/** The acting parties' signatures the request carries (others are ignored, as in Canton, and not sent on). */
function signatureCount(req: ExecuteRequest, actAs: readonly string[]): number {
  return (req.partySignatures?.signatures ?? []).filter((p) => actAs.includes(p.party)).reduce((n, p) => n + p.signatures.length, 0);
}

/** Undefined when the re-interpretation hashes to what the parties signed; the rejection otherwise. */
async function conformance(api: LedgerApi, signed: Signed, hash: Uint8Array, seed: string, interpreted: InterpretedTransaction): Promise<LedgerError | undefined> {
  const md = signed.metadata;
  let inputContracts;
  try {
    inputContracts = await inputContractsOf(api, interpreted.inputs);
  } catch (e) {
    return e as LedgerError;
  }
  const again = preparedTransactionOf(
    {
      interpreted,
      inputContracts,
      seed,
      actAs: md.submitterInfo!.actAs,
      commandId: md.submitterInfo!.commandId,
      synchronizerId: md.synchronizerId,
      transactionUuid: md.transactionUuid,
      preparationTime: md.preparationTime,
    },
    api.registry,
  );
  if (toHex(preparedTransactionHash(again)) === toHex(hash)) return undefined;
  return errors.interpretation(
    "The prepared transaction does not match its re-interpretation on the ledger as it is now (its inputs or the command's outcome changed since it was prepared); prepare it again",
  );
}
