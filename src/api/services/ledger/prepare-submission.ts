/**
 * PrepareSubmission: interprets one command for parties whose keys are held outside the node and
 * returns the transaction as Canton's PreparedTransaction with its V2 hash, the 32 bytes the
 * parties sign. Nothing is committed; the update id and contract ids the execute will use are fixed
 * here (by the transaction UUID and the preparation time the parties sign), and so are the bounds
 * of its ledger time: the preparation time itself if the Daml code read the time, the bounds of its
 * time comparisons otherwise (time-bounds.ts).
 *
 * As in Canton, preparing needs only read rights for the acting parties: the signatures authorize.
 */
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import { randomUUID } from "node:crypto";
import { CommandsSchema } from "../../../../gen/com/daml/ledger/api/v2/commands_pb.js";
import {
  HashingSchemeVersion,
  type PreparedTransaction,
  type PrepareSubmissionRequest,
  type PrepareSubmissionResponseSchema,
} from "../../../../gen/com/daml/ledger/api/v2/interactive/interactive_submission_service_pb.js";
import { isParticipantAdmin, requireReadAs } from "../../../auth/index.js";
import { toHex } from "../../../external/canton-hash.js";
import { preparedTransactionHash, tracedPreparedTransactionHash } from "../../../external/prepared-transaction-hash.js";
import { errors } from "../../../ledger/errors.js";
import { plainJson } from "../../../ledger/plain-json.js";
import { pinnedUpdateIds } from "../../../ledger/ids.js";
import type { Submission } from "../../../ledger/commands.js";
import type { ContractRecord } from "../../../ledger/records.js";
import { submissionFromProto } from "../../convert/commands-proto.js";
import { preparedTransactionOf } from "../../convert/prepared-transaction.js";
import { authenticate } from "./authenticate.js";
import { costEstimationOf, type CostEstimationInit, type CostHints } from "./cost-estimation.js";
import type { LedgerApi } from "./ledger-api.js";

type Response = MessageInitShape<typeof PrepareSubmissionResponseSchema>;

export async function prepareSubmission(api: LedgerApi, req: PrepareSubmissionRequest, ctx: HandlerContext): Promise<Response> {
  const user = await authenticate(api, ctx);
  // Authorized before the request is validated, as Canton does (command-services.ts).
  const userId = req.userId || user.id;
  if (userId !== user.id && !isParticipantAdmin(user)) {
    throw errors.permissionDenied(`the token's user ${user.id} may not prepare as user ${userId}`);
  }
  requireReadAs(user, [...req.actAs, ...req.readAs]);
  const submission = await submissionToPrepare(api, req, user.id);
  return prepare(api, submission, { verboseHashing: req.verboseHashing, estimateTrafficCost: req.estimateTrafficCost ?? {} });
}

/** The request as a submission of its one command; `tokenUserId` stands in for an empty user id. */
export async function submissionToPrepare(api: LedgerApi, req: Omit<PrepareSubmissionRequest, "$typeName" | "$unknown">, tokenUserId: string): Promise<Submission> {
  if (req.commands.length > 1) throw errors.invalidArgument("Only a single command is supported by the interactive submission service");
  if (req.synchronizerId && req.synchronizerId !== api.identity.synchronizerId) throw errors.invalidPrescribedSynchronizer(req.synchronizerId);
  const commands = create(CommandsSchema, {
    userId: req.userId,
    commandId: req.commandId,
    commands: req.commands,
    actAs: req.actAs,
    readAs: req.readAs,
    disclosedContracts: req.disclosedContracts,
    synchronizerId: req.synchronizerId,
  });
  return submissionFromProto(commands, tokenUserId, api.registry, api.store);
}

/** What `prepare` answers: the message itself (not an init shape), so callers can read it. */
export interface Prepared {
  readonly preparedTransaction: PreparedTransaction;
  readonly preparedTransactionHash: Uint8Array;
  readonly hashingSchemeVersion: HashingSchemeVersion;
  /** The byte trace of the hash, when verbose hashing was asked for. */
  readonly hashingDetails?: string;
  readonly costEstimation?: CostEstimationInit;
}

/**
 * What a prepare request asks for beyond the transaction. Verbose hashing is always allowed on this
 * node (Canton needs `enable-verbose-hashing`): the trace shows only what the prepared transaction
 * already holds, and only a request asking for it pays for it. The cost is estimated when hints
 * are given and not disabled (the gRPC/JSON handler passes `{}` for absent hints, as Canton 3.4
 * estimates by default; the node's own callers leave it out).
 */
export interface PrepareOptions {
  readonly verboseHashing?: boolean;
  readonly estimateTrafficCost?: CostHints;
}

/** Interprets an authorized submission and answers its prepared transaction and hash. */
export async function prepare(api: LedgerApi, submission: Submission, options: PrepareOptions = {}): Promise<Prepared> {
  const preparationTime = api.clock.now();
  const transactionUuid = randomUUID();
  const { updateId, seed } = pinnedUpdateIds(preparationTime, transactionUuid);
  const interpreted = await api.ledger.interpret(submission, preparationTime, { updateId, seed });
  const prepared = preparedTransactionOf(
    {
      interpreted,
      inputContracts: await inputContractsOf(api, interpreted.inputs),
      seed,
      actAs: submission.actAs,
      commandId: submission.commandId,
      synchronizerId: api.identity.synchronizerId,
      transactionUuid,
      preparationTime,
    },
    api.registry,
  );
  const hints = options.estimateTrafficCost;
  const costEstimation = hints ? await costEstimationOf(api, submission.actAs, interpreted.nodes, hints) : undefined;
  const hashed = options.verboseHashing ? tracedPreparedTransactionHash(prepared) : { hash: preparedTransactionHash(prepared), details: undefined };
  // Its size: the nodes' JSON (already made to price their traffic) held about three times over
  // (the nodes, the created contracts, the prepared message).
  api.prepared.remember(updateId, toHex(hashed.hash), interpreted, prepared, 3 * (plainJson(interpreted.nodes)?.length ?? Infinity));
  return {
    preparedTransaction: prepared,
    preparedTransactionHash: hashed.hash,
    hashingSchemeVersion: HashingSchemeVersion.V2,
    ...(hashed.details !== undefined ? { hashingDetails: hashed.details } : {}),
    ...(costEstimation ? { costEstimation } : {}),
  };
}

/** The stored records of the contracts an interpretation used; one archived since is contention. */
export async function inputContractsOf(api: LedgerApi, ids: readonly string[]): Promise<ContractRecord[]> {
  const records = await Promise.all(ids.map((cid) => api.store.activeContract(cid)));
  const gone = ids.filter((_, i) => records[i] === undefined);
  if (gone.length > 0) throw errors.inactiveContracts(gone);
  return records as ContractRecord[];
}
