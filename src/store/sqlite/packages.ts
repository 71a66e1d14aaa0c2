/**
 * Uploaded Daml-LF packages in the SQLite file. Their own table, not the settings: a package is
 * bytes (a payload can be megabytes), listed without its payload, and inserted once by id, which
 * a primary key makes atomic where a read-modify-write of a settings entry would race.
 */
import type Database from "better-sqlite3";
import type { LoopWrites } from "./loop-writes.js";
import type { PackageRecord, PackageStore, PackageSummary } from "../../ledger/store-port.js";
import { extend } from "../../util/extend.js";

interface PackageRow {
  readonly package_id: string;
  readonly name: string;
  readonly version: string;
  readonly known_since: number | bigint;
  readonly size: number | bigint;
}

export class SqlitePackages implements PackageStore {
  private readonly insert: Database.Statement;
  private readonly one: Database.Statement;
  private readonly all: Database.Statement;

  constructor(
    db: Database.Database,
    private readonly writes: LoopWrites,
  ) {
    this.insert = db.prepare("INSERT OR IGNORE INTO packages (package_id, name, version, known_since, payload) VALUES (?, ?, ?, ?, ?)");
    this.one = db.prepare("SELECT package_id, name, version, known_since, length(payload) AS size, payload FROM packages WHERE package_id = ?");
    this.all = db.prepare("SELECT package_id, name, version, known_since, length(payload) AS size FROM packages ORDER BY package_id");
  }

  async addPackage(pkg: PackageRecord): Promise<boolean> {
    return this.writes.run(() => this.insert.run(pkg.packageId, pkg.name, pkg.version, pkg.knownSince, Buffer.from(pkg.payload)).changes === 1);
  }

  async package(packageId: string): Promise<PackageRecord | undefined> {
    const row = this.one.get(packageId) as (PackageRow & { payload: Buffer }) | undefined;
    if (!row) return undefined;
    const { size: _size, ...summary } = summaryOf(row);
    return extend(summary, { payload: new Uint8Array(row.payload) });
  }

  async packages(): Promise<PackageSummary[]> {
    return (this.all.all() as PackageRow[]).map(summaryOf);
  }
}

function summaryOf(row: PackageRow): PackageSummary {
  return { packageId: row.package_id, name: row.name, version: row.version, knownSince: BigInt(row.known_since), size: Number(row.size) };
}
