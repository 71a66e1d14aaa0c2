/**
 * Which ledger users are onboarded to a wallet on this validator, their wallet party, and whether
 * their wallet is installed. Kept as one store setting per user (`wallet-user/<id>`), so it lives
 * in the same durable store as the ledger on either adapter; listing walks the ledger users.
 *
 * The wallet automation asks for every wallet party on each pass; walking 10,000 users takes tens
 * of milliseconds, so the parties are kept in memory and walked again only when the directory's
 * version changed. Every write sets a new version (a random token, so writers sharing a store need
 * no counter), after the record itself: a reader that sees the new version sees the record.
 */
import { randomUUID } from "node:crypto";
import type { Store } from "../../ledger/store-port.js";

export interface WalletUserRecord {
  readonly userId: string;
  readonly party: string;
  readonly walletInstalled: boolean;
}

type UsersStore = Pick<Store, "setting" | "putSetting" | "users">;

const PREFIX = "wallet-user/";
const VERSION = "wallet-users-version";
const PAGE = 1000;

export class WalletUsers {
  private parties: { readonly version: string | undefined; readonly parties: readonly string[] } | undefined;

  constructor(private readonly store: UsersStore) {}

  async get(userId: string): Promise<WalletUserRecord | undefined> {
    const raw = await this.store.setting(PREFIX + userId);
    // "" marks an offboarded user (settings cannot be deleted).
    if (!raw) return undefined;
    const { party, walletInstalled } = JSON.parse(raw) as { party: string; walletInstalled: boolean };
    return { userId, party, walletInstalled };
  }

  async put(record: WalletUserRecord): Promise<void> {
    await this.store.putSetting(PREFIX + record.userId, JSON.stringify({ party: record.party, walletInstalled: record.walletInstalled }));
    await this.changed();
  }

  async remove(userId: string): Promise<void> {
    await this.store.putSetting(PREFIX + userId, "");
    await this.changed();
  }

  /** Onboarded users, in ledger user order. */
  async list(): Promise<WalletUserRecord[]> {
    const out: WalletUserRecord[] = [];
    let token = "";
    for (;;) {
      const page = await this.store.users(token, PAGE);
      for (const u of page) {
        const record = await this.get(u.id);
        if (record) out.push(record);
      }
      if (page.length < PAGE) return out;
      token = page[page.length - 1].id;
    }
  }

  /** The distinct parties of the onboarded users; one setting read while nothing changed. */
  async walletParties(): Promise<readonly string[]> {
    const version = await this.store.setting(VERSION);
    if (this.parties && this.parties.version === version) return this.parties.parties;
    const parties = [...new Set((await this.list()).map((r) => r.party))];
    this.parties = { version, parties };
    return parties;
  }

  private async changed(): Promise<void> {
    await this.store.putSetting(VERSION, randomUUID());
  }
}
