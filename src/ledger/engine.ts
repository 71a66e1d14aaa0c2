/**
 * The ledger: submissions in, transactions and completions out. Interprets against the store's
 * active contracts, then hands the result to the store's atomic commit, which re-checks what the
 * interpretation relied on (inputs still active, keys free, command not a duplicate). Whatever
 * happens, the submission ends in exactly one completion at its own offset.
 */
import { isDuplicate } from "./deduplication.js";
import { CommitOutcomeUnknown, type CommitResult, type Conflict, type Deduplication, type Store } from "./store-port.js";
import type { Clock } from "./clock.js";
import type { Submission } from "./commands.js";
import { errors, LedgerError } from "./errors.js";
import { newUpdateIds, type UpdateIds } from "./ids.js";
import { interpret, type InterpretedTransaction } from "./interpreter.js";
import type { CompletionRecord, DeduplicationRecord, StatusRecord, TransactionRecord } from "./records.js";
import type { TemplateRegistry } from "./registry.js";
import { TransactionFeed } from "./transaction-feed.js";
import type { TrafficCharge, TrafficPort } from "./traffic-port.js";
import { nearestWithin, type TimeBounds } from "./time-bounds.js";
import { extend, updated } from "../util/extend.js";

export interface LedgerOptions {
  readonly store: Store;
  readonly registry: TemplateRegistry;
  readonly clock: Clock;
  /** Longest deduplication period accepted, and the default one (Canton: 7 days). */
  readonly maxDeduplicationSeconds: bigint;
  /** Where committed transactions go for in-process readers (`Ledger.open` makes one). */
  readonly feed: TransactionFeed;
  /** Told of every submission's outcome and how long it took to become durable (metrics). */
  readonly onOutcome?: (outcome: SubmitOutcome, seconds: number) => void;
  /** Meters the participant's synchronizer traffic; without it every transaction is free. */
  readonly traffic?: TrafficPort;
}

export type SubmitOutcome =
  | {
      readonly kind: "committed";
      readonly transaction: TransactionRecord;
      readonly completion: CompletionRecord;
      /** Each command's typed root result (see InterpretedTransaction.results). */
      readonly results: readonly unknown[];
    }
  | { readonly kind: "rejected"; readonly error: LedgerError; readonly completion: CompletionRecord };

/**
 * An externally signed transaction runs with what its parties signed fixed in advance: the update
 * id (which seeds its contract ids) and the bounds of its ledger time (the prepared metadata's
 * min/max ledger effective time: the one time it was prepared at if it read the time, the bounds
 * of its time comparisons otherwise, none if it did neither). Either the node still
 * holds its own interpretation of exactly the signed transaction (`prepared`), which commits as is,
 * or it re-interprets and `conforms` compares the result with what was signed; a difference
 * rejects the submission.
 */
export type PinnedRun = {
  readonly updateId: string;
  /** The seed of its contract ids (UpdateIds): the prepared transaction's. */
  readonly seed: string;
  readonly timeBounds: TimeBounds;
  readonly externalTransactionHash: string;
  /** The external parties' signatures the execute carries (they are part of the request's traffic). */
  readonly signatures?: number;
} & (
  | { readonly prepared: InterpretedTransaction; readonly conforms?: undefined }
  | { readonly prepared?: undefined; readonly conforms: (interpreted: InterpretedTransaction) => Promise<LedgerError | undefined> }
);

/** What every completion of a submission carries, whatever its outcome. */
type CompletionBase = Omit<CompletionRecord, "offset" | "status" | "updateId">;

export function statusOf(error: LedgerError, correlationId: string): StatusRecord {
  return {
    code: error.grpcCode,
    message: error.statusMessage(correlationId),
    errorCode: error.code,
    category: error.category,
    context: error.context,
    resources: error.resources,
    correlationId,
    definiteAnswer: error.definiteAnswer,
  };
}

/** Rebuilds the error a rejection completion carries (for SubmitAndWait, which answers with it). */
export function errorOf(status: StatusRecord): LedgerError {
  const prefix = /^[A-Z_]+\(\d+,[^)]*\): /;
  return new LedgerError({
    code: status.errorCode,
    category: status.category as LedgerError["category"],
    cause: status.message.replace(prefix, ""),
    context: status.context,
    resources: status.resources,
    definiteAnswer: status.definiteAnswer,
  });
}

export function changeKeyOf(userId: string, actAs: readonly string[], commandId: string): string {
  return JSON.stringify([userId, [...new Set(actAs)].sort(), commandId]);
}

export class Ledger {
  readonly store: Store;
  readonly registry: TemplateRegistry;
  readonly clock: Clock;
  readonly feed: TransactionFeed;
  private readonly maxDedupMicros: bigint;
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly onOutcome: LedgerOptions["onOutcome"];
  private readonly traffic: TrafficPort | undefined;

  constructor(options: LedgerOptions) {
    this.store = options.store;
    this.registry = options.registry;
    this.clock = options.clock;
    this.feed = options.feed;
    this.maxDedupMicros = options.maxDeduplicationSeconds * 1_000_000n;
    this.onOutcome = options.onOutcome;
    this.traffic = options.traffic;
  }

  /** A ledger over `store` whose feed starts at the store's current end. */
  static async open(options: Omit<LedgerOptions, "feed">, onFeedError?: (error: unknown) => void): Promise<Ledger> {
    return new Ledger(extend(options, { feed: await TransactionFeed.open(options.store, onFeedError) }));
  }

  /**
   * Interprets a submission at a fixed ledger time and update id without committing anything
   * (PrepareSubmission). Throws the LedgerError a submit would be rejected with.
   */
  interpret(submission: Submission, ledgerTime: bigint, ids: UpdateIds): Promise<InterpretedTransaction> {
    return interpret(submission, this.registry, this.store, ledgerTime, ids.seed, ids.updateId, true);
  }

  /** Runs a submission to its end. Never throws for a rejected command: it returns the rejection. */
  submit(submission: Submission, pinned?: PinnedRun): Promise<SubmitOutcome> {
    const started = performance.now();
    const p = this.run(submission, pinned).then((outcome) => {
      this.feed.reported(outcome.completion.offset, outcome.kind === "committed" ? outcome.transaction : null, outcome.completion);
      this.onOutcome?.(outcome, (performance.now() - started) / 1000);
      return outcome;
    });
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p)).catch(() => undefined);
    return p;
  }

  /** Waits for every submission in flight (graceful shutdown). */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  private async run(submission: Submission, pinned: PinnedRun | undefined): Promise<SubmitOutcome> {
    const recordTime = this.clock.now();
    // Canton chooses an externally signed transaction's ledger time at its execution: now, or the
    // nearest time its signed bounds allow (then checked against the tolerance below).
    const ledgerTime = pinned ? nearestWithin(pinned.timeBounds, recordTime) : recordTime;
    const dedupRecord: DeduplicationRecord = submission.deduplication;
    const base: CompletionBase = {
      commandId: submission.commandId,
      userId: submission.userId,
      actAs: submission.actAs,
      submissionId: submission.submissionId,
      deduplication: dedupRecord,
      recordTime,
    };

    // An external party is hosted to confirm, not to submit: it acts only through a transaction it
    // signed (a pinned run), whichever API or automation asks for it.
    if (!pinned) {
      const external = await this.externalActAs(submission.actAs);
      if (external) return this.rejection(submission, base, externalPartyCannotSubmit(external));
    }

    const dedup = this.deduplication(submission, recordTime);
    if (dedup instanceof LedgerError) return this.rejection(submission, base, dedup);
    // The commit refuses a duplicate itself, atomically with its write (the store checks the
    // change key and the update id there), so a submission bound to succeed reads nothing first.
    // One about to be refused for another reason looks (`refusal`): a duplicate still answers as
    // one, say when its original consumed the inputs it names.

    const { updateId, seed } = pinned ?? newUpdateIds();
    let interpreted = pinned?.prepared;
    if (!interpreted) {
      try {
        // Fetches are recorded only for an externally signed run, whose prepared form includes them.
        interpreted = await interpret(submission, this.registry, this.store, ledgerTime, seed, updateId, pinned !== undefined);
      } catch (e) {
        return this.refusal(submission, base, dedup, pinned?.updateId, e instanceof LedgerError ? e : errors.internal(String(e)));
      }
      const nonConformance = await pinned?.conforms?.(interpreted);
      if (nonConformance) return this.refusal(submission, base, dedup, pinned?.updateId, nonConformance);
    }

    // Canton's ledger-time/record-time tolerance. Only an externally signed transaction can have
    // another ledger time than now: the time it read when prepared, or a bound of its comparisons.
    if (absolute(recordTime - ledgerTime) > LEDGER_TIME_RECORD_TIME_TOLERANCE_MICROS) {
      return this.refusal(submission, base, dedup, pinned?.updateId, errors.ledgerTimeOutOfBound(ledgerTime, recordTime, LEDGER_TIME_RECORD_TIME_TOLERANCE_MICROS));
    }

    const unpaid: Omit<TransactionRecord, "offset"> = {
      updateId,
      commandId: submission.commandId,
      workflowId: submission.workflowId,
      submitters: submission.actAs,
      effectiveAt: ledgerTime,
      recordTime,
      nodes: interpreted.nodes,
      ...(pinned ? { externalTransactionHash: pinned.externalTransactionHash } : {}),
    };
    // Priced last, on what would be sequenced; a member without traffic commits nothing.
    const charge = this.traffic ? await this.traffic.charge(unpaid, submission.userId, pinned?.signatures ?? 0) : undefined;
    if (charge instanceof LedgerError) return this.refusal(submission, base, dedup, pinned?.updateId, charge);
    const paid = charge ? { paidTrafficCost: charge.cost } : {};
    const transaction: Omit<TransactionRecord, "offset"> = extend(unpaid, paid);
    const status = { code: 0, message: "", errorCode: "", category: 0, context: {}, resources: [], correlationId: submission.submissionId };
    const completion: Omit<CompletionRecord, "offset"> = extend(base, paid, { updateId, status });
    return this.commit(submission, base, dedup, interpreted, transaction, completion, charge);
  }

  /** The atomic commit, and the charge settled by its outcome. */
  private async commit(
    submission: Submission,
    base: CompletionBase,
    dedup: Deduplication,
    interpreted: InterpretedTransaction,
    transaction: Omit<TransactionRecord, "offset">,
    completion: Omit<CompletionRecord, "offset">,
    charge: TrafficCharge | undefined,
  ): Promise<SubmitOutcome> {
    const updateId = transaction.updateId;
    let conflictError: LedgerError | undefined;
    let result: CommitResult;
    try {
      result = await this.store.commit({
        kind: "transaction",
        dedup,
        inputs: interpreted.inputs,
        archives: interpreted.archives,
        // Created at the transaction's ledger time: a signed transaction's own preparation ran at
        // its preparation time, and the streams give its contracts the time it commits at.
        creates: interpreted.creates.map((c) => updated(c, { createUpdateId: updateId, createdAt: transaction.effectiveAt })),
        transaction,
        completion,
        onConflict: (conflict) => {
          conflictError = conflictErrorOf(conflict, dedup.changeKey);
          return extend(base, { status: statusOf(conflictError, submission.submissionId) });
        },
      });
    } catch (e) {
      // No outcome to settle on (a failed write, or a failed sync that stops the store): refund.
      // A commit that may have landed is counted again from the file at the restart it needs.
      await charge?.settle(false, 0n);
      if (e instanceof CommitOutcomeUnknown) throw errors.requestTimeOut(`The command's commit has an unknown outcome: ${e.message}`, e);
      throw e;
    }
    await charge?.settle(result.kind === "committed", result.offset);
    if (result.kind === "committed") {
      const offset = result.offset;
      return { kind: "committed", transaction: extend(transaction, { offset }), completion: extend(completion, { offset }), results: interpreted.results };
    }
    const error = conflictError ?? conflictErrorOf(result.conflict!, dedup.changeKey);
    return { kind: "rejected", error, completion: extend(base, { status: statusOf(error, submission.submissionId), offset: result.offset }) };
  }

  /** A refused submission: its completion is committed, and so streamed, like a transaction's. */
  private async rejection(submission: Submission, base: CompletionBase, error: LedgerError): Promise<SubmitOutcome> {
    const completion = extend(base, { status: statusOf(error, submission.submissionId) });
    const result = await this.store.commit({ kind: "rejection", completion });
    return { kind: "rejected", error, completion: extend(completion, { offset: result.offset }) };
  }

  /** The rejection for `error`, unless the submission is a duplicate: then that is the answer. */
  private async refusal(submission: Submission, base: CompletionBase, dedup: Deduplication, updateId: string | undefined, error: LedgerError): Promise<SubmitOutcome> {
    return this.rejection(submission, base, (await this.duplicateOf(dedup, updateId)) ?? error);
  }

  /** DUPLICATE_COMMAND if the change was accepted within the period, or the update id already committed (a replayed execute). */
  private async duplicateOf(dedup: Deduplication, updateId: string | undefined): Promise<LedgerError | undefined> {
    const previous = await this.store.acceptedCommand(dedup.changeKey);
    if (previous && isDuplicate(previous, dedup)) return errors.duplicateCommand(dedup.changeKey, previous.offset);
    const replayed = updateId === undefined ? undefined : await this.store.transactionById(updateId);
    return replayed && errors.duplicateCommand(dedup.changeKey, replayed.offset);
  }

  /** The first of `actAs` that is an external party, if any. */
  async externalActAs(actAs: readonly string[]): Promise<string | undefined> {
    for (const party of actAs) if ((await this.store.party(party))?.external) return party;
    return undefined;
  }

  private deduplication(submission: Submission, now: bigint): Deduplication | LedgerError {
    const changeKey = changeKeyOf(submission.userId, submission.actAs, submission.commandId);
    const d = submission.deduplication;
    switch (d.kind) {
      case "none":
        return { changeKey, since: now - this.maxDedupMicros };
      case "duration": {
        const micros = d.seconds * 1_000_000n + BigInt(Math.floor(d.nanos / 1000));
        if (micros < 0n) return errors.invalidField("deduplication_period", "duration must not be negative");
        if (micros > this.maxDedupMicros) {
          return errors.invalidField("deduplication_period", `The given deduplication duration exceeds the maximum deduplication duration of ${this.maxDedupMicros / 1_000_000n}s`);
        }
        return { changeKey, since: now - micros };
      }
      case "offset":
        if (d.offset < 0n) return errors.invalidField("deduplication_period", "offset must not be negative");
        return { changeKey, since: 0n, sinceOffset: d.offset };
    }
  }
}

function conflictErrorOf(conflict: Conflict, changeKey: string): LedgerError {
  switch (conflict.kind) {
    case "inactive":
      return errors.inactiveContracts([...conflict.contractIds]);
    case "duplicateKey":
      return errors.duplicateContractKey(conflict.keyHash);
    case "duplicateCommand":
      return errors.duplicateCommand(changeKey, conflict.existingOffset);
  }
}

/** Canton's answer to a submission acting as a party the participant hosts without submission rights. */
export function externalPartyCannotSubmit(party: string): LedgerError {
  return errors.authorization(`${party} is an external party: it acts only through interactive submissions signed with its key (PrepareSubmission, ExecuteSubmission)`);
}

/** Canton's `ledger_time_record_time_tolerance` (a dynamic synchronizer parameter): 60 s by default. */
export const LEDGER_TIME_RECORD_TIME_TOLERANCE_MICROS = 60_000_000n;

const absolute = (x: bigint): bigint => (x < 0n ? -x : x);
