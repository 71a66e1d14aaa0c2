/**
 * The ledger's prepared statements: contracts (active, by key, by party / template, at an
 * offset), transactions, completions and deduplication. Reads return encoded records.
 */
import type Database from "better-sqlite3";

export type LedgerStatements = ReturnType<typeof prepareLedgerStatements>;

export function prepareLedgerStatements(db: Database.Database) {
  const p = (sql: string) => db.prepare<unknown[], unknown>(sql);
  return {
    contract: p("SELECT record FROM contracts WHERE contract_id = ? AND archived_offset IS NULL"),
    contractHistory: p("SELECT record, archived_offset FROM contracts WHERE contract_id = ?"),
    contractByKey: p("SELECT record FROM contracts WHERE key_hash = ? AND archived_offset IS NULL"),
    activeAll: p("SELECT record FROM contracts WHERE archived_offset IS NULL ORDER BY created_offset, node_id"),
    activeByParty: p(
      `SELECT c.record FROM contract_stakeholders s JOIN contracts c ON c.contract_id = s.contract_id
       WHERE s.party = ? AND c.archived_offset IS NULL ORDER BY c.created_offset, c.node_id`,
    ),
    // Party first (CROSS JOIN keeps that order); the template is filtered before any record is decoded.
    activeByPartyAndTemplate: p(
      `SELECT c.record FROM contract_stakeholders s CROSS JOIN contracts c ON c.contract_id = s.contract_id
       WHERE s.party = ? AND c.template_id = ? AND c.archived_offset IS NULL ORDER BY c.created_offset, c.node_id`,
    ),
    // Template first, for a party that is a stakeholder of far more contracts (see acs-stats.ts).
    activeByTemplateAndParty: p(
      `SELECT c.record FROM contracts c WHERE c.template_id = ? AND c.archived_offset IS NULL
       AND EXISTS (SELECT 1 FROM contract_stakeholders s WHERE s.party = ? AND s.contract_id = c.contract_id)
       ORDER BY c.created_offset, c.node_id`,
    ),
    activeByTemplate: p(
      "SELECT record FROM contracts WHERE template_id = ? AND archived_offset IS NULL ORDER BY created_offset, node_id",
    ),
    // The ACS at offset @at: created at or before it, and active now or archived after it.
    activeAllAt: p(
      `SELECT record FROM (
         SELECT record, created_offset, node_id FROM contracts WHERE archived_offset IS NULL AND created_offset <= @at
         UNION ALL
         SELECT record, created_offset, node_id FROM contracts WHERE archived_offset > @at AND created_offset <= @at
       ) ORDER BY created_offset, node_id`,
    ),
    activeByPartyAt: p(
      `SELECT c.record FROM contract_stakeholders s JOIN contracts c ON c.contract_id = s.contract_id
       WHERE s.party = @party AND c.created_offset <= @at AND (c.archived_offset IS NULL OR c.archived_offset > @at)
       ORDER BY c.created_offset, c.node_id`,
    ),
    activeByTemplateAt: p(
      `SELECT record FROM (
         SELECT record, created_offset, node_id FROM contracts
         WHERE template_id = @template AND archived_offset IS NULL AND created_offset <= @at
         UNION ALL
         SELECT record, created_offset, node_id FROM contracts
         WHERE template_id = @template AND archived_offset > @at AND created_offset <= @at
       ) ORDER BY created_offset, node_id`,
    ),
    insertContract: p(
      "INSERT INTO contracts (contract_id, template_id, key_hash, created_offset, node_id, record) VALUES (?, ?, ?, ?, ?, ?)",
    ),
    insertStakeholder: p("INSERT OR IGNORE INTO contract_stakeholders (party, contract_id) VALUES (?, ?)"),
    archive: p("UPDATE contracts SET archived_offset = ? WHERE contract_id = ? AND archived_offset IS NULL RETURNING template_id"),
    isActive: p("SELECT 1 FROM contracts WHERE contract_id = ? AND archived_offset IS NULL"),
    keyInUse: p("SELECT 1 FROM contracts WHERE key_hash = ? AND archived_offset IS NULL"),
    insertTx: p("INSERT INTO transactions (offset, update_id, record) VALUES (?, ?, ?)"),
    txRange: p("SELECT record FROM transactions WHERE offset > ? AND offset <= ? ORDER BY offset LIMIT ?"),
    txById: p("SELECT record FROM transactions WHERE update_id = ?"),
    txByOffset: p("SELECT record FROM transactions WHERE offset = ?"),
    insertCompletion: p("INSERT INTO completions (offset, record) VALUES (?, ?)"),
    completionRange: p("SELECT record FROM completions WHERE offset > ? AND offset <= ? ORDER BY offset LIMIT ?"),
    dedup: p("SELECT offset, record_time FROM dedup WHERE change_key = ?"),
    upsertDedup: p(
      `INSERT INTO dedup (change_key, offset, record_time) VALUES (?, ?, ?)
       ON CONFLICT(change_key) DO UPDATE SET offset = excluded.offset, record_time = excluded.record_time`,
    ),
    maxOffset: p(
      "SELECT MAX(m) AS m FROM (SELECT MAX(offset) AS m FROM transactions UNION ALL SELECT MAX(offset) FROM completions)",
    ),
  };
}
