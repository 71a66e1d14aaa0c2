/**
 * How many active contracts each template has and how many stakeholder rows each party has:
 * what a query for one party's contracts of one template needs to pick its way in. Going by the
 * party first reads every contract the party was ever a stakeholder of — for the DSO, the whole
 * ledger; going by the template first reads every active contract of the template — for Amulet,
 * every holding of everyone. The smaller side wins.
 *
 * These are estimates that only steer the plan, never the result: kept in memory (this process
 * is the only writer of its file), counted at open and moved with each write; a write rolled back
 * and redone may count twice, which no answer depends on.
 */
import type Database from "better-sqlite3";

export class AcsStats {
  private readonly activeByTemplate = new Map<string, number>();
  private readonly rowsByParty = new Map<string, number>();

  constructor(db: Database.Database) {
    const templates = db.prepare("SELECT template_id AS k, COUNT(*) AS n FROM contracts WHERE archived_offset IS NULL GROUP BY template_id").all();
    for (const { k, n } of templates as { k: string; n: bigint }[]) this.activeByTemplate.set(k, Number(n));
    const parties = db.prepare("SELECT party AS k, COUNT(*) AS n FROM contract_stakeholders GROUP BY party").all();
    for (const { k, n } of parties as { k: string; n: bigint }[]) this.rowsByParty.set(k, Number(n));
  }

  /** Whether to read `template`'s active contracts and keep the party's, rather than the reverse. */
  templateFirst(party: string, template: string): boolean {
    return (this.activeByTemplate.get(template) ?? 0) < (this.rowsByParty.get(party) ?? 0);
  }

  created(template: string, stakeholders: Iterable<string>): void {
    bump(this.activeByTemplate, template, 1);
    for (const party of stakeholders) bump(this.rowsByParty, party, 1);
  }

  archived(template: string): void {
    bump(this.activeByTemplate, template, -1);
  }
}

function bump(counts: Map<string, number>, key: string, by: number): void {
  counts.set(key, Math.max(0, (counts.get(key) ?? 0) + by));
}
