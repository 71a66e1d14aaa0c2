/**
 * The sender's wallet completes an accepted transfer offer as soon as it exists (Splice's
 * `AcceptedTransferOfferTrigger`): `AcceptedTransferOffer_Complete` with the validator operator
 * as wallet provider, inputs chosen like any send (`pickInputs`). When the sender cannot pay
 * (insufficient funds, more than 100 inputs needed) or the ledger refuses the transfer itself,
 * the offer is aborted with that reason (status: failed/withdrawn); an expired one is expired.
 * Only offers whose sender is a wallet party of this validator are touched.
 *
 * Per pass, each sender's holdings are read once and its offers get disjoint inputs, so their
 * completions are submitted together (one commit for many); an offer the remaining inputs cannot
 * cover waits for the next pass, and only an offer the whole wallet cannot cover is aborted.
 * Command ids are per accepted offer (contract-action.ts): the status endpoint finds them directly.
 */
import type { Active } from "../../ledger/ledger-client.js";
import type { Choice } from "../../ledger/template.js";
import { NumericError, type Numeric } from "../../ledger/numeric.js";
import { FeaturedAppRight, type FeaturedAppRightPayload } from "../../templates/splice/amulet.js";
import {
  AcceptedTransferOffer,
  AcceptedTransferOffer_Abort,
  AcceptedTransferOffer_Complete,
  AcceptedTransferOffer_Expire,
  type AcceptedTransferOfferPayload,
} from "../../templates/splice/wallet/transfer-offer.js";
import { actionCommandId, type ContractAction } from "../support/contract-action.js";
import { pickInputs } from "../use-cases/send-via-preapproval.js";
import { contextFor, spendableOf, type SpendableCandidate } from "../support/transfer-inputs.js";
import type { WalletDeps } from "../wallet-deps.js";
import { walletErrorOf, walletErrors } from "../wallet-error.js";
import { actOnAll, isPermanentRefusal } from "./act-on-each.js";
import { spendingAs } from "../support/spend-queue.js";
import type { WalletParties } from "./wallet-parties.js";
import { type ValueOf } from "../../ledger/daml-type.js";

type Accepted = Active<AcceptedTransferOfferPayload>;
type Featured = Active<FeaturedAppRightPayload> | undefined;
type CompleteArgument = ValueOf<typeof AcceptedTransferOffer_Complete.argument>;

export async function completeAcceptedOffers(deps: WalletDeps, parties: WalletParties, now: bigint): Promise<boolean> {
  const accepted = (await deps.client.active(AcceptedTransferOffer)).filter((a) => a.payload.dso === deps.dso);
  if (accepted.length === 0) return false;
  const ours = new Set(await parties());
  const bySender = new Map<string, Accepted[]>();
  for (const a of accepted) if (ours.has(a.payload.sender)) bySender.set(a.payload.sender, [...(bySender.get(a.payload.sender) ?? []), a]);
  if (bySender.size === 0) return false;
  const [featured] = (await deps.client.active(FeaturedAppRight, [deps.validator])).filter((f) => f.payload.provider === deps.validator && f.payload.dso === deps.dso);
  const acted = await actOnAll([...bySender], ([sender, offers]) => spendingAs(deps, sender, () => completeForSender(deps, sender, offers, now, featured)));
  return acted;
}

async function completeForSender(deps: WalletDeps, sender: string, offers: readonly Accepted[], now: bigint, featured: Featured): Promise<boolean> {
  const due = offers.filter((a) => a.payload.expiresAt > now);
  const spendable = due.length > 0 ? await spendableOf(deps, sender) : undefined;
  let left: readonly SpendableCandidate[] = spendable?.candidates ?? [];
  const actions: (() => Promise<void>)[] = offers.filter((a) => a.payload.expiresAt <= now).map((a) => () => expire(deps, a));
  for (const a of due) {
    let inputs: SpendableCandidate[];
    try {
      inputs = pickInputs(left, amountInCc(a, spendable!.openRound.payload.amuletPrice));
    } catch (e) {
      if (!isPermanentRefusal(e)) throw e;
      // Only what the whole wallet cannot pay is refused; otherwise the next pass has fresh inputs.
      if (left === spendable!.candidates) actions.push(() => abort(deps, a, walletErrorOf(e).message));
      continue;
    }
    const picked = new Set(inputs.map((i) => i.contractId));
    left = left.filter((c) => !picked.has(c.contractId));
    const { context, disclosed } = contextFor(spendable!, inputs, featured?.contractId ?? null);
    const argument = { inputs: inputs.map((i) => i.input), transferContext: { amuletRules: spendable!.state.rules.contractId, context }, walletProvider: deps.validator };
    actions.push(() => complete(deps, a, argument, [...disclosed, ...(featured ? [featured.record] : [])]));
  }
  return actOnAll(actions, (act) => act());
}

async function exercise<A>(
  deps: WalletDeps,
  actAs: readonly string[],
  a: Accepted,
  choice: Choice<AcceptedTransferOfferPayload, A, unknown>,
  action: ContractAction,
  argument: A,
  disclosed = [] as Accepted["record"][],
) {
  await deps.client.exercise(actAs, AcceptedTransferOffer, a.contractId, choice, argument, { commandId: actionCommandId(action, a.contractId), disclosed });
}

const expire = (deps: WalletDeps, a: Accepted) =>
  exercise(deps, [a.payload.sender], a, AcceptedTransferOffer_Expire, "accepted-transfer-offer-expire", { actor: a.payload.sender });

const abort = (deps: WalletDeps, a: Accepted, reason: string) => exercise(deps, [a.payload.sender], a, AcceptedTransferOffer_Abort, "accepted-transfer-offer-abort", { reason });

async function complete(deps: WalletDeps, a: Accepted, argument: CompleteArgument, disclosed: Accepted["record"][]): Promise<void> {
  try {
    await exercise(deps, [a.payload.sender, deps.validator], a, AcceptedTransferOffer_Complete, "accepted-transfer-offer-complete", argument, disclosed);
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
      try {
        return amount.div(amuletPrice);
      } catch (e) {
        // The choice would fail alike: the offer is aborted, not retried on every tick (a hostile review).
        if (e instanceof NumericError) throw walletErrors.badRequest(`the offer's amount in CC cannot be paid: ${e.message}`);
        throw e;
      }
    case "ExtUnit":
      throw walletErrors.badRequest("the offer's amount is in an unsupported unit (ExtUnit)");
  }
}
