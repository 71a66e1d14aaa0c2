/**
 * The legacy `TransferCommand`s of external senders by (sender, nonce), from creation to their end
 * (sent, failed, withdrawn, expired), kept from the ledger's transaction feed: what Splice's scan
 * answers at `/v0/transfer-command/status`. An ended command is in no ACS snapshot, so only the
 * log knows it; the stored log is replayed at start (in pages, in the background) and then every
 * commit is applied. Ended commands are remembered up to `maxEnded`, oldest forgotten first.
 */
import { fromDamlJson } from "../../ledger/daml-type.js";
import type { ContractRecord, CreateNodeRecord, ExerciseNodeRecord, TransactionRecord } from "../../ledger/records.js";
import type { LedgerStore } from "../../ledger/store-port.js";
import { qualifiedId } from "../../ledger/template.js";
import type { TransactionFeed } from "../../ledger/transaction-feed.js";
import { TransferCommand, TransferCommand_Expire, TransferCommand_Send, TransferCommand_Withdraw, type TransferCommandPayload } from "../../templates/splice/external-party-amulet-rules.js";
import { loadAtFeed, recordOfCreate, replayLog } from "./feed-snapshot.js";
import { exerciseOf } from "./ledger-scan.js";

export type TransferCommandStatus =
  | { readonly status: "created" | "sent" }
  | { readonly status: "failed"; readonly failureKind: "failed" | "expired" | "withdrawn"; readonly reason: string };

export interface TransferCommandEntry {
  readonly record: ContractRecord;
  readonly sender: string;
  readonly nonce: bigint;
  status: TransferCommandStatus;
}

export const DEFAULT_MAX_ENDED_COMMANDS = 100_000;
const COMMAND = qualifiedId(TransferCommand.id);

/** What the choice that consumed a TransferCommand made of it. */
export function commandOutcomeOf(node: ExerciseNodeRecord): TransferCommandStatus {
  switch (node.choice) {
    case TransferCommand_Send.name: {
      const { result } = exerciseOf(TransferCommand_Send, node).result;
      if (result.tag === "TransferCommandResultSuccess") return { status: "sent" };
      const reason = result.value.reason;
      return { status: "failed", failureKind: "failed", reason: reason.tag === "ITR_Other" ? reason.value.description : `${reason.tag} ${JSON.stringify(node.result)}` };
    }
    case TransferCommand_Withdraw.name:
      return { status: "failed", failureKind: "withdrawn", reason: "The sender withdrew the TransferCommand" };
    case TransferCommand_Expire.name:
      return { status: "failed", failureKind: "expired", reason: "The TransferCommand expired before it could be completed" };
    default:
      return { status: "failed", failureKind: "failed", reason: `archived by ${node.choice}` };
  }
}

export class TransferCommandIndex {
  private readonly bySenderNonce = new Map<string, TransferCommandEntry[]>();
  private readonly open = new Map<string, TransferCommandEntry>();
  private readonly ended: TransferCommandEntry[] = [];
  private ready: Promise<void>;

  constructor(
    private readonly feed: TransactionFeed,
    private readonly store: LedgerStore,
    private readonly maxEnded = DEFAULT_MAX_ENDED_COMMANDS,
  ) {
    this.ready = this.load();
    this.ready.catch(() => undefined);
  }

  /** The sender's commands with this nonce (usually one), including everything committed before the call. */
  async commands(sender: string, nonce: bigint): Promise<readonly TransferCommandEntry[]> {
    await this.current();
    return this.bySenderNonce.get(keyOf(sender, nonce)) ?? [];
  }

  /** The commands not yet ended, in creation order. */
  async openCommands(): Promise<TransferCommandEntry[]> {
    await this.current();
    return [...this.open.values()];
  }

  /** Everything committed before the call is in (the snapshot read again if it failed). */
  private async current(): Promise<void> {
    const ready = this.ready;
    await ready.catch(() => {
      if (this.ready === ready) this.ready = this.load();
      return this.ready;
    });
    await this.feed.caughtUp();
  }

  private load(): Promise<void> {
    this.bySenderNonce.clear();
    this.open.clear();
    this.ended.length = 0;
    return loadAtFeed(
      this.feed,
      (upTo) => replayLog(this.store, upTo, (tx) => this.apply(tx)),
      (_done, since) => {
        for (const tx of since) this.apply(tx);
        this.feed.subscribe((tx) => this.apply(tx));
      },
    );
  }

  private apply(tx: TransactionRecord): void {
    for (const node of tx.nodes) {
      if (node.kind === "create") {
        if (node.templateId === COMMAND) this.created(recordOfCreate(tx, node as CreateNodeRecord));
      } else if (node.consuming) {
        const entry = this.open.get(node.contractId);
        if (entry) this.consumed(entry, node);
      }
    }
  }

  private created(record: ContractRecord): void {
    const p = fromDamlJson(TransferCommand.payload, record.payload) as TransferCommandPayload;
    const entry: TransferCommandEntry = { record, sender: p.sender, nonce: p.nonce, status: { status: "created" } };
    this.open.set(record.contractId, entry);
    const key = keyOf(p.sender, p.nonce);
    this.bySenderNonce.set(key, [...(this.bySenderNonce.get(key) ?? []), entry]);
  }

  private consumed(entry: TransferCommandEntry, node: ExerciseNodeRecord): void {
    this.open.delete(node.contractId);
    entry.status = commandOutcomeOf(node);
    this.ended.push(entry);
    if (this.ended.length > this.maxEnded) this.forget(this.ended.shift()!);
  }

  private forget(entry: TransferCommandEntry): void {
    const key = keyOf(entry.sender, entry.nonce);
    const left = (this.bySenderNonce.get(key) ?? []).filter((e) => e !== entry);
    if (left.length > 0) this.bySenderNonce.set(key, left);
    else this.bySenderNonce.delete(key);
  }
}

const keyOf = (sender: string, nonce: bigint) => `${sender}#${nonce}`;
