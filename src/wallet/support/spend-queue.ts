/**
 * A wallet party's spends, one after another. Concurrent sends from one party would all select
 * the same holdings (the smallest that cover) and all but one would lose at commit (429), though
 * the wallet could pay them all. Splice's wallet queues a party's spends in its treasury service;
 * here each spend of a party (select inputs, submit) waits for the one before it to finish, so the
 * change it made is there to select from. Different parties spend in parallel.
 *
 * One queue per node (`WalletDeps.local.spends`): another node sharing the store still races
 * this one, and its losers get contention (429) as before (see contention.ts).
 */
export class SpendQueue {
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `spend` once the party's earlier spends have finished (succeeded or failed). */
  run<T>(party: string, spend: () => Promise<T>): Promise<T> {
    const queue = this.tails;
    const result = (queue.get(party) ?? Promise.resolve()).then(spend);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    queue.set(party, tail);
    // An idle party leaves no entry behind.
    void tail.then(() => {
      if (queue.get(party) === tail) queue.delete(party);
    });
    return result;
  }
}

/** Runs `spend` in the party's queue on this node (`deps` is the WalletDeps). */
export function spendingAs<T>(deps: { readonly local: { readonly spends: SpendQueue } }, party: string, spend: () => Promise<T>): Promise<T> {
  return deps.local.spends.run(party, spend);
}
