/**
 * Parties, users and settings in the SQLite file: the records beside the ledger, written
 * directly (no group commit; they are rare) and read from memory once seen.
 */
import type Database from "better-sqlite3";
import type { LoopWrites } from "./loop-writes.js";
import type { PartyRecord, UserRecord, UserRight } from "../../ledger/records.js";
import { encodeRecord } from "../codec.js";
import type { PartyStore, SettingsStore, UserStore } from "../../ledger/store-port.js";
import { changeRights, grant, revoke } from "../rights-change.js";
import { allRecords, oneRecord } from "./rows.js";

const CACHE_LIMIT = 100_000;

function prepare(db: Database.Database) {
  const p = (sql: string) => db.prepare<unknown[], unknown>(sql);
  return {
    setting: p("SELECT value FROM settings WHERE name = ?"),
    initSetting: p("INSERT OR IGNORE INTO settings (name, value) VALUES (?, ?)"),
    putSetting: p("INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value"),
    addParty: p("INSERT OR IGNORE INTO parties (party, record) VALUES (?, ?)"),
    party: p("SELECT record FROM parties WHERE party = ?"),
    putParty: p("UPDATE parties SET record = ? WHERE party = ?"),
    parties: p("SELECT record FROM parties WHERE party > ? ORDER BY party LIMIT ?"),
    addUser: p("INSERT OR IGNORE INTO users (id, record) VALUES (?, ?)"),
    user: p("SELECT record FROM users WHERE id = ?"),
    users: p("SELECT record FROM users WHERE id > ? ORDER BY id LIMIT ?"),
    putUser: p("UPDATE users SET record = ? WHERE id = ?"),
    deleteUser: p("DELETE FROM users WHERE id = ?"),
  };
}

export class SqliteDirectory implements PartyStore, UserStore, SettingsStore {
  private readonly stmts: ReturnType<typeof prepare>;
  /**
   * Users and parties by id, decoded and frozen. Every call authenticates its user, and every
   * submission looks up its parties; this process is the only writer of its SQLite file, so the
   * cache is updated with each write and is never stale.
   */
  private readonly knownUsers = new Map<string, UserRecord>();
  private readonly knownParties = new Map<string, PartyRecord>();
  /** Settings by name, absent ones too (as null): read on every wallet request, written rarely. */
  private readonly knownSettings = new Map<string, string | null>();

  constructor(
    private readonly db: Database.Database,
    private readonly writes: LoopWrites,
  ) {
    this.stmts = prepare(db);
  }

  async addParty(party: PartyRecord): Promise<boolean> {
    return this.writes.run(() => this.stmts.addParty.run(party.party, encodeRecord(party)).changes === 1);
  }
  async party(party: string): Promise<PartyRecord | undefined> {
    // Parties are never removed, and only `updateParty` changes one: a hit is kept until then.
    const cached = this.knownParties.get(party);
    if (cached) return cached;
    const found = oneRecord<PartyRecord>(this.stmts.party, party);
    if (found) remember(this.knownParties, party, found);
    return found;
  }
  async parties(pageToken: string, pageSize: number): Promise<PartyRecord[]> {
    return allRecords<PartyRecord>(this.stmts.parties, pageToken, pageSize);
  }
  async updateParty(party: string, change: (party: PartyRecord) => PartyRecord): Promise<PartyRecord | undefined> {
    return this.writeThrough(this.knownParties, party, () => this.rewrite(this.stmts.party, this.stmts.putParty, party, change));
  }

  async addUser(user: UserRecord): Promise<boolean> {
    return this.writeUser(user.id, () => this.stmts.addUser.run(user.id, encodeRecord(user)).changes === 1);
  }
  async user(id: string): Promise<UserRecord | undefined> {
    const cached = this.knownUsers.get(id);
    if (cached) return cached;
    const found = oneRecord<UserRecord>(this.stmts.user, id);
    if (found) remember(this.knownUsers, id, found);
    return found;
  }
  async users(pageToken: string, pageSize: number): Promise<UserRecord[]> {
    return allRecords<UserRecord>(this.stmts.users, pageToken, pageSize);
  }
  async deleteUser(id: string): Promise<boolean> {
    return this.writeUser(id, () => this.stmts.deleteUser.run(id).changes === 1);
  }
  async grantRights(id: string, rights: readonly UserRight[]): Promise<UserRight[] | undefined> {
    return changeRights((i, c) => this.updateUser(i, c), id, (held) => grant(held, rights));
  }
  async revokeRights(id: string, rights: readonly UserRight[]): Promise<UserRight[] | undefined> {
    return changeRights((i, c) => this.updateUser(i, c), id, (held) => revoke(held, rights));
  }
  async updateUser(id: string, change: (user: UserRecord) => UserRecord): Promise<UserRecord | undefined> {
    return this.writeUser(id, () => this.rewrite(this.stmts.user, this.stmts.putUser, id, change));
  }

  /**
   * Read-modify-write of one record, IMMEDIATE: the ledger's writer thread writes the same file,
   * and a deferred transaction that read before one of its commits could not then write
   * (SQLITE_BUSY, which no timeout retries).
   */
  private rewrite<T>(get: Database.Statement, put: Database.Statement, id: string, change: (held: T) => T): T | undefined {
    return this.db
      .transaction(() => {
        const held = oneRecord<T>(get, id);
        if (!held) return undefined;
        const next = change(held);
        if (next !== held) put.run(encodeRecord(next), id);
        return next;
      })
      .immediate();
  }

  private writeUser<T>(id: string, write: () => T): Promise<T> {
    return this.writeThrough(this.knownUsers, id, write);
  }

  /** A write of a user or a party, which its cached record must not outlive (a read may cache it meanwhile). */
  private async writeThrough<T>(known: Map<string, unknown>, id: string, write: () => T): Promise<T> {
    try {
      return await this.writes.run(write);
    } finally {
      known.delete(id);
    }
  }

  async setting(name: string): Promise<string | undefined> {
    const cached = this.knownSettings.get(name);
    if (cached !== undefined) return cached ?? undefined;
    const value = (this.stmts.setting.get(name) as { value: string } | undefined)?.value;
    this.rememberSetting(name, value ?? null);
    return value;
  }
  async initSetting(name: string, value: string): Promise<string> {
    await this.writes.run(() => this.stmts.initSetting.run(name, value));
    this.knownSettings.delete(name);
    return (await this.setting(name))!;
  }
  async putSetting(name: string, value: string): Promise<void> {
    await this.writes.run(() => this.stmts.putSetting.run(name, value));
    this.rememberSetting(name, value);
  }
  private rememberSetting(name: string, value: string | null): void {
    if (this.knownSettings.size >= CACHE_LIMIT) this.knownSettings.clear();
    this.knownSettings.set(name, value);
  }
}

/** Caches a record frozen (callers share it; a mutation would be a bug, so make it throw). */
function remember<T extends object>(cache: Map<string, T>, id: string, record: T): void {
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(id, deepFreeze(record));
}

function deepFreeze<T>(v: T): T {
  if (v !== null && typeof v === "object" && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}
