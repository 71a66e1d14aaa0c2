/**
 * The DSO's housekeeping: dust holdings (worth nothing at the latest open round) and preapprovals
 * past their expiry are archived. Batched, many commands per transaction.
 */
import { exerciseCommand, type Command } from "../ledger/commands.js";
import type { LedgerClient } from "../ledger/ledger-client.js";
import { Amulet, Amulet_Expire, LockedAmulet, LockedAmulet_ExpireAmulet } from "../templates/splice/amulet.js";
import { isExpired } from "../templates/splice/fees.js";
import { TransferPreapproval, TransferPreapproval_Expire } from "../templates/splice/transfer-preapproval.js";
import { latestOpenRound, type NetworkState } from "../network/network-state.js";

const BATCH = 100;

async function submitBatches(client: LedgerClient, dso: string, commands: Command[]): Promise<boolean> {
  for (let i = 0; i < commands.length; i += BATCH) await client.submit([dso], commands.slice(i, i + BATCH));
  return commands.length > 0;
}

export async function expireDust(client: LedgerClient, state: NetworkState, now: bigint): Promise<boolean> {
  const dso = state.rules.payload.dso;
  const round = latestOpenRound(state, now);
  const roundCid = round.contractId;
  const n = round.payload.round.number;
  const commands: Command[] = [];
  for (const a of await client.active(Amulet, [dso])) {
    if (isExpired(a.payload.amount, n)) commands.push(exerciseCommand(Amulet, a.contractId, Amulet_Expire, { roundCid }));
  }
  for (const l of await client.active(LockedAmulet, [dso])) {
    // Not while its lock holds (the choice refuses, and one refusal would fail the whole batch).
    if (isExpired(l.payload.amulet.amount, n) && l.payload.lock.expiresAt <= now) commands.push(exerciseCommand(LockedAmulet, l.contractId, LockedAmulet_ExpireAmulet, { roundCid }));
  }
  return submitBatches(client, dso, commands);
}

export async function expirePreapprovals(client: LedgerClient, state: NetworkState, now: bigint): Promise<boolean> {
  const dso = state.rules.payload.dso;
  const expired = (await client.active(TransferPreapproval, [dso])).filter((p) => p.payload.expiresAt <= now);
  return submitBatches(client, dso, expired.map((p) => exerciseCommand(TransferPreapproval, p.contractId, TransferPreapproval_Expire, {})));
}
