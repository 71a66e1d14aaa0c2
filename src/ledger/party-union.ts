/** Sets of parties as Daml computes them for a node: signatories, observers, informees, witnesses. */

/**
 * The distinct parties of `lists`, in first-seen order. Runs for every node, a dozen times per
 * transfer: a scan of the few parties a node names costs a tenth of `[...new Set(lists.flat())]`;
 * long lists (a contract may name thousands of observers) still go through a Set.
 */
export function union(...lists: (readonly string[])[]): string[] {
  let total = 0;
  for (const list of lists) total += list.length;
  if (total > 16) {
    const seen = new Set<string>();
    for (const list of lists) for (const p of list) seen.add(p);
    return [...seen];
  }
  const out: string[] = [];
  for (const list of lists) for (const p of list) if (!out.includes(p)) out.push(p);
  return out;
}
