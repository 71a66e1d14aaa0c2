/**
 * Executes the legacy `TransferCommand`s a delegate is responsible for (Splice's
 * `TransferCommandSendTrigger`): the ones whose nonce is due, in nonce order, with the sender's
 * largest holdings as inputs and the receiver's preapproval if it has one. A command with a future
 * nonce waits; a stale one is archived as a failure by the choice itself. The DSO keeps the
 * counters and expires commands (src/dso/transfer-commands.ts); the validator operator sends the
 * commands its external parties address to it, and the DSO the ones addressed to the DSO.
 */
import { LedgerError } from "../ledger/errors.js";
import type { Active, LedgerClient } from "../ledger/ledger-client.js";
import { Amulet, FeaturedAppRight } from "../templates/splice/amulet.js";
import { TransferCommand, TransferCommand_Send, TransferCommandCounter, type TransferCommandPayload } from "../templates/splice/external-party-amulet-rules.js";
import { TransferPreapproval } from "../templates/splice/transfer-preapproval.js";
import { latestOpenRound, type NetworkState } from "./network-state.js";

const MAX_INPUTS = 100;
/** A command whose send failed waits this long (ledger time) before its next try, doubling per failure. */
const FIRST_RETRY_MICROS = 1_000_000n;
const MAX_RETRY_MICROS = 600_000_000n;

interface Failures {
  readonly count: number;
  readonly retryAt: bigint;
}

export class TransferCommandSender {
  /** Commands whose send failed (say, the sender lacks the funds): when each may be tried again. */
  private readonly failures = new Map<string, Failures>();

  constructor(
    private readonly client: LedgerClient,
    /** The delegate whose commands this sender executes, acting as it. */
    private readonly delegate: string,
    /**
     * The open commands naming this delegate that it sends: by default all, read from the store;
     * a validator's, those of the external parties it hosts (wallet-automation.ts).
     */
    private readonly open: () => Promise<Active<TransferCommandPayload>[]> = () => client.active(TransferCommand, [delegate]),
  ) {}

  /** The earliest time a command that failed may be tried again (undefined: none waits). */
  get nextRetry(): bigint | undefined {
    let next: bigint | undefined;
    for (const f of this.failures.values()) if (next === undefined || f.retryAt < next) next = f.retryAt;
    return next;
  }

  /**
   * Sends the first due command it can; `true` when it changed the ledger. Anyone may create a
   * TransferCommand naming this delegate, and 20,000 unpayable ones of an ordinary user, each
   * tried every pass, held the whole automation loop for 14 s (a hostile review). So each
   * sender's due nonce is tried once a pass, by its oldest command not waiting out a backoff,
   * and a failed command waits longer after every failure.
   */
  async step(state: NetworkState, now: bigint): Promise<boolean> {
    const dso = state.rules.payload.dso;
    const commands = (await this.open()).filter(
      (c) => c.payload.dso === dso && c.payload.delegate === this.delegate && c.payload.expiresAt > now,
    );
    const live = new Set(commands.map((c) => c.contractId as string));
    for (const cid of this.failures.keys()) if (!live.has(cid)) this.failures.delete(cid);
    const counters = new Map((await this.client.active(TransferCommandCounter, [dso])).map((c) => [c.payload.sender, c] as const));
    const tried = new Set<string>();
    for (const cmd of commands.sort(byNonce)) {
      const { sender, nonce } = cmd.payload;
      const counter = counters.get(sender);
      // Without a counter the DSO has yet to create one; a future nonce waits for its turn.
      if (!counter || nonce > counter.payload.nextNonce || tried.has(sender)) continue;
      // One waiting out its backoff does not hold back another command of the same nonce.
      const failed = this.failures.get(cmd.contractId);
      if (failed && now < failed.retryAt) continue;
      tried.add(sender);
      if (await this.send(state, now, cmd, counter.contractId)) return true;
    }
    return false;
  }

  private async send(state: NetworkState, now: bigint, cmd: Active<TransferCommandPayload>, counterCid: string): Promise<boolean> {
    const { dso, sender, receiver } = cmd.payload;
    const preapproval = (await this.client.active(TransferPreapproval, [receiver])).find(
      (p) => p.payload.receiver === receiver && p.payload.dso === dso && p.payload.expiresAt > now,
    );
    const featured = preapproval
      ? (await this.client.active(FeaturedAppRight, [preapproval.payload.provider])).find((f) => f.payload.dso === dso && f.payload.provider === preapproval.payload.provider)
      : undefined;
    const amulets = (await this.client.active(Amulet, [sender]))
      .filter((a) => a.payload.owner === sender && a.payload.dso === dso)
      .sort((a, b) => b.payload.amount.initialAmount.cmp(a.payload.amount.initialAmount))
      .slice(0, MAX_INPUTS);
    try {
      await this.client.exercise([this.delegate], TransferCommand, cmd.contractId, TransferCommand_Send, {
        context: {
          amuletRules: state.rules.contractId,
          context: { openMiningRound: latestOpenRound(state, now).contractId, issuingMiningRounds: [], validatorRights: [], featuredAppRight: featured?.contractId ?? null },
        },
        inputs: amulets.map((a) => ({ tag: "InputAmulet" as const, value: a.contractId })),
        transferPreapprovalCidO: preapproval?.contractId ?? null,
        transferCounterCid: counterCid,
      });
      return true;
    } catch (e) {
      // E.g. insufficient funds: the command stays, to be tried again later (it may expire first).
      if (!(e instanceof LedgerError)) throw e;
      const count = (this.failures.get(cmd.contractId)?.count ?? 0) + 1;
      const wait = FIRST_RETRY_MICROS << BigInt(Math.min(count - 1, 20));
      this.failures.set(cmd.contractId, { count, retryAt: now + (wait < MAX_RETRY_MICROS ? wait : MAX_RETRY_MICROS) });
      return false;
    }
  }
}

const byNonce = (a: Active<TransferCommandPayload>, b: Active<TransferCommandPayload>) =>
  a.payload.nonce < b.payload.nonce ? -1 : a.payload.nonce > b.payload.nonce ? 1 : 0;
