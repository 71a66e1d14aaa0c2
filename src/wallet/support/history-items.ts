/**
 * The wallet's transaction history, read straight off a ledger transaction: which of its nodes
 * are wallet events for a party, typed as Splice's history items (wallet-internal
 * `ListTransactionsResponseItem`). Pure: a transaction in, items out.
 *
 * - `transfer`: every `AmuletRules_Transfer` (subtype: the workflow that ran it, e.g.
 *   `AcceptedTransferOffer_Complete` for a completed offer), and the payments that burn CC
 *   without a transfer node (`AmuletRules_BuyMemberTraffic`, preapproval creation and renewal);
 *   amounts are net balance changes, as Splice's wallet computes them.
 * - `balance_change`: CC that appears or vanishes without a sender (tap, mint, unlock, dust expiry).
 * - `notification`: a transfer offer or traffic request that ended without paying
 *   (rejected, withdrawn, aborted by the sender's wallet, expired).
 * A party gets the items of nodes it witnesses and, for transfers and balance changes, only those
 * where it is the sender or a receiver (as Splice filters its per-party log).
 *
 * `event_id` is `#<update id>:<node id>` of the node an item comes from (Canton's legacy event
 * id): stable, unique per item, and ordered by (offset, node id), which the pager relies on.
 */
import { fromDamlJson } from "../../ledger/daml-type.js";
import { Numeric } from "../../ledger/numeric.js";
import type { ExerciseNodeRecord, TransactionRecord } from "../../ledger/records.js";
import {
  AmuletRules,
  AmuletRules_BuyMemberTraffic,
  AmuletRules_CreateTransferPreapproval,
  AmuletRules_DevNet_Tap,
  AmuletRules_Mint,
  AmuletRules_Transfer,
} from "../../templates/splice/amulet-rules.js";
import { Amulet, Amulet_Expire, LockedAmulet, LockedAmulet_ExpireAmulet, type AmuletPayload } from "../../templates/splice/amulet.js";
import type { TransferSummary } from "../../templates/splice/transfer-types.js";
import { TransferPreapproval, TransferPreapproval_Renew, TransferPreapproval_Send } from "../../templates/splice/transfer-preapproval.js";
import { BuyTrafficRequest, BuyTrafficRequest_Cancel, BuyTrafficRequest_Expire } from "../../templates/splice/wallet/buy-traffic-request.js";
import {
  AcceptedTransferOffer,
  AcceptedTransferOffer_Abort,
  AcceptedTransferOffer_Complete,
  AcceptedTransferOffer_Expire,
  AcceptedTransferOffer_Withdraw,
  TransferOffer,
  TransferOffer_Expire,
  TransferOffer_Reject,
  TransferOffer_Withdraw,
} from "../../templates/splice/wallet/transfer-offer.js";
import { exerciseOf, isOf, ran } from "./ledger-scan.js";
import { extend } from "../../util/extend.js";

export interface PartyAmount {
  readonly party: string;
  readonly amount: Numeric;
}

export interface HistorySubtype {
  /** Package-id form `<package-id>:<Module>:<Entity>`. */
  readonly templateId: string;
  readonly choice: string;
}

interface ItemBase {
  readonly eventId: string;
  /** Unix microseconds: the transaction's effective time. */
  readonly date: bigint;
  readonly subtype: HistorySubtype;
  /** Node the item comes from, for paging inside one transaction. */
  readonly nodeId: number;
  /** USD per CC of the open round the transaction used (set by listTransactions), if it names one. */
  readonly amuletPrice?: Numeric;
}

export interface TransferItem extends ItemBase {
  readonly type: "transfer";
  readonly sender: PartyAmount;
  readonly receivers: readonly PartyAmount[];
  readonly holdingFees: Numeric;
  readonly appRewardsUsed: Numeric;
  readonly validatorRewardsUsed: Numeric;
  readonly svRewardsUsed: Numeric;
  readonly description?: string;
}

export interface BalanceChangeItem extends ItemBase {
  readonly type: "balance_change";
  readonly receivers: readonly PartyAmount[];
}

export interface NotificationItem extends ItemBase {
  readonly type: "notification";
  readonly details: string;
}

export type HistoryItem = TransferItem | BalanceChangeItem | NotificationItem;

export const eventIdOf = (updateId: string, nodeId: number): string => `#${updateId}:${nodeId}`;

/** `#<update id>:<node id>`, or undefined when `eventId` is not of that form. */
export function parseEventId(eventId: string): { updateId: string; nodeId: number } | undefined {
  const m = /^#([0-9a-f]+):(\d{1,9})$/.exec(eventId);
  return m ? { updateId: m[1], nodeId: Number(m[2]) } : undefined;
}

/** The items of `tx` for `party`, in node order. */
export function historyItemsOf(tx: TransactionRecord, party: string): HistoryItem[] {
  if (!tx.nodes.some((n) => n.witnesses.includes(party))) return [];
  const items: HistoryItem[] = [];
  walk(tx, 0, tx.nodes.length, party, items, {});
  return items;
}

/** What an enclosing workflow node says about the transfers beneath it. */
interface Enclosing {
  readonly subtype?: HistorySubtype;
  readonly description?: string;
}

/** Index just past the subtree of `nodes[i]`. */
function subtreeEnd(tx: TransactionRecord, i: number): number {
  const n = tx.nodes[i];
  if (n.kind !== "exercise") return i + 1;
  let j = i + 1;
  while (j < tx.nodes.length && tx.nodes[j].nodeId <= n.lastDescendantNodeId) j++;
  return j;
}

function walk(tx: TransactionRecord, from: number, to: number, party: string, out: HistoryItem[], enclosing: Enclosing): void {
  for (let i = from; i < to; ) {
    const node = tx.nodes[i];
    const end = subtreeEnd(tx, i);
    if (node.kind === "exercise") {
      const handled = node.witnesses.includes(party) && itemsOfNode(tx, i, end, party, out, enclosing);
      if (!handled) walk(tx, i + 1, end, party, out, enclosing);
    }
    i = end;
  }
}

const subtypeOf = (node: ExerciseNodeRecord): HistorySubtype => ({ templateId: node.templateId, choice: node.choice });

/** Adds the items a recognised node stands for; false to look at its children instead. */
function itemsOfNode(tx: TransactionRecord, i: number, end: number, party: string, out: HistoryItem[], enclosing: Enclosing): boolean {
  const node = tx.nodes[i] as ExerciseNodeRecord;
  const base = { eventId: eventIdOf(tx.updateId, node.nodeId), date: tx.effectiveAt, nodeId: node.nodeId };
  const keep = (item: HistoryItem) => {
    if (involves(item, party)) out.push(item);
    return true;
  };
  if (isOf(node, AmuletRules)) {
    switch (node.choice) {
      case AmuletRules_Transfer.name:
        return keep(transferItem(base, node, enclosing));
      case AmuletRules_BuyMemberTraffic.name: {
        const { argument, result } = exerciseOf(AmuletRules_BuyMemberTraffic, node);
        return keep(burnItem(base, node, argument.provider, result.summary));
      }
      case AmuletRules_CreateTransferPreapproval.name: {
        const { argument, result } = exerciseOf(AmuletRules_CreateTransferPreapproval, node);
        return keep(burnItem(base, node, argument.provider, result.transferResult.summary));
      }
      case AmuletRules_DevNet_Tap.name:
      case AmuletRules_Mint.name:
        return keep(createdAmuletItem(base, node, tx, i, end));
    }
    return false;
  }
  if (isOf(node, AcceptedTransferOffer) && ran(node, AcceptedTransferOffer_Complete)) {
    walk(tx, i + 1, end, party, out, { subtype: subtypeOf(node) });
    return true;
  }
  if (isOf(node, TransferPreapproval)) {
    if (ran(node, TransferPreapproval_Renew)) {
      const { result } = exerciseOf(TransferPreapproval_Renew, node);
      return keep(burnItem(base, node, result.provider, result.transferResult.summary));
    }
    if (ran(node, TransferPreapproval_Send)) {
      const { description } = exerciseOf(TransferPreapproval_Send, node).argument;
      walk(tx, i + 1, end, party, out, { description: description ?? undefined });
      return true;
    }
    return false;
  }
  if (isOf(node, Amulet) && ran(node, Amulet_Expire)) return keep(expiredItem(base, node, exerciseOf(Amulet_Expire, node).result.expireSum.owner));
  if (isOf(node, LockedAmulet)) {
    if (ran(node, LockedAmulet_ExpireAmulet)) return keep(expiredItem(base, node, exerciseOf(LockedAmulet_ExpireAmulet, node).result.expireSum.owner));
    if (/^LockedAmulet_(Unlock|OwnerExpireLock)(V2)?$/.test(node.choice)) return keep(createdAmuletItem(base, node, tx, i, end));
    return false;
  }
  const details = failureDetails(node);
  if (details !== undefined) return keep(extend(base, { type: "notification", subtype: subtypeOf(node), details }));
  return false;
}

function involves(item: HistoryItem, party: string): boolean {
  switch (item.type) {
    case "transfer":
      return item.sender.party === party || item.receivers.some((r) => r.party === party);
    case "balance_change":
      return item.receivers.some((r) => r.party === party);
    case "notification":
      return true; // the caller checked the party witnesses the node
  }
}

const decimal = (n: Numeric | null | undefined) => n ?? Numeric.zero;
const sum = (xs: readonly Numeric[]) => Numeric.total(xs);

function rewards(summary: TransferSummary) {
  return {
    holdingFees: summary.holdingFees,
    appRewardsUsed: summary.inputAppRewardAmount,
    validatorRewardsUsed: summary.inputValidatorRewardAmount.plus(decimal(summary.inputValidatorFaucetAmount)),
    svRewardsUsed: summary.inputSvRewardAmount,
  };
}

/** Splice's net amounts: the sender's balance change and each other receiver's, fees split by `receiverFeeRatio`. */
function transferItem(base: Omit<ItemBase, "subtype">, node: ExerciseNodeRecord, enclosing: Enclosing): TransferItem {
  const { argument, result } = exerciseOf(AmuletRules_Transfer, node);
  const { transfer } = argument;
  const { summary } = result;
  const outputs = transfer.outputs.map((o, k) => {
    const fee = summary.outputFees[k] ?? Numeric.zero;
    const receiverFee = fee.mul(o.receiverFeeRatio);
    return { o, senderFee: fee.minus(receiverFee), receiverFee };
  });
  const toSelf = sum(outputs.filter(({ o }) => o.receiver === transfer.sender && o.lock === null).map(({ o, senderFee }) => o.amount.minus(senderFee)));
  const netInput = summary.inputAmuletAmount.minus(summary.holdingFees);
  const receivers = new Map<string, Numeric>();
  for (const { o, receiverFee } of outputs) {
    if (o.receiver === transfer.sender) continue;
    const net = o.lock === null ? o.amount.minus(receiverFee) : receiverFee.neg();
    receivers.set(o.receiver, (receivers.get(o.receiver) ?? Numeric.zero).plus(net));
  }
  return extend(
    base,
    {
      type: "transfer" as const,
      subtype: enclosing.subtype ?? subtypeOf(node),
      sender: { party: transfer.sender, amount: toSelf.plus(summary.senderChangeAmount).minus(netInput) },
      receivers: [...receivers].map(([party, amount]) => ({ party, amount })),
    },
    rewards(summary),
    enclosing.description !== undefined ? { description: enclosing.description } : {},
  );
}

/**
 * A payment burnt in a self-transfer (no transfer node): the payer's net change; the DSO "receives"
 * 0, as in Splice. The payer is the provider of a preapproval or traffic purchase.
 */
function burnItem(base: Omit<ItemBase, "subtype">, node: ExerciseNodeRecord, payer: string, summary: TransferSummary): TransferItem {
  const dsoParties = summary.balanceChanges.map(([p]) => p).filter((p) => p !== payer);
  return extend(
    base,
    {
      type: "transfer" as const,
      subtype: subtypeOf(node),
      sender: { party: payer, amount: summary.senderChangeAmount.minus(summary.inputAmuletAmount.minus(summary.holdingFees)) },
      receivers: dsoParties.map((party) => ({ party, amount: Numeric.zero })),
    },
    rewards(summary),
  );
}

/** CC that appears from nowhere (tap, mint, unlock): the Amulet the node created. */
function createdAmuletItem(base: Omit<ItemBase, "subtype">, node: ExerciseNodeRecord, tx: TransactionRecord, i: number, end: number): BalanceChangeItem {
  const created = tx.nodes.slice(i + 1, end).find((n) => n.kind === "create" && isOf(n, Amulet));
  const amulet = created?.kind === "create" ? (fromDamlJson(Amulet.payload, created.payload) as AmuletPayload) : undefined;
  return extend(base, {
    type: "balance_change",
    subtype: subtypeOf(node),
    receivers: amulet ? [{ party: amulet.owner, amount: amulet.amount.initialAmount }] : [],
  });
}

/** Dust expiry: the owner's balance changes by (next to) nothing; Splice reports 0. */
function expiredItem(base: Omit<ItemBase, "subtype">, node: ExerciseNodeRecord, owner: string): BalanceChangeItem {
  return extend(base, { type: "balance_change", subtype: subtypeOf(node), receivers: [{ party: owner, amount: Numeric.zero }] });
}

type OfferTracking = { readonly trackingInfo: { readonly trackingId: string; readonly sender: string; readonly receiver: string } };
const offerText = ({ trackingInfo: { trackingId, sender, receiver } }: OfferTracking) => `transfer offer ${JSON.stringify(trackingId)} from ${sender} to ${receiver}`;
const reasonText = (reason: string) => (reason ? `: ${reason}` : "");

/** What a notification says about an offer or traffic request that ended without paying. */
function failureDetails(node: ExerciseNodeRecord): string | undefined {
  if (isOf(node, TransferOffer) || isOf(node, AcceptedTransferOffer)) {
    switch (node.choice) {
      case TransferOffer_Reject.name:
        return `${offerText(exerciseOf(TransferOffer_Reject, node).result)} was rejected by the receiver`;
      case TransferOffer_Withdraw.name: {
        const { argument, result } = exerciseOf(TransferOffer_Withdraw, node);
        return `${offerText(result)} was withdrawn by the sender${reasonText(argument.reason)}`;
      }
      case AcceptedTransferOffer_Withdraw.name: {
        const { argument, result } = exerciseOf(AcceptedTransferOffer_Withdraw, node);
        return `${offerText(result)} was withdrawn by the receiver after accepting${reasonText(argument.reason)}`;
      }
      case AcceptedTransferOffer_Abort.name: {
        const { argument, result } = exerciseOf(AcceptedTransferOffer_Abort, node);
        return `${offerText(result)} could not be completed${reasonText(argument.reason)}`;
      }
      case TransferOffer_Expire.name:
        return `${offerText(exerciseOf(TransferOffer_Expire, node).result)} expired`;
      case AcceptedTransferOffer_Expire.name:
        return `${offerText(exerciseOf(AcceptedTransferOffer_Expire, node).result)} expired`;
    }
    return undefined;
  }
  if (isOf(node, BuyTrafficRequest)) {
    const request = (r: { readonly trackingInfo: { readonly trackingId: string } }) => `buy traffic request ${JSON.stringify(r.trackingInfo.trackingId)}`;
    if (ran(node, BuyTrafficRequest_Cancel)) {
      const { argument, result } = exerciseOf(BuyTrafficRequest_Cancel, node);
      return `${request(result)} was rejected: ${argument.reason}`;
    }
    if (ran(node, BuyTrafficRequest_Expire)) return `${request(exerciseOf(BuyTrafficRequest_Expire, node).result)} expired`;
  }
  return undefined;
}
