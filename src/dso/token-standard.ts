/**
 * The DSO's part in CC's token standard: `ExternalPartyAmuletRules` at genesis (the transfer
 * factory) and the expiry of transfer instructions past their `executeBefore`, as Splice's SVs do
 * with `ExpiredAmuletTransferInstructionTrigger`: `TransferInstruction_Update` by the DSO unlocks
 * the CC back to the sender (or just archives the instruction when the sender already expired
 * the lock), so an unanswered offer never keeps the sender's CC locked. The DSO also runs the
 * legacy `TransferCommand`s it is the delegate of (`transfer-commands.ts`).
 */
import { exerciseInterfaceCommand, type Command } from "../ledger/commands.js";
import type { LedgerClient } from "../ledger/ledger-client.js";
import type { Template } from "../ledger/template.js";
import { AmuletTransferInstruction } from "../templates/splice/amulet-transfer-instruction.js";
import { LockedAmulet } from "../templates/splice/amulet.js";
import { ExternalPartyAmuletRules, TransferCommand, TransferCommandCounter } from "../templates/splice/external-party-amulet-rules.js";
import { anyValue, CONTEXT_KEYS } from "../templates/splice/token-standard/choice-context.js";
import { TransferInstruction, TransferInstructionChoices } from "../templates/splice/token-standard/transfer-instruction-v1.js";
import type { AnyValueV } from "../templates/splice/types.js";
import type { GenesisContract } from "./bootstrap-network.js";
import { automationStep, type AutomationStep } from "../automation/automation-step.js";
import { latestOpenRound, type NetworkState } from "../network/network-state.js";
import { TransferCommandRunner } from "./transfer-commands.js";

export const tokenStandardGenesis: readonly GenesisContract[] = [
  { template: ExternalPartyAmuletRules as Template<unknown>, payload: (dso: string) => ({ dso }) },
];

const BATCH = 100;

/** Expires every transfer instruction whose deadline has passed; one transaction per 100. */
export async function expireTransferInstructions(client: LedgerClient, state: NetworkState, now: bigint): Promise<boolean> {
  const dso = state.rules.payload.dso;
  // Instructions of the DSO's instrument only: anyone can sign one naming itself as its admin.
  const expired = (await client.active(AmuletTransferInstruction, [dso])).filter((i) => i.payload.transfer.instrumentId.admin === dso && i.payload.transfer.executeBefore <= now);
  if (expired.length === 0) return false;
  const openRound = latestOpenRound(state, now).contractId;
  const commands: Command[] = [];
  for (const instr of expired) {
    const lockExists = (await client.contract(LockedAmulet, instr.payload.lockedAmulet)) !== undefined;
    const values = new Map<string, AnyValueV>([[CONTEXT_KEYS.expireLock, anyValue.bool(lockExists)]]);
    if (lockExists) values.set(CONTEXT_KEYS.openRound, anyValue.contractId(openRound));
    commands.push(
      exerciseInterfaceCommand(TransferInstruction, instr.contractId, TransferInstructionChoices.update, {
        extraActors: [],
        extraArgs: { context: { values }, meta: { values: new Map() } },
      }),
    );
  }
  for (let i = 0; i < commands.length; i += BATCH) await client.submit([dso], commands.slice(i, i + BATCH));
  return true;
}

/**
 * The DSO automation steps of the token standard, for `startNetwork({ extraSteps })`: expiring
 * transfer instructions, and acting as delegate of `TransferCommand`s.
 */
export function tokenStandardSteps(client: LedgerClient): AutomationStep[] {
  const commands = new TransferCommandRunner(client);
  return [
    automationStep("expire transfer instructions", { timed: true }, (state, now) => expireTransferInstructions(client, state, now)),
    // New commands and counters give work; expiry and retries after a failed send come with time.
    automationStep("run transfer commands", { watches: [TransferCommand, TransferCommandCounter], timed: true }, (state, now) => commands.step(state, now)),
  ];
}
