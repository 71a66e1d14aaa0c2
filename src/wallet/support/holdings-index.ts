/**
 * The Amulet and LockedAmulet holdings of wallet parties, decoded and in memory, kept current from
 * the ledger's transaction feed: a balance or a send over 10,000 holdings reads no store rows and
 * decodes nothing (the ACS read + decode of 10k records was ~130 ms per call).
 *
 * A party's holdings are those it owns: Amulet by `owner`, LockedAmulet by `amulet.owner`, in
 * creation order (as the ACS lists them), of the network's DSO only. Anyone can sign an Amulet
 * naming itself as `dso` and as owner; such a holding is worth nothing and is not CC, so no
 * balance, amulet list or sweep may count it (Splice's wallet store reads only its DSO's).
 *
 * A party is loaded on first use — an ACS snapshot at the feed's position plus the transactions
 * delivered while it was read (feed-snapshot.ts), so it is exact under concurrent commits — and
 * from then on every transaction applies its creates and consuming exercises (archives) to it.
 *
 * Memory: only parties asked for are held, and at most `maxHoldings` holdings over all of them
 * (about 1.5 KB each, measured: the raw record plus the decoded payload; the default 100,000 is
 * ~150 MB). Past that, the least recently used parties are dropped whole (never the one just
 * read); a dropped party is loaded again, with one ACS read, on its next use. A single party
 * larger than the bound is still held while it is used.
 */
import { decodedPayload } from "../../ledger/decoded-payloads.js";
import type { ContractRecord, CreateNodeRecord, TransactionRecord } from "../../ledger/records.js";
import { qualifiedId } from "../../ledger/template.js";
import type { TransactionFeed } from "../../ledger/transaction-feed.js";
import type { LedgerStore } from "../../ledger/store-port.js";
import { Amulet, LockedAmulet, type AmuletPayload, type LockedAmuletPayload } from "../../templates/splice/amulet.js";
import { loadAtFeed, recordOfCreate } from "./feed-snapshot.js";

export interface Held<P> {
  readonly record: ContractRecord;
  readonly payload: P;
}

export interface PartyHoldings {
  readonly amulets: readonly Held<AmuletPayload>[];
  readonly locked: readonly Held<LockedAmuletPayload>[];
}

export interface HoldingsIndexOptions {
  /** Holdings kept over all loaded parties before least recently used parties are dropped. */
  readonly maxHoldings?: number;
}

export const DEFAULT_MAX_HOLDINGS = 100_000;

const AMULET = qualifiedId(Amulet.id);
const LOCKED = qualifiedId(LockedAmulet.id);

/** One party's holdings by contract id; Map order is insertion order, i.e. creation order. */
class Holdings {
  readonly amulets = new Map<string, Held<AmuletPayload>>();
  readonly locked = new Map<string, Held<LockedAmuletPayload>>();
  constructor(readonly party: string) {}
  get size(): number {
    return this.amulets.size + this.locked.size;
  }
}

type StoredAmulet = { readonly dso?: string; readonly owner?: string };

/** The owner named in a holding of `dso`'s stored (Daml-LF JSON) payload, read without decoding it. */
function ownerOf(templateId: string, payload: unknown, dso: string): string | undefined {
  const amulet = templateId === AMULET ? (payload as StoredAmulet) : templateId === LOCKED ? (payload as { amulet?: StoredAmulet }).amulet : undefined;
  return amulet?.dso === dso ? amulet.owner : undefined;
}

export class HoldingsIndex {
  /** Loaded parties, least recently used first. */
  private readonly parties = new Map<string, Holdings>();
  /** Contract id -> the loaded party holding it (to apply archives). */
  private readonly holderOf = new Map<string, Holdings>();
  private readonly loading = new Map<string, Promise<Holdings>>();
  private held = 0;
  private readonly maxHoldings: number;

  constructor(
    private readonly feed: TransactionFeed,
    private readonly store: LedgerStore,
    /** The network's DSO party: only its holdings are CC. */
    private readonly dso: string,
    options: HoldingsIndexOptions = {},
  ) {
    this.maxHoldings = options.maxHoldings ?? DEFAULT_MAX_HOLDINGS;
    feed.subscribe((tx) => {
      if (this.parties.size > 0) this.apply(tx);
    });
  }

  /** The party's holdings now, including everything committed before this call. */
  async of(party: string): Promise<PartyHoldings> {
    await this.feed.caughtUp();
    const h = this.parties.get(party) ?? (await this.load(party));
    if (this.parties.get(party) === h) {
      this.parties.delete(party);
      this.parties.set(party, h);
    }
    return { amulets: [...h.amulets.values()], locked: [...h.locked.values()] };
  }

  /** Loaded parties and holdings held (for tests and the bench). */
  get size(): { readonly parties: number; readonly holdings: number } {
    return { parties: this.parties.size, holdings: this.held };
  }

  private load(party: string): Promise<Holdings> {
    let p = this.loading.get(party);
    if (!p) {
      p = loadAtFeed(
        this.feed,
        (at) => this.store.activeContracts({ parties: [party], templateIds: [AMULET, LOCKED], activeAtOffset: at }),
        (records, since) => this.install(party, records, since),
      ).finally(() => this.loading.delete(party));
      this.loading.set(party, p);
    }
    return p;
  }

  private install(party: string, records: readonly ContractRecord[], since: readonly TransactionRecord[]): Holdings {
    const h = new Holdings(party);
    for (const r of records) if (ownerOf(r.templateId, r.payload, this.dso) === party) this.add(h, r);
    for (const tx of since) this.apply(tx, h);
    this.parties.set(party, h);
    this.evictBeyondBound(h);
    return h;
  }

  /** Applies a transaction to every loaded party, or only to `only` (a party being installed). */
  private apply(tx: TransactionRecord, only?: Holdings): void {
    for (const node of tx.nodes) {
      if (node.kind === "create") {
        const owner = ownerOf(node.templateId, node.payload, this.dso);
        if (owner === undefined) continue;
        const h = only ? (owner === only.party ? only : undefined) : this.parties.get(owner);
        if (h) this.add(h, recordOfCreate(tx, node as CreateNodeRecord));
      } else if (node.consuming) {
        const h = this.holderOf.get(node.contractId);
        if (h && (!only || h === only)) this.remove(h, node.contractId);
      }
    }
  }

  private add(h: Holdings, record: ContractRecord): void {
    if (record.templateId === AMULET) h.amulets.set(record.contractId, { record, payload: decodedPayload(Amulet.payload, record) as AmuletPayload });
    else h.locked.set(record.contractId, { record, payload: decodedPayload(LockedAmulet.payload, record) as LockedAmuletPayload });
    this.holderOf.set(record.contractId, h);
    this.held++;
  }

  private remove(h: Holdings, contractId: string): void {
    if (!h.amulets.delete(contractId) && !h.locked.delete(contractId)) return;
    this.holderOf.delete(contractId);
    this.held--;
  }

  private evictBeyondBound(keep: Holdings): void {
    for (const [party, h] of this.parties) {
      if (this.held <= this.maxHoldings) return;
      if (h === keep) continue;
      this.parties.delete(party);
      for (const id of h.amulets.keys()) this.holderOf.delete(id);
      for (const id of h.locked.keys()) this.holderOf.delete(id);
      this.held -= h.size;
    }
  }
}
