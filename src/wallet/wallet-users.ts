/**
 * Which ledger users are onboarded to a wallet on this validator, their wallet party, and whether
 * their wallet is installed. Kept as one store setting per user (`wallet-user/<id>`), so it lives
 * in the same durable store as the ledger on either adapter; listing walks the ledger users.
 */
import type { Store } from "../store/port.js";

export interface WalletUserRecord {
  readonly userId: string;
  readonly party: string;
  readonly walletInstalled: boolean;
}

type UsersStore = Pick<Store, "setting" | "putSetting" | "users">;

const PREFIX = "wallet-user/";
const PAGE = 1000;

export class WalletUsers {
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
  }

  async remove(userId: string): Promise<void> {
    await this.store.putSetting(PREFIX + userId, "");
  }

  /** Onboarded user ids, in ledger user order. */
  async list(): Promise<string[]> {
    const out: string[] = [];
    let token = "";
    for (;;) {
      const page = await this.store.users(token, PAGE);
      for (const u of page) if (await this.get(u.id)) out.push(u.id);
      if (page.length < PAGE) return out;
      token = page[page.length - 1].id;
    }
  }
}
