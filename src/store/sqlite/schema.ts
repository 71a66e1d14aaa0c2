/**
 * SQLite schema of the embedded store. Records are JSON (see ../codec.ts); columns exist only to
 * index. Every statement is idempotent, so opening a data dir of an older version migrates it in
 * place. Version 2 added `contracts_archived` (snapshots of the ACS at a past offset), version 3
 * `packages` (uploaded DARs' Daml-LF packages).
 */
export const SCHEMA_VERSION = "3";

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
CREATE TABLE IF NOT EXISTS contract_stakeholders (
  party TEXT NOT NULL,
  contract_id TEXT NOT NULL,
  PRIMARY KEY (party, contract_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS transactions (
  offset INTEGER PRIMARY KEY,
  update_id TEXT NOT NULL UNIQUE,
  record TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS completions (offset INTEGER PRIMARY KEY, record TEXT NOT NULL);
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
