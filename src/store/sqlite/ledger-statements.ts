/**
 * The ledger's prepared statements: contracts (active, by key, by party / template, at an
 * offset), transactions, completions and deduplication. Reads return encoded records.
 */
import type Database from "better-sqlite3";

export type LedgerStatements = ReturnType<typeof prepareLedgerStatements>;

/** A template's active contracts after a position, in creation order (see `templateRange`). */
const TEMPLATE_RANGE = `SELECT contract_id, created_offset, node_id FROM contracts
  WHERE template_id = @template AND archived_offset IS NULL AND created_offset <= @at
    AND (created_offset > @co OR (created_offset = @co AND node_id > @nid))
  ORDER BY created_offset, node_id`;

export function prepareLedgerStatements(db: Database.Database) {
  const p = (sql: string) => db.prepare<unknown[], unknown>(sql);
  const templateRanges: Database.Statement<unknown[], unknown>[] = [];
  return {
    contractHistory: p("SELECT record, archived_offset FROM contracts WHERE contract_id = ?"),
    contractByKey: p("SELECT record FROM contracts WHERE key_hash = ? AND archived_offset IS NULL"),
    activeAll: p("SELECT record FROM contracts WHERE archived_offset IS NULL ORDER BY created_offset, node_id"),
    // A party's active contracts: its rows, then the records; one template reads a range of the key.
    activeByParty: p(
      `SELECT c.record FROM active_stakeholders s CROSS JOIN contracts c ON c.contract_id = s.contract_id
       WHERE s.party = ? ORDER BY s.created_offset, s.node_id`,
    ),
    activeByPartyAndTemplate: p(
      `SELECT c.record FROM active_stakeholders s CROSS JOIN contracts c ON c.contract_id = s.contract_id
       WHERE s.party = ? AND s.template_id = ? ORDER BY s.created_offset, s.node_id`,
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
    // With the active ones created at or before @at, the ACS at @at for a party (see acs-queries.ts).
    archivedSince: p(
      "SELECT record FROM contracts WHERE archived_offset > @at AND created_offset <= @at ORDER BY created_offset, node_id",
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
    // Everyone's page of the ACS at @at after the position (@co, @nid), in creation order
    // (acs-queries.ts readActivePage): the templates with active contracts, each a range of
    // contracts_active_template from the position on, merged as they are read; the archived
    // since @at added as for a party. Positions only: the page's records are read by id.
    activeTemplateIds: p(
      `WITH RECURSIVE t(id) AS (
         SELECT MIN(template_id) FROM contracts WHERE archived_offset IS NULL
         UNION ALL
         SELECT (SELECT MIN(template_id) FROM contracts WHERE archived_offset IS NULL AND template_id > t.id) FROM t WHERE t.id IS NOT NULL
       ) SELECT id FROM t WHERE id IS NOT NULL`,
    ),
    /** The `i`th of the statements reading a template's range: a merge iterates one per template at once. */
    templateRange: (i: number) => (templateRanges[i] ??= p(TEMPLATE_RANGE)),
    // Whether the contracts archived after @at are many (at least @cap): the table's last rowid
    // bounds its size, and counting stops at the cap.
    archivedSinceAtLeast: p("SELECT COUNT(*) AS n FROM (SELECT 1 FROM contracts WHERE archived_offset > @at LIMIT @cap)"),
    contractsBound: p("SELECT MAX(rowid) AS n FROM contracts"),
    // The same page in one pass over the table, for a snapshot after which most of the ledger was
    // archived: reading those contracts by id, sorted, costs more than reading the table in order.
    pageAllByScan: p(
      `SELECT contract_id, created_offset, node_id FROM contracts NOT INDEXED
       WHERE created_offset <= @at AND (archived_offset IS NULL OR archived_offset > @at)
         AND (created_offset > @co OR (created_offset = @co AND node_id > @nid))
       ORDER BY created_offset, node_id LIMIT @limit`,
    ),
    pageByParty: p(
      `SELECT contract_id, created_offset, node_id FROM active_stakeholders
       WHERE party = @party AND created_offset <= @at AND (created_offset > @co OR (created_offset = @co AND node_id > @nid))
       ORDER BY created_offset, node_id LIMIT @limit`,
    ),
    // Positions only (the sort holds no records); read through once per page (acs-queries.ts).
    pageArchivedSince: p(
      `SELECT contract_id, created_offset, node_id FROM contracts
       WHERE archived_offset > @at AND created_offset <= @at AND (created_offset > @co OR (created_offset = @co AND node_id > @nid))
       ORDER BY created_offset, node_id`,
    ),
    insertContract: p(
      "INSERT INTO contracts (contract_id, template_id, key_hash, created_offset, node_id, record) VALUES (?, ?, ?, ?, ?, ?)",
    ),
    insertStakeholder: p(
      "INSERT OR IGNORE INTO active_stakeholders (party, template_id, created_offset, node_id, contract_id) VALUES (?, ?, ?, ?, ?)",
    ),
    archiveStakeholders: p("DELETE FROM active_stakeholders WHERE contract_id = ?"),
    activeSets: p("SELECT party, template_id FROM active_stakeholders WHERE contract_id = ?"),
    wasArchived: p("SELECT 1 FROM contracts WHERE contract_id = ? AND archived_offset IS NOT NULL"),
    archive: p("UPDATE contracts SET archived_offset = ? WHERE contract_id = ? AND archived_offset IS NULL"),
    isActive: p("SELECT 1 FROM contracts WHERE contract_id = ? AND archived_offset IS NULL"),
    keyInUse: p("SELECT 1 FROM contracts WHERE key_hash = ? AND archived_offset IS NULL"),
    insertTx: p("INSERT INTO transactions (offset, update_id, record) VALUES (?, ?, ?)"),
    txRange: p("SELECT record FROM transactions WHERE offset > ? AND offset <= ? ORDER BY offset LIMIT ?"),
    txById: p("SELECT record FROM transactions WHERE update_id = ?"),
    txOffsetById: p("SELECT offset FROM transactions WHERE update_id = ?"),
    txByOffset: p("SELECT record FROM transactions WHERE offset = ?"),
    insertCompletion: p("INSERT INTO completions (offset, record, user_id) VALUES (?, ?, ?)"),
    completionRange: p("SELECT record FROM completions WHERE offset > ? AND offset <= ? ORDER BY offset LIMIT ?"),
    userCompletionRange: p("SELECT record FROM completions WHERE user_id = ? AND offset > ? AND offset <= ? ORDER BY offset LIMIT ?"),
    dedup: p("SELECT offset, record_time FROM dedup WHERE change_key = ?"),
    upsertDedup: p(
      `INSERT INTO dedup (change_key, offset, record_time) VALUES (?, ?, ?)
       ON CONFLICT(change_key) DO UPDATE SET offset = excluded.offset, record_time = excluded.record_time`,
    ),
    beginRead: p("BEGIN DEFERRED"),
    endRead: p("COMMIT"),
    maxOffset: p(
      "SELECT MAX(m) AS m FROM (SELECT MAX(offset) AS m FROM transactions UNION ALL SELECT MAX(offset) FROM completions)",
    ),
  };
}
