/**
 * Transfer offers by (party, tracking id), for the sender and the receiver, from creation through
 * acceptance to their end, kept from the ledger's transaction feed: the status endpoint answers
 * a receiver after the offer completed, was rejected, withdrawn or expired (Splice's receiver
 * finds it in its wallet transaction log) without scanning the ledger.
 *
 * Why one index over all parties, built from the whole transaction log and not loaded per party
 * on first use: an ended offer is in no ACS snapshot, so only the log knows it — exactly the
 * receiver's case, and after a restart too. At start the log is replayed in the background (pages
 * of transactions, yielding between them; ~30 µs per stored transaction), then every commit is
 * applied from the feed; a status call waits for the replay.
 *
 * Memory: one small entry per offer (parties, tracking id, status; ~300 bytes). Open offers are
 * bounded by the ledger's active ones; ended ones are kept up to `maxEnded`, oldest dropped first.
 */
import { fromDamlJson } from "../../ledger/daml-type.js";
import type { CreateNodeRecord, ExerciseNodeRecord, TransactionRecord } from "../../ledger/records.js";
import { qualifiedId } from "../../ledger/template.js";
import type { TransactionFeed } from "../../ledger/transaction-feed.js";
import type { LedgerStore } from "../../ledger/store-port.js";
import { AcceptedTransferOffer, TransferOffer, type AcceptedTransferOfferPayload, type TransferOfferPayload } from "../../templates/splice/wallet/transfer-offer.js";
import { loadAtFeed, replayLog } from "./feed-snapshot.js";
import { offerStepOf, type TransferOfferStatus } from "./offer-outcome.js";

export interface OfferIndexOptions {
  /** Ended offers remembered; the oldest are forgotten first. */
  readonly maxEnded?: number;
}

export const DEFAULT_MAX_ENDED_OFFERS = 100_000;

const OFFER = qualifiedId(TransferOffer.id);
const ACCEPTED = qualifiedId(AcceptedTransferOffer.id);

interface OfferEntry {
  readonly trackingId: string;
  readonly sender: string;
  readonly receiver: string;
  readonly dso: string;
  /** Offset of the transaction that created the offer (or the accepted offer, if created directly). */
  readonly createdOffset: bigint;
  /** The TransferOffer's expiry; an open offer past it reads as expired. */
  readonly expiresAt?: bigint;
  status: TransferOfferStatus;
}

const isOpen = (e: OfferEntry) => e.status.status === "created" || e.status.status === "accepted";

export class OfferIndex {
  /** party -> tracking id -> the offers it is a side of (usually one). */
  private readonly byParty = new Map<string, Map<string, OfferEntry[]>>();
  /** Active TransferOffer / AcceptedTransferOffer contract id -> its offer. */
  private readonly open = new Map<string, OfferEntry>();
  /** Ended offers, oldest first (for the bound). */
  private readonly ended: OfferEntry[] = [];
  private endedHead = 0;
  private readonly maxEnded: number;
  private ready: Promise<void>;

  private constructor(
    private readonly feed: TransactionFeed,
    private readonly store: LedgerStore,
    options: OfferIndexOptions,
  ) {
    this.maxEnded = options.maxEnded ?? DEFAULT_MAX_ENDED_OFFERS;
    this.ready = this.load();
    this.ready.catch(() => undefined); // the next call retries (whenReady)
  }

  /** Starts now: the stored log up to the feed's position in the background, then every commit. */
  static start(feed: TransactionFeed, store: LedgerStore, options: OfferIndexOptions = {}): OfferIndex {
    return new OfferIndex(feed, store, options);
  }

  /**
   * The status of `party`'s offer with this tracking id, including everything committed before
   * the call; undefined if unknown. Among several offers with one id (a receiver may hold offers
   * of several senders): the party's own, then an open one, then the newest.
   */
  async status(party: string, trackingId: string, dso: string, now: bigint): Promise<TransferOfferStatus | undefined> {
    const entry = (await this.entries(party, trackingId)).filter((e) => e.dso === dso).sort(preference(party))[0];
    return entry && statusAt(entry, now);
  }

  /** The status of the offer `sender` created in the transaction at `createdOffset`, if known. */
  async statusOfCreated(sender: string, trackingId: string, createdOffset: bigint, now: bigint): Promise<TransferOfferStatus | undefined> {
    const entry = (await this.entries(sender, trackingId)).find((e) => e.sender === sender && e.createdOffset === createdOffset);
    return entry && statusAt(entry, now);
  }

  /**
   * The open offers of `dso` whose sender `bySender` accepts and whose expiry has passed by
   * `now`, as (contract id, sender): the expiry step acts on these without reading the offers.
   * It read every offer on every tick (50,000 offers expiring in a year cost 0.4 s of every
   * second), and read them all again for every batch it expired (a hostile review).
   */
  async expired(now: bigint, dso: string, bySender: (sender: string) => boolean): Promise<{ readonly contractId: string; readonly sender: string }[]> {
    await this.whenReady();
    await this.feed.caughtUp();
    const due: { contractId: string; sender: string }[] = [];
    for (const e of this.open.values()) {
      const s = e.status;
      if (s.status === "created" && e.expiresAt !== undefined && e.expiresAt <= now && e.dso === dso && bySender(e.sender)) due.push({ contractId: s.contractId, sender: e.sender });
    }
    return due;
  }

  private async entries(party: string, trackingId: string): Promise<readonly OfferEntry[]> {
    await this.whenReady();
    await this.feed.caughtUp();
    return this.byParty.get(party)?.get(trackingId) ?? [];
  }

  /** The initial snapshot is read; one that failed is read again (once, by whoever comes first). */
  private async whenReady(): Promise<void> {
    const ready = this.ready;
    try {
      await ready;
    } catch {
      if (this.ready === ready) this.ready = this.load();
      await this.ready;
    }
  }

  private load(): Promise<void> {
    this.clear();
    return loadAtFeed(
      this.feed,
      (at) => replayLog(this.store, at, (tx) => this.apply(tx)),
      (_done, since) => {
        for (const tx of since) this.apply(tx);
        this.feed.subscribe((tx) => this.apply(tx));
      },
    );
  }

  private clear(): void {
    this.byParty.clear();
    this.open.clear();
    this.ended.length = 0;
    this.endedHead = 0;
  }

  private apply(tx: TransactionRecord): void {
    for (const node of tx.nodes) {
      if (node.kind === "create") {
        if ((node.templateId === OFFER || node.templateId === ACCEPTED) && !this.open.has(node.contractId)) {
          this.created(node.templateId, (node as CreateNodeRecord).contractId, node.payload, tx.updateId, tx.offset);
        }
      } else if (node.consuming) {
        const entry = this.open.get(node.contractId);
        if (entry) this.consumed(entry, tx, node);
      }
    }
  }

  private created(templateId: string, contractId: string, payload: unknown, updateId: string, offset: bigint): void {
    const isOffer = templateId === OFFER;
    const p = isOffer ? (fromDamlJson(TransferOffer.payload, payload) as TransferOfferPayload) : (fromDamlJson(AcceptedTransferOffer.payload, payload) as AcceptedTransferOfferPayload);
    const entry: OfferEntry = {
      trackingId: p.trackingId,
      sender: p.sender,
      receiver: p.receiver,
      dso: p.dso,
      createdOffset: offset,
      ...(isOffer ? { expiresAt: p.expiresAt } : {}),
      status: { status: isOffer ? "created" : "accepted", transactionId: updateId, contractId },
    };
    this.open.set(contractId, entry);
    for (const party of new Set([p.sender, p.receiver])) {
      let ids = this.byParty.get(party);
      if (!ids) this.byParty.set(party, (ids = new Map()));
      ids.set(p.trackingId, [...(ids.get(p.trackingId) ?? []), entry]);
    }
  }

  private consumed(entry: OfferEntry, tx: TransactionRecord, node: ExerciseNodeRecord): void {
    this.open.delete(node.contractId);
    const step = offerStepOf(tx, node);
    if (step.kind === "accepted") {
      // The AcceptedTransferOffer created further down this transaction continues this offer.
      entry.status = { status: "accepted", transactionId: tx.updateId, contractId: step.acceptedCid };
      this.open.set(step.acceptedCid, entry);
      return;
    }
    entry.status = step.status;
    this.ended.push(entry);
    if (this.ended.length - this.endedHead > this.maxEnded) this.forget(this.ended[this.endedHead++]);
    if (this.endedHead > 4096 && this.endedHead * 2 > this.ended.length) {
      this.ended.splice(0, this.endedHead);
      this.endedHead = 0;
    }
  }

  private forget(entry: OfferEntry): void {
    for (const party of new Set([entry.sender, entry.receiver])) {
      const ids = this.byParty.get(party);
      const left = ids?.get(entry.trackingId)?.filter((e) => e !== entry) ?? [];
      if (left.length > 0) ids!.set(entry.trackingId, left);
      else {
        ids?.delete(entry.trackingId);
        if (ids?.size === 0) this.byParty.delete(party);
      }
    }
  }
}

function statusAt(entry: OfferEntry, now: bigint): TransferOfferStatus {
  if (entry.status.status === "created" && entry.expiresAt !== undefined && entry.expiresAt <= now) return { status: "failed", failureKind: "expired" };
  return entry.status;
}

/** Own offers first, then open ones, then the newest. */
const preference = (party: string) => (a: OfferEntry, b: OfferEntry) =>
  Number(b.sender === party) - Number(a.sender === party) || Number(isOpen(b)) - Number(isOpen(a)) || (b.createdOffset > a.createdOffset ? 1 : b.createdOffset < a.createdOffset ? -1 : 0);
