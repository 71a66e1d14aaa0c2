/**
 * The sender's wallet completes an accepted transfer offer as soon as it exists (Splice's
 * `AcceptedTransferOfferTrigger`): `AcceptedTransferOffer_Complete` with the validator operator
 * as wallet provider, inputs chosen like any send (`pickInputs`). When the sender cannot pay
 * (insufficient funds, more than 100 inputs needed) or the ledger refuses the transfer itself,
 * the offer is aborted with that reason (status: failed/withdrawn); an expired one is expired.
 * Only offers whose sender is a wallet party of this validator are touched.
 */
import { choiceOf, type Active } from "../ledger/ledger-client.js";
import type { Numeric } from "../ledger/numeric.js";
import { FeaturedAppRight } from "../templates/splice/amulet.js";
import { AcceptedTransferOffer, type AcceptedTransferOfferPayload } from "../templates/splice/wallet/transfer-offer.js";
import { pickInputs } from "../wallet/send-via-preapproval.js";
import { contextFor, spendableOf } from "../wallet/transfer-inputs.js";
import type { WalletDeps } from "../wallet/wallet-deps.js";
import { walletErrorOf, walletErrors } from "../wallet/wallet-error.js";
import { actOnEach, isPermanentRefusal } from "./act-on-each.js";
import type { WalletParties } from "./wallet-parties.js";

type Accepted = Active<AcceptedTransferOfferPayload>;
const choice = (name: string) => choiceOf<AcceptedTransferOfferPayload>(AcceptedTransferOffer, name);

export async function completeAcceptedOffers(deps: WalletDeps, parties: WalletParties, now: bigint): Promise<boolean> {
  const accepted = (await deps.client.active(AcceptedTransferOffer)).filter((a) => a.payload.dso === deps.dso);
  if (accepted.length === 0) return false;
  const ours = new Set(await parties());
  return actOnEach(
    accepted.filter((a) => ours.has(a.payload.sender)),
    (a) => (a.payload.expiresAt <= now ? expire(deps, a) : complete(deps, a)),
  );
}

async function expire(deps: WalletDeps, a: Accepted): Promise<void> {
  await deps.client.exercise([a.payload.sender], AcceptedTransferOffer, a.contractId, choice("AcceptedTransferOffer_Expire"), { actor: a.payload.sender });
}

async function abort(deps: WalletDeps, a: Accepted, reason: string): Promise<void> {
  await deps.client.exercise([a.payload.sender], AcceptedTransferOffer, a.contractId, choice("AcceptedTransferOffer_Abort"), { reason });
}

async function complete(deps: WalletDeps, a: Accepted): Promise<void> {
  const sender = a.payload.sender;
  const spendable = await spendableOf(deps, sender);
  let inputs;
  try {
    inputs = pickInputs(spendable.candidates, amountInCc(a, spendable.openRound.payload.amuletPrice));
  } catch (e) {
    if (isPermanentRefusal(e)) return abort(deps, a, walletErrorOf(e).message);
    throw e;
  }
  const [featured] = (await deps.client.active(FeaturedAppRight, [deps.validator])).filter((f) => f.payload.provider === deps.validator && f.payload.dso === deps.dso);
  const { context, disclosed } = contextFor(spendable, inputs, featured?.contractId ?? null);
  try {
    await deps.client.exercise(
      [sender, deps.validator],
      AcceptedTransferOffer,
      a.contractId,
      choice("AcceptedTransferOffer_Complete"),
      { inputs: inputs.map((i) => i.input), transferContext: { amuletRules: spendable.state.rules.contractId, context }, walletProvider: deps.validator },
      { disclosed: [...disclosed, ...(featured ? [featured.record] : [])] },
    );
  } catch (e) {
    if (isPermanentRefusal(e)) return abort(deps, a, `the transfer was refused: ${walletErrorOf(e).message}`);
    throw e;
  }
}

/** The CC the offer is worth now: USD amounts at the open round's price, as the choice converts them. */
function amountInCc(a: Accepted, amuletPrice: Numeric): Numeric {
  const { amount, unit } = a.payload.amount;
  switch (unit) {
    case "AmuletUnit":
      return amount;
    case "USDUnit":
      return amount.div(amuletPrice);
    case "ExtUnit":
      throw walletErrors.badRequest("the offer's amount is in an unsupported unit (ExtUnit)");
  }
}
