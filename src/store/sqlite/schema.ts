/**
 * SQLite schema of the embedded store. Records are JSON (see ../codec.ts); columns exist only to
 * index. Every statement is idempotent, so opening a data dir of an older version migrates it in
 * place. Version 2 added `contracts_archived` (snapshots of the ACS at a past offset), version 3
 * `packages` (uploaded DARs' Daml-LF packages), version 4 replaced `contract_stakeholders` (every
 * contract a party was ever a stakeholder of) with `active_stakeholders`, version 5 gave
 * `completions` their user's id, indexed (see MIGRATIONS and AFTER_MIGRATIONS).
 */
import type Database from "better-sqlite3";

export const SCHEMA_VERSION = "5";

export const SCHEMA = `
CREATE TABLE IF NOT EXISTS settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS contracts (
  contract_id TEXT PRIMARY KEY,
  template_id TEXT NOT NULL,
  key_hash TEXT,
  created_offset INTEGER NOT NULL,
  node_id INTEGER NOT NULL,
  archived_offset INTEGER,
  record TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS contracts_active_key ON contracts(key_hash)
  WHERE key_hash IS NOT NULL AND archived_offset IS NULL;
CREATE INDEX IF NOT EXISTS contracts_active_template ON contracts(template_id, created_offset, node_id)
  WHERE archived_offset IS NULL;
-- The ACS at a past offset N is the contracts active now plus those archived after N (both created
-- at or before N); this index finds the second part without scanning the archived history.
CREATE INDEX IF NOT EXISTS contracts_archived ON contracts(archived_offset)
  WHERE archived_offset IS NOT NULL;
-- A party's active contracts of a template, in creation order, without reading its history:
-- rows go when their contract is archived. The past ACS (at an offset) adds the contracts
-- archived since, found through contracts_archived.
CREATE TABLE IF NOT EXISTS active_stakeholders (
  party TEXT NOT NULL,
  template_id TEXT NOT NULL,
  created_offset INTEGER NOT NULL,
  node_id INTEGER NOT NULL,
  contract_id TEXT NOT NULL,
  PRIMARY KEY (party, template_id, created_offset, node_id, contract_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS active_stakeholders_contract ON active_stakeholders(contract_id);
CREATE TABLE IF NOT EXISTS transactions (
  offset INTEGER PRIMARY KEY,
  update_id TEXT NOT NULL UNIQUE,
  record TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS completions (offset INTEGER PRIMARY KEY, record TEXT NOT NULL, user_id TEXT);
CREATE TABLE IF NOT EXISTS dedup (
  change_key TEXT PRIMARY KEY,
  offset INTEGER NOT NULL,
  record_time INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS parties (party TEXT PRIMARY KEY, record TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS users (id TEXT PRIMARY KEY, record TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS packages (
  package_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  version TEXT NOT NULL,
  known_since INTEGER NOT NULL,
  payload BLOB NOT NULL
);
`;

/**
 * Steps for data dirs of an older schema, run after SCHEMA when `applies` says so. Version 3's
 * `contract_stakeholders` kept a row per contract a party was ever a stakeholder of, so a
 * party's reads grew with its history; its active rows move to `active_stakeholders`.
 */
export const MIGRATIONS: readonly { readonly applies: string; readonly sql: string }[] = [
  {
    applies: "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'contract_stakeholders'",
    sql: `INSERT OR IGNORE INTO active_stakeholders (party, template_id, created_offset, node_id, contract_id)
            SELECT s.party, c.template_id, c.created_offset, c.node_id, c.contract_id
            FROM contract_stakeholders s JOIN contracts c ON c.contract_id = s.contract_id
            WHERE c.archived_offset IS NULL;
          DROP TABLE contract_stakeholders;`,
  },
  {
    // Version 4's completions had no user column: it is added and filled from the records.
    applies: "SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM pragma_table_info('completions') WHERE name = 'user_id')",
    sql: `ALTER TABLE completions ADD COLUMN user_id TEXT;
          UPDATE completions SET user_id = json_extract(record, '$.userId');`,
  },
];

/** What needs the migrated columns: a user's completions in offset order (completion streams). */
export const AFTER_MIGRATIONS = `
CREATE INDEX IF NOT EXISTS completions_user ON completions(user_id, offset);
`;

/** Brings a database of any earlier version (or none) to this one, in place. */
export function applySchema(db: Database.Database): void {
  db.exec(SCHEMA);
  // Each migration commits whole or not at all: a crash halfway would leave a state its
  // `applies` check no longer sees (say, the user column added but never filled).
  for (const m of MIGRATIONS) if (db.prepare(m.applies).get() !== undefined) db.transaction(() => db.exec(m.sql))();
  db.exec(AFTER_MIGRATIONS);
}
