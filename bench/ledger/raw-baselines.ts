/** Raw baselines: fsync and bare SQLite on the filesystem of the server's data dir. */
import { fsyncRate, sqliteBaselines, type RateResult, type SqliteBaselines } from "../lib/raw.js";
import { fmt } from "../lib/stats.js";
import { CFG, log } from "./config.js";

export interface RawBaselines {
  readonly fsync: RateResult;
  readonly sqlite: SqliteBaselines;
}

export function rawBaselines(dir: string): RawBaselines {
  log("\n== Raw baselines (same filesystem as the server's data dir)");
  const fsync = fsyncRate(dir, CFG.rawSeconds);
  log(`  fsync (512 B write + fsyncSync)              ${fmt(fsync.perSec).padStart(7)}/s  p50 ${fmt(fsync.p50, 3)} ms  p99 ${fmt(fsync.p99, 3)} ms`);
  const sq = sqliteBaselines(dir, CFG.rawSeconds);
  log(`  SQLite 1 row / tx (WAL, synchronous=FULL)    ${fmt(sq.onePerTx.perSec).padStart(7)} commits/s  p50 ${fmt(sq.onePerTx.p50, 3)} ms`);
  log(`  SQLite 64 rows / tx                          ${fmt(sq.grouped64.perSec).padStart(7)} rows/s  (tx p50 ${fmt(sq.grouped64.p50, 3)} ms)`);
  log(`  SQLite store write set (5 rows/cmd), 64/tx   ${fmt(sq.writeSet64.perSec).padStart(7)} cmds/s  (tx p50 ${fmt(sq.writeSet64.p50, 3)} ms)  ascending ids`);
  log(`  same, SHA-256 contract/update ids (as ledger) ${fmt(sq.writeSet64Hashed.perSec).padStart(7)} cmds/s  (tx p50 ${fmt(sq.writeSet64Hashed.p50, 3)} ms, p99 ${fmt(sq.writeSet64Hashed.p99, 3)} ms)`);
  return { fsync, sqlite: sq };
}
