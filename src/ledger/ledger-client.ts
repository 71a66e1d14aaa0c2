/**
 * Typed, in-process access to the ledger for the node's own apps (the simulated DSO, the wallet,
 * automation). Everything still goes through `Ledger.submit` — the same interpretation,
 * authorization, deduplication and completions as any gRPC or JSON client — so every action is
 * visible on `/v2` like any other.
 */
import { randomUUID } from "node:crypto";
import { createCommand, exerciseCommand, exerciseInterfaceCommand, type Command, type DeduplicationPeriod } from "./commands.js";
import { decodedPayload } from "./decoded-payloads.js";
import type { Ledger } from "./engine.js";
import { partyIdFor, randomHex, type ContractId, type PartyId } from "./ids.js";
import type { ContractRecord, TransactionRecord } from "./records.js";
import type { Choice, ContractRef, InterfaceChoice, InterfaceDef, Template } from "./template.js";
import { qualifiedId } from "./template.js";

export interface SubmitOptions {
  readonly readAs?: readonly string[];
  readonly commandId?: string;
  readonly workflowId?: string;
  readonly disclosed?: readonly ContractRecord[];
  readonly deduplication?: DeduplicationPeriod;
}

export interface Active<P> extends ContractRef<P> {
  readonly record: ContractRecord;
}

export class LedgerClient {
  constructor(
    readonly ledger: Ledger,
    readonly userId: string,
    private readonly namespace: string,
  ) {}

  /** Allocates a party (`hint::namespace`); an existing one is returned as is. */
  async allocateParty(hint: string): Promise<PartyId> {
    const party = partyIdFor(hint || `party-${randomHex(8)}`, this.namespace);
    await this.ledger.store.addParty({ party, isLocal: true, localMetadata: { resourceVersion: "0", annotations: {} }, identityProviderId: "" });
    return party;
  }

  /** Submits and waits; a rejection is thrown as its `LedgerError`. */
  async submit(actAs: readonly string[], commands: readonly Command[], options: SubmitOptions = {}): Promise<TransactionRecord> {
    return (await this.committed(actAs, commands, options)).transaction;
  }

  /** The committed transaction and each command's typed root result. */
  private async committed(actAs: readonly string[], commands: readonly Command[], options: SubmitOptions = {}): Promise<{ transaction: TransactionRecord; results: readonly unknown[] }> {
    const commandId = options.commandId ?? randomUUID();
    const outcome = await this.ledger.submit({
      userId: this.userId,
      commandId,
      submissionId: randomUUID(),
      workflowId: options.workflowId ?? "",
      actAs,
      readAs: options.readAs ?? [],
      commands,
      deduplication: options.deduplication ?? { kind: "none" },
      disclosed: options.disclosed ?? [],
      visibility: "node",
    });
    if (outcome.kind === "rejected") throw outcome.error;
    return outcome;
  }

  async create<P>(actAs: readonly string[], template: Template<P>, payload: P, options?: SubmitOptions): Promise<ContractId> {
    const tx = await this.submit(actAs, [createCommand(template, payload)], options);
    const node = tx.nodes.find((n) => n.kind === "create");
    return (node!.kind === "create" ? node!.contractId : "") as ContractId;
  }

  /**
   * Exercises a choice — one of the template's exported choice constants, so the argument and the
   * result are typed by it — and returns its result (read back from the transaction's root node).
   */
  async exercise<P, A, R>(
    actAs: readonly string[],
    template: Template<P>,
    contractId: string,
    choice: Choice<P, A, R>,
    argument: A,
    options?: SubmitOptions,
  ): Promise<{ result: R; transaction: TransactionRecord }> {
    const { transaction, results } = await this.committed(actAs, [exerciseCommand(template, contractId, choice, argument)], options);
    // The interpreter's own value: the root node's JSON decoded back would be the same, and cost a decode.
    return { result: results[0] as R, transaction };
  }

  /** Exercises an interface choice (the interface's exported choice constant), like `exercise`. */
  async exerciseInterface<V, A, R>(
    actAs: readonly string[],
    iface: InterfaceDef<V>,
    contractId: string,
    choice: InterfaceChoice<V, A, R>,
    argument: A,
    options?: SubmitOptions,
  ): Promise<{ result: R; transaction: TransactionRecord }> {
    const { transaction, results } = await this.committed(actAs, [exerciseInterfaceCommand(iface, contractId, choice, argument)], options);
    return { result: results[0] as R, transaction };
  }

  /** Archives a contract through the template's implicit `Archive` choice (as its signatories). */
  async archive<P>(actAs: readonly string[], template: Template<P>, contractId: string, options?: SubmitOptions): Promise<TransactionRecord> {
    return (await this.exercise(actAs, template, contractId, template.archive, {}, options)).transaction;
  }

  /** Active contracts of a template, optionally only those a set of parties can see. */
  async active<P>(template: Template<P>, parties?: readonly string[]): Promise<Active<P>[]> {
    const records = await this.ledger.store.activeContracts({ templateIds: [qualifiedId(template.id)], parties });
    return records.map((record) => ({ contractId: record.contractId as ContractId, payload: decodedPayload(template.payload, record) as P, record }));
  }

  async contract<P>(template: Template<P>, contractId: string): Promise<Active<P> | undefined> {
    const record = await this.ledger.store.activeContract(contractId);
    if (!record || record.templateId !== qualifiedId(template.id)) return undefined;
    return { contractId: record.contractId as ContractId, payload: decodedPayload(template.payload, record) as P, record };
  }
}
