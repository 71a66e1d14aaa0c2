/**
 * The DSO's part in the legacy `TransferCommand`s (Splice's SV `TransferCommandCounterTrigger`
 * and expiry): give each sender with a pending command a `TransferCommandCounter`, expire commands
 * past `expiresAt`, and send the commands whose delegate is the DSO itself. Commands delegated to
 * a validator operator are sent by that validator's automation (src/network/transfer-command-sender.ts).
 */
import { type LedgerClient } from "../ledger/ledger-client.js";
import { TemplateChanges } from "../ledger/template-changes.js";
import { TransferCommand, TransferCommand_Expire, TransferCommandCounter } from "../templates/splice/external-party-amulet-rules.js";
import { type NetworkState } from "../network/network-state.js";
import { TransferCommandSender } from "../network/transfer-command-sender.js";

export class TransferCommandRunner {
  /** Sends as the DSO; made on the first step, once the DSO party is known from the rules. */
  private sender: TransferCommandSender | undefined;
  private readonly changes: TemplateChanges;
  /** When the commands last read next need a look with nothing changed: the earliest expiry or retry. */
  private due: bigint | undefined;

  constructor(private readonly client: LedgerClient) {
    this.changes = new TemplateChanges(client.ledger.feed, [TransferCommand, TransferCommandCounter]);
  }

  /**
   * One step: `true` when it changed the ledger. It reads the commands only after one changed or
   * when one expires or may be retried: 17,000 commands of one user, read on every tick here and
   * by the operator's sender, kept 80 % of a core busy for good (a re-run of a hostile review).
   */
  async step(state: NetworkState, now: bigint): Promise<boolean> {
    // What it does changes the commands: the loop runs it again, and the change makes it read.
    return this.changes.whenChanged(this.due === undefined || now >= this.due, () => this.look(state, now));
  }

  private async look(state: NetworkState, now: bigint): Promise<boolean> {
    const dso = state.rules.payload.dso;
    this.sender ??= new TransferCommandSender(this.client, dso);
    const commands = (await this.client.active(TransferCommand, [dso])).filter((c) => c.payload.dso === dso);
    const expired = commands.filter((c) => c.payload.expiresAt <= now);
    for (const c of expired) await this.client.exercise([dso], TransferCommand, c.contractId, TransferCommand_Expire, { p: dso });
    if (expired.length > 0) return true;
    const counters = new Set((await this.client.active(TransferCommandCounter, [dso])).map((c) => c.payload.sender));
    const uncounted = [...new Set(commands.map((c) => c.payload.sender))].filter((s) => !counters.has(s));
    for (const sender of uncounted) await this.client.create([dso], TransferCommandCounter, { dso, sender, nextNonce: 0n });
    if (uncounted.length > 0) return true;
    const sent = await this.sender.step(state, now);
    this.due = earliest([...commands.map((c) => c.payload.expiresAt), this.sender.nextRetry]);
    return sent;
  }
}

function earliest(times: readonly (bigint | undefined)[]): bigint | undefined {
  let first: bigint | undefined;
  for (const t of times) if (t !== undefined && (first === undefined || t < first)) first = t;
  return first ?? NEVER;
}

const NEVER = 2n ** 63n;
