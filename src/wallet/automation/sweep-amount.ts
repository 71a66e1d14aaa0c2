/**
 * The USD arithmetic of Splice's WalletSweepTrigger (reference A.4): what a party's balance
 * minus what its outstanding offers will take is compared with maxBalanceUSD, and the sweep sends
 * what brings it down to minBalanceUSD, less the fees the transfer itself costs. Fees come from
 * the network's USD fee schedule (AmuletConfig.transferConfig), as in Splice.
 */
import { Numeric } from "../../ledger/numeric.js";
import { chargeSteppedRate, type TransferConfig } from "../../templates/splice/amulet-config.js";
import type { PaymentAmount } from "../../templates/splice/payment.js";

/** A transfer's fixed cost: Splice counts two creates (the receiver's holding and the change). */
const createFees = (fees: TransferConfig): Numeric => fees.createFee.fee.mulInt(2n);

/**
 * USD an outstanding offer of `amountUsd` will take from the sender: the amount and the fees of
 * completing it. Splice feeds the CC amount into this USD schedule; we feed USD, knowingly.
 */
export function offerCostUsd(fees: TransferConfig, amountUsd: Numeric): Numeric {
  return amountUsd.plus(chargeSteppedRate(fees.transferFee, amountUsd)).plus(createFees(fees));
}

/** A payment amount in USD at `price` (USD per CC); an ExtUnit amount has no USD value here. */
export function usdOf(amount: PaymentAmount, price: Numeric): Numeric {
  switch (amount.unit) {
    case "AmuletUnit":
      return amount.amount.mul(price);
    case "USDUnit":
      return amount.amount;
    case "ExtUnit":
      return Numeric.zero;
  }
}

/** CC to sweep so that `minBalanceUsd` is left once the transfer's fees are paid; zero or less: nothing. */
export function sweepAmountCc(fees: TransferConfig, balanceUsd: Numeric, outstandingUsd: Numeric, minBalanceUsd: Numeric, price: Numeric): Numeric {
  const beforeFees = balanceUsd.minus(outstandingUsd).minus(minBalanceUsd);
  if (!beforeFees.isPositive()) return Numeric.zero;
  const afterFees = beforeFees.minus(createFees(fees)).minus(chargeSteppedRate(fees.transferFee, beforeFees));
  return afterFees.div(price);
}
