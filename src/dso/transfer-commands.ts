/**
 * The DSO as delegate of the legacy `TransferCommand`s (Splice's `TransferCommandCounterTrigger`
 * and `TransferCommandSendTrigger`): give each sender a `TransferCommandCounter`, execute
 * commands whose nonce is due (a stale nonce is archived as a failure by the choice itself),
 * leave commands with a future nonce waiting, and expire commands past `expiresAt`.
 */
import { type Active, type LedgerClient } from "../ledger/ledger-client.js";
import { LedgerError } from "../ledger/errors.js";
import { Amulet, FeaturedAppRight } from "../templates/splice/amulet.js";
import { TransferCommand, TransferCommand_Expire, TransferCommand_Send, TransferCommandCounter, type TransferCommandPayload } from "../templates/splice/external-party-amulet-rules.js";
import { TransferPreapproval } from "../templates/splice/transfer-preapproval.js";
import { latestOpenRound, type NetworkState } from "../network/network-state.js";

const MAX_INPUTS = 100;

export class TransferCommandRunner {
  /** Commands whose send failed at a ledger time, so one pass does not retry them forever. */
  private readonly failedAt = new Map<string, bigint>();

  constructor(private readonly client: LedgerClient) {}

  /** One step: `true` when it changed the ledger. */
  async step(state: NetworkState, now: bigint): Promise<boolean> {
    const dso = state.rules.payload.dso;
    const commands = (await this.client.active(TransferCommand, [dso])).filter((c) => c.payload.dso === dso);
    const live = new Set(commands.map((c) => c.contractId as string));
    for (const cid of this.failedAt.keys()) if (!live.has(cid)) this.failedAt.delete(cid);
    const expired = commands.filter((c) => c.payload.expiresAt <= now);
    if (expired.length > 0) {
      const expire = TransferCommand_Expire;
      for (const c of expired) await this.client.exercise([dso], TransferCommand, c.contractId, expire, { p: dso });
      return true;
    }
    const counters = new Map((await this.client.active(TransferCommandCounter, [dso])).map((c) => [c.payload.sender, c] as const));
    for (const cmd of commands.filter((c) => c.payload.delegate === dso).sort(byNonce)) {
      const counter = counters.get(cmd.payload.sender);
      if (!counter) {
        await this.client.create([dso], TransferCommandCounter, { dso, sender: cmd.payload.sender, nextNonce: 0n });
        return true;
      }
      if (cmd.payload.nonce > counter.payload.nextNonce || this.failedAt.get(cmd.contractId) === now) continue;
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
      ? (await this.client.active(FeaturedAppRight, [preapproval.payload.provider])).find((f) => f.payload.provider === preapproval.payload.provider)
      : undefined;
    const amulets = (await this.client.active(Amulet, [sender]))
      .filter((a) => a.payload.owner === sender && a.payload.dso === dso)
      .sort((a, b) => b.payload.amount.initialAmount.cmp(a.payload.amount.initialAmount))
      .slice(0, MAX_INPUTS);
    try {
      await this.client.exercise([dso], TransferCommand, cmd.contractId, TransferCommand_Send, {
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
      // E.g. insufficient funds: the command stays and is retried once ledger time moves.
      if (!(e instanceof LedgerError)) throw e;
      this.failedAt.set(cmd.contractId, now);
      return false;
    }
  }
}

const byNonce = (a: Active<TransferCommandPayload>, b: Active<TransferCommandPayload>) =>
  a.payload.nonce < b.payload.nonce ? -1 : a.payload.nonce > b.payload.nonce ? 1 : 0;
