import type { BenchServer } from "../lib/setup.js";

export interface CommitCount {
  readonly flushes: number;
  readonly commits: number;
}

/**
 * Group-commit shape, observed from outside the store: every ledger-end notification is one
 * flush (one SQLite transaction, one fsync); the offsets it advances are the commits in it.
 */
export class CommitCounter {
  flushes = 0;
  commits = 0;
  private last = 0n;
  private snap: CommitCount = { flushes: 0, commits: 0 };
  result: CommitCount | undefined;
  constructor(bs: BenchServer) {
    void bs.server.store.ledgerEnd().then((e) => (this.last = e));
    bs.server.store.onLedgerEnd((end) => {
      this.flushes++;
      this.commits += Number(end - this.last);
      this.last = end;
    });
  }
  readonly mark = (m: "start" | "end"): void => {
    if (m === "start") this.snap = { flushes: this.flushes, commits: this.commits };
    else this.result = { flushes: this.flushes - this.snap.flushes, commits: this.commits - this.snap.commits };
  };
}
