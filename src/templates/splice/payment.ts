/**
 * Payment amounts of the wallet workflows (splice-wallet-payments `Splice.Wallet.Payment`): an
 * amount is quoted either in CC or in USD, and USD is converted at the price of the open round
 * the paying transfer uses, so the receiver gets the USD value at payment time.
 */
import { t, type ValueOf } from "../../ledger/daml-type.js";
import type { Numeric } from "../../ledger/numeric.js";
import type { UpdateContext } from "../../ledger/template.js";
import { spliceType } from "./packages.js";
import type { OpenMiningRoundPayload } from "./round.js";

const MODULE = "Splice.Wallet.Payment";

/** `ExtUnit` only exists so the enum can grow under upgrades; Splice refuses it at runtime. */
export const PaymentUnit = t.enum(["USDUnit", "AmuletUnit", "ExtUnit"] as const, spliceType("walletPayments", MODULE, "Unit"));
export type PaymentUnit = ValueOf<typeof PaymentUnit>;

export const PaymentAmount = t.record({ amount: t.numeric(), unit: PaymentUnit }, spliceType("walletPayments", MODULE, "PaymentAmount"));
export type PaymentAmount = ValueOf<typeof PaymentAmount>;

export const ReceiverAmount = t.record({ receiver: t.party, amount: PaymentAmount }, spliceType("walletPayments", MODULE, "ReceiverAmount"));
export type ReceiverAmount = ValueOf<typeof ReceiverAmount>;

/** Splice `paymentAmountToAmulet`: the CC a payment amount is worth in `round`. */
export function paymentAmountToAmulet(ctx: UpdateContext, dso: string, round: OpenMiningRoundPayload, amount: PaymentAmount): Numeric {
  switch (amount.unit) {
    case "USDUnit":
      ctx.require(round.dso === dso, "matching DSO party");
      return amount.amount.div(round.amuletPrice);
    case "AmuletUnit":
      return amount.amount;
    case "ExtUnit":
      ctx.require(false, "ExtUnit: bare extension constructors are not allowed at runtime");
      return amount.amount;
  }
}
