/**
 * `AmuletRules_Transfer` and the fee rules other templates run inside their own choices
 * (`TransferPreapproval` pays for its renewal, wallet workflows pay through the rules). Kept apart
 * from amulet-rules.ts so those templates can exercise it without importing the rules' full choice
 * table, which creates them in turn (no import cycle between the templates of Splice.AmuletRules).
 */
import { t, type ValueOf } from "../../ledger/daml-type.js";
import { Numeric } from "../../ledger/numeric.js";
import { choice, type UpdateContext } from "../../ledger/template.js";
import { DEFAULT_TRANSFER_PREAPPROVAL_FEE_PER_DAY, type AmuletConfig } from "./amulet-config.js";
import type { AmuletRulesPayload } from "./amulet-rules-payload.js";
import { executeTransfer } from "./execute-transfer.js";
import { OpenMiningRound } from "./round.js";
import { Transfer, TransferContext, TransferResult } from "./transfer-types.js";
import { MICROS_PER_DAY } from "./types.js";

/** Splice `transferControllers`: sender, provider, every receiver and every lock holder. */
export function transferControllers(tr: Transfer): string[] {
  const s = new Set([tr.sender, tr.provider]);
  for (const o of tr.outputs) {
    s.add(o.receiver);
    for (const h of o.lock?.holders ?? []) s.add(h);
  }
  return [...s];
}

/** The USD fee of a preapproval lifetime: the configured fee per day times the days. */
export function preapprovalFeeUsd(config: AmuletConfig, durationMicros: bigint): Numeric {
  // Splice `relTimeToDays`: a Decimal division, so half-even at scale 10 (not truncated).
  const days = Numeric.parse(durationMicros.toString()).div(Numeric.parse(MICROS_PER_DAY.toString()));
  return days.mul(config.transferPreapprovalFee ?? DEFAULT_TRANSFER_PREAPPROVAL_FEE_PER_DAY);
}

/** Splice `computeTransferPreapprovalFee`: USD per day of lifetime, converted at the open round's price. */
export async function preapprovalFee(ctx: UpdateContext, config: AmuletConfig, durationMicros: bigint, context: ValueOf<typeof TransferContext>, dso: string) {
  ctx.require(durationMicros > 0n, "duration is positive");
  const feeUsd = preapprovalFeeUsd(config, durationMicros);
  const round = await ctx.fetch(OpenMiningRound, context.openMiningRound);
  ctx.require(round.dso === dso, "OpenMiningRound belongs to this DSO");
  return { amuletPaid: feeUsd.div(round.amuletPrice), feeUsd };
}

export const AmuletRules_Transfer = choice({
  name: "AmuletRules_Transfer",
  consuming: false,
  argument: t.record({ transfer: Transfer, context: TransferContext }),
  result: TransferResult,
  controllers: (_r: AmuletRulesPayload, arg) => transferControllers(arg.transfer),
  body: (ctx, self, arg) => executeTransfer(ctx, { issueAppRewards: true, issueValidatorRewards: true }, arg.context, self.payload.dso, arg.transfer),
});
