/**
 * Everything a party can spend now, as selection candidates, and the transfer context and
 * disclosed contracts the chosen inputs need: holdings at their current value, reward coupons of
 * rounds that are issuing at their issuance.
 */
import { fromDamlJson } from "../../ledger/daml-type.js";
import type { ContractId } from "../../ledger/ids.js";
import type { Active } from "../../ledger/ledger-client.js";
import type { ContractRecord } from "../../ledger/records.js";
import { qualifiedId, type Template } from "../../ledger/template.js";
import { Numeric } from "../../ledger/numeric.js";
import { latestOpenRound, openIssuingRounds, type NetworkState } from "../../network/network-state.js";
import { AppRewardCoupon, ValidatorRewardCoupon, ValidatorRight } from "../../templates/splice/amulet.js";
import { currentAmount } from "../../templates/splice/fees.js";
import type { TransferContext, TransferInput } from "../../templates/splice/transfer-types.js";
import { ValidatorLivenessActivityRecord } from "../../templates/splice/validator-license.js";
import type { Candidate } from "./select-inputs.js";
import type { WalletDeps } from "../wallet-deps.js";

/** What a party may mint with, for itself or (validator coupons) for the users it validates. */
const OWN_COUPON_TEMPLATES = [AppRewardCoupon, ValidatorLivenessActivityRecord, ValidatorRight].map((t) => qualifiedId(t.id));
const VALIDATOR_COUPONS = [qualifiedId(ValidatorRewardCoupon.id)];

/** The records of `template` among `records`, decoded as `LedgerClient.active` does. */
function activeOf<P>(template: Template<P>, records: readonly ContractRecord[]): Active<P>[] {
  const id = qualifiedId(template.id);
  return records.filter((r) => r.templateId === id).map((record) => ({ contractId: record.contractId as ContractId, payload: fromDamlJson(template.payload, record.payload) as P, record }));
}

export interface SpendableCandidate extends Candidate {
  readonly input: TransferInput;
  /** Issuing round the coupon mints at, if it is a coupon. */
  readonly round?: bigint;
  readonly validatorRightFor?: string;
}

export interface Spendable {
  readonly state: NetworkState;
  readonly openRound: NetworkState["openRounds"][number];
  readonly candidates: readonly SpendableCandidate[];
  readonly validatorRights: ReadonlyMap<string, string>;
}

/**
 * What `party` can spend now. Holdings come from the in-memory index; coupons are read from the
 * store while a round issues, and a busy provider can hold hundreds of thousands between issuing
 * rounds, so a caller that spends holdings only (merges) asks for `{ coupons: false }`.
 */
export async function spendableOf(deps: WalletDeps, party: string, options: { readonly coupons?: boolean } = {}): Promise<Spendable> {
  const now = deps.clock.now();
  const state = await deps.network.read();
  const openRound = latestOpenRound(state, now);
  const issuing = new Map(openIssuingRounds(state, now).map((r) => [r.payload.round.number, r.payload]));
  const n = openRound.payload.round.number;
  // Coupons count only in an issuing round, so most transfers need no coupon read at all.
  const withCoupons = (options.coupons ?? true) && issuing.size > 0;
  const [held, own] = await Promise.all([
    deps.holdings.of(party),
    withCoupons ? deps.store.activeContracts({ parties: [party], templateIds: OWN_COUPON_TEMPLATES }) : Promise.resolve([]),
  ]);
  const appCoupons = activeOf(AppRewardCoupon, own);
  const liveness = activeOf(ValidatorLivenessActivityRecord, own);
  const rights = activeOf(ValidatorRight, own);
  const validatorRights = new Map(rights.filter((r) => r.payload.validator === party).map((r) => [r.payload.user, r.contractId as string]));
  // A user is a stakeholder of every ValidatorRewardCoupon its transfers earn, but only the
  // validator holding its ValidatorRight can mint them: read them only for such a validator.
  const validatorCoupons = validatorRights.size > 0 ? activeOf(ValidatorRewardCoupon, await deps.store.activeContracts({ parties: [party], templateIds: VALIDATOR_COUPONS })) : [];
  const candidates: SpendableCandidate[] = [];
  for (const a of held.amulets) {
    if (a.payload.dso !== deps.dso) continue;
    const contractId = a.record.contractId;
    candidates.push({ contractId, value: currentAmount(a.payload.amount, n), kind: "holding", input: { tag: "InputAmulet", value: contractId } });
  }
  for (const c of appCoupons) {
    const r = issuing.get(c.payload.round.number);
    if (!r || c.payload.dso !== deps.dso || (c.payload.beneficiary ?? c.payload.provider) !== party) continue;
    const rate = c.payload.featured ? r.issuancePerFeaturedAppRewardCoupon : r.issuancePerUnfeaturedAppRewardCoupon;
    candidates.push({ contractId: c.contractId, value: c.payload.amount.mul(rate), kind: "coupon", round: r.round.number, input: { tag: "InputAppRewardCoupon", value: c.contractId } });
  }
  for (const c of validatorCoupons) {
    const r = issuing.get(c.payload.round.number);
    if (!r || c.payload.dso !== deps.dso || !validatorRights.has(c.payload.user)) continue;
    candidates.push({
      contractId: c.contractId,
      value: c.payload.amount.mul(r.issuancePerValidatorRewardCoupon),
      kind: "coupon",
      round: r.round.number,
      validatorRightFor: c.payload.user,
      input: { tag: "InputValidatorRewardCoupon", value: c.contractId },
    });
  }
  for (const l of liveness) {
    const r = issuing.get(l.payload.round.number);
    if (!r || l.payload.dso !== deps.dso || l.payload.validator !== party) continue;
    candidates.push({
      contractId: l.contractId,
      value: r.optIssuancePerValidatorFaucetCoupon ?? Numeric.zero,
      kind: "coupon",
      round: r.round.number,
      input: { tag: "InputValidatorLivenessActivityRecord", value: l.contractId },
    });
  }
  return { state, openRound, candidates, validatorRights };
}

/** The transfer context for a chosen set of inputs, and the network contracts to disclose with it. */
export function contextFor(spendable: Spendable, inputs: readonly SpendableCandidate[], featuredAppRight: string | null = null): { context: TransferContext; disclosed: ContractRecord[] } {
  const rounds = new Set(inputs.flatMap((i) => (i.round === undefined ? [] : [i.round])));
  const issuing = spendable.state.issuingRounds.filter((r) => rounds.has(r.payload.round.number));
  const users = new Set(inputs.flatMap((i) => (i.validatorRightFor ? [i.validatorRightFor] : [])));
  return {
    context: {
      openMiningRound: spendable.openRound.contractId,
      issuingMiningRounds: issuing.map((r) => [r.payload.round, r.contractId]),
      validatorRights: [...users].map((u) => [u, spendable.validatorRights.get(u)!]),
      featuredAppRight,
    },
    disclosed: [spendable.state.rules.record, spendable.openRound.record, ...issuing.map((r) => r.record)],
  };
}
