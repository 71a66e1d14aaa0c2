/**
 * The participant's traffic meter (the ledger's TrafficPort): every transaction this node submits
 * is paid by one member, the participant, as on Canton where the sequencer charges the submitting
 * participant. Costs come from `trafficCostOf`, limits from the network's contracts.
 *
 * Durability: the account is kept in the store setting `traffic.state` with the highest offset it
 * covers, written at most every SAVE_EVERY_MS after commits and on close; on open, transactions after that offset are replayed
 * from their `paidTrafficCost`. The store port has no way to write a setting inside the commit,
 * so the setting may lag; the replay closes the gap, and since the saved account already holds
 * the reservations in flight, a crash can count a transaction twice but never forget one.
 */
import { errors, LedgerError } from "../../ledger/errors.js";
import type { NodeRecord, TransactionRecord } from "../../ledger/records.js";
import type { Store } from "../../ledger/store-port.js";
import type { TrafficCharge, TrafficPort } from "../../ledger/traffic-port.js";
import { trafficCostOf } from "./traffic-cost.js";
import { AMULET_RULES_ID, MEMBER_TRAFFIC_ID, readTrafficLimits, type TrafficLimits } from "./traffic-limits.js";
import { initialState, refilled, refund, spend, type TrafficState } from "./traffic-state.js";

export const TRAFFIC_STATE_SETTING = "traffic.state";
const UNLIMITED = 2n ** 63n;
/** Command ids of the validator's top-up submissions, which the reserve is kept for. */
export const TOPUP_COMMAND_PREFIX = "topup-";
/** How often the account is saved under load: a write (and fsync) per commit cost 5 % of a send. */
const SAVE_EVERY_MS = 1000;

/** What scan's traffic status reports. */
export interface TrafficStatus {
  readonly member: string;
  readonly synchronizerId: string;
  /** Extra traffic consumed (beyond the base rate) and bought (bytes). */
  readonly extraConsumed: bigint;
  readonly purchased: bigint;
  /** Free traffic left in the base-rate bucket now. */
  readonly baseRemainder: bigint;
}

interface Saved {
  readonly extraConsumed: string;
  readonly baseRemainder: string;
  readonly at: string;
  readonly offset: string;
}

export class TrafficMeter implements TrafficPort {
  private state: TrafficState | undefined;
  private limits: Promise<TrafficLimits | undefined> | undefined;
  private readonly exempt = new Set<string>();
  private reserve: { readonly userId: string; readonly bytes: bigint } | undefined;
  private offset = 0n;
  private saving: Promise<void> | undefined;
  private dirty = false;
  private saveTimer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly store: Store,
    readonly member: string,
    /** The network's DSO, whose AmuletRules and MemberTraffic contracts alone set the limits. */
    private readonly dso: string,
  ) {}

  /** A meter for `member` on `dso`'s network, its account restored from the store. */
  static async open(store: Store, member: string, dso: string): Promise<TrafficMeter> {
    const meter = new TrafficMeter(store, member, dso);
    await meter.restore();
    return meter;
  }

  /**
   * Submissions by these parties alone are not charged: the DSO's parties stand for the super
   * validators, whose own participants send their transactions with unlimited traffic.
   */
  exemptParty(party: string): void {
    this.exempt.add(party);
  }

  /**
   * Keeps `bytes` for the top-ups (Splice's `reserved-traffic`): `userId`'s submissions other than
   * top-ups (command ids starting `topup-`) are refused while less traffic than that is left.
   */
  reserveFor(userId: string, bytes: bigint): void {
    this.reserve = { userId, bytes };
  }

  async charge(tx: Omit<TransactionRecord, "offset">, userId: string, signatures = 0): Promise<TrafficCharge | LedgerError> {
    const limits = await this.currentLimits();
    if (!limits || this.isFree(tx.submitters)) return this.free(tx);
    const cost = trafficCostOf(tx.nodes, signatures);
    const account = this.state ?? initialState(limits.rate, tx.recordTime);
    const reserved = this.reservedFrom(userId, tx.commandId, account, limits, tx.recordTime);
    if (reserved) return reserved;
    const spent = spend(account, limits.rate, limits.purchased, cost, tx.recordTime);
    if (!spent) {
      const now = refilled(account, limits.rate, tx.recordTime);
      return errors.notEnoughTrafficCredit(this.member, cost, {
        extraTrafficLimit: limits.purchased,
        extraTrafficConsumed: now.extraConsumed,
        baseTrafficRemainder: now.baseRemainder,
      });
    }
    this.state = spent.state;
    return {
      cost,
      settle: async (committed, offset) => {
        if (!committed) this.state = refund(this.state ?? spent.state, limits.rate, spent);
        await this.settled(tx, committed, offset);
      },
    };
  }

  /**
   * What `charge` would price this transaction at now (cost estimation at prepare): the same
   * formula and the same exemptions, without reserving anything.
   */
  async estimate(submitters: readonly string[], nodes: TransactionRecord["nodes"], signatures: number): Promise<bigint> {
    const limits = await this.currentLimits();
    return !limits || this.isFree(submitters) ? 0n : trafficCostOf(nodes, signatures);
  }

  private isFree(submitters: readonly string[]): boolean {
    return submitters.every((p) => this.exempt.has(p));
  }

  /** The account now (undefined before the network has its rules). */
  async status(now: bigint): Promise<TrafficStatus | undefined> {
    const limits = await this.currentLimits();
    if (!limits) return undefined;
    const account = refilled(this.state ?? initialState(limits.rate, now), limits.rate, now);
    return { member: this.member, synchronizerId: limits.synchronizerId, extraConsumed: account.extraConsumed, purchased: limits.purchased, baseRemainder: account.baseRemainder };
  }

  private reservedFrom(userId: string, commandId: string, account: TrafficState, limits: TrafficLimits, now: bigint): LedgerError | undefined {
    if (!this.reserve || userId !== this.reserve.userId || commandId.startsWith(TOPUP_COMMAND_PREFIX)) return undefined;
    const current = refilled(account, limits.rate, now);
    const balance = current.baseRemainder + limits.purchased - current.extraConsumed;
    return balance < this.reserve.bytes ? errors.trafficBelowReserved(balance, this.reserve.bytes) : undefined;
  }

  private free(tx: Omit<TransactionRecord, "offset">): TrafficCharge {
    return { cost: 0n, settle: (committed, offset) => this.settled(tx, committed, offset) };
  }

  private currentLimits(): Promise<TrafficLimits | undefined> {
    this.limits ??= readTrafficLimits(this.store, this.member, this.dso).catch((e: unknown) => {
      this.limits = undefined;
      throw e;
    });
    return this.limits;
  }

  /**
   * A purchase or a new rules config changes the limits: read them again next time. Only a create
   * or an archive changes them; every transfer exercises AmuletRules without consuming it.
   */
  private async settled(tx: Omit<TransactionRecord, "offset">, committed: boolean, offset: bigint): Promise<void> {
    if (!committed) return;
    if (tx.nodes.some(changesLimits)) this.limits = undefined;
    if (offset > this.offset) this.offset = offset;
    if (!this.state) return;
    this.dirty = true;
    this.saveTimer ??= setTimeout(() => void this.save().catch(() => undefined), SAVE_EVERY_MS).unref();
  }

  /** Writes the account now if it changed since the last save (the node calls it on close). */
  save(): Promise<void> {
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    this.saving ??= this.flush().finally(() => {
      this.saving = undefined;
    });
    return this.saving;
  }

  private async flush(): Promise<void> {
    while (this.dirty && this.state) {
      this.dirty = false;
      const s = this.state;
      const saved: Saved = { extraConsumed: String(s.extraConsumed), baseRemainder: String(s.baseRemainder), at: String(s.at), offset: String(this.offset) };
      await this.store.putSetting(TRAFFIC_STATE_SETTING, JSON.stringify(saved));
    }
  }

  /** The saved account, then what was committed after it. */
  private async restore(): Promise<void> {
    const raw = await this.store.setting(TRAFFIC_STATE_SETTING);
    if (raw) {
      const saved = JSON.parse(raw) as Saved;
      this.state = { extraConsumed: BigInt(saved.extraConsumed), baseRemainder: BigInt(saved.baseRemainder), at: BigInt(saved.at) };
      this.offset = BigInt(saved.offset);
    }
    const limits = await this.currentLimits();
    if (!limits) return;
    const end = await this.store.ledgerEnd();
    for (let from = this.offset; from < end; ) {
      const page = await this.store.transactions(from, end, 500);
      if (page.length === 0) break;
      for (const tx of page) {
        const cost = tx.paidTrafficCost ?? 0n;
        if (cost === 0n) continue;
        // Replayed costs were accepted once: they are owed even past today's limit.
        const account = this.state ?? initialState(limits.rate, tx.recordTime);
        this.state = spend(account, limits.rate, UNLIMITED, cost, tx.recordTime)!.state;
      }
      from = page[page.length - 1]!.offset;
    }
    this.offset = end;
  }
}

function changesLimits(n: NodeRecord): boolean {
  if (n.templateId !== MEMBER_TRAFFIC_ID && n.templateId !== AMULET_RULES_ID) return false;
  return n.kind === "create" || n.consuming;
}
