/**
 * Transaction history (B.3): the newest page polled live, older pages fetched with "Load more"
 * (`begin_after_id` = the last shown event id, as `ListTransactionsRequest` defines it). Balance change in CC and USD at the price the
 * transaction recorded, or at the current price (said so) where the item carries none.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { api, type Session } from "./api.js";
import { Alert } from "./alert.js";
import { useAction } from "./action.js";
import { HistoryRow } from "./history-row.js";
import { usePoll } from "./poll.js";
import type { HistoryItem } from "./types.js";

export const historyPageSize = 10;

type Page = { items: HistoryItem[] };

export function History({ session, party, price }: { session: Session; party: string; price: string | undefined }) {
  const first = usePoll(() => api<Page>(session, "POST", "/v0/wallet/transactions?include_amulet_price=true", { page_size: historyPageSize }), [session.token]);
  const [older, setOlder] = useState<HistoryItem[]>([]); // past the first page, newest first
  const [end, setEnd] = useState(false);
  const previousHead = useRef<HistoryItem[]>([]);
  const more = useAction();
  const head = first.data?.items ?? [];
  // New transactions push items off the polled first page: once older pages are shown, those items
  // join them, so the list has no hole. Only a whole page of news between two polls leaves one
  // unknown stretch; then the list starts over from the first page.
  useEffect(() => {
    const before = previousHead.current;
    previousHead.current = head;
    if (older.length === 0 || before.length === 0) return;
    const now = new Set(head.map((i) => i.event_id));
    if (!before.some((i) => now.has(i.event_id))) return void (setOlder([]), setEnd(false));
    const known = new Set(older.map((i) => i.event_id));
    const fell = before.filter((i) => !now.has(i.event_id) && !known.has(i.event_id));
    if (fell.length) setOlder([...fell, ...older]);
  }, [first.data]);
  const seen = new Set(head.map((i) => i.event_id));
  const items = [...head, ...older.filter((i) => !seen.has(i.event_id))];
  const loadMore = () =>
    more.run(async () => {
      const last = items[items.length - 1];
      const page = await api<Page>(session, "POST", "/v0/wallet/transactions?include_amulet_price=true", { page_size: historyPageSize, begin_after_id: last?.event_id });
      setOlder((o) => [...o, ...page.items]);
      if (page.items.length < historyPageSize) setEnd(true);
    });
  return (
    <section aria-label="Transaction history">
      <h2>Transactions</h2>
      {first.data && items.length === 0 && <p>No transactions yet.</p>}
      <table>
        <thead>
          <tr>
            <th>Type</th>
            <th>Date</th>
            <th>Counterparty</th>
            <th>Balance change</th>
            <th>Update</th>
          </tr>
        </thead>
        <tbody>
          {items.map((i) => (
            <HistoryRow key={i.event_id} item={i} party={party} currentPrice={price} />
          ))}
        </tbody>
      </table>
      {head.length === historyPageSize && !end && (
        <button disabled={more.busy} onClick={loadMore}>
          Load more
        </button>
      )}
      <Alert text={more.error ?? first.error} />
    </section>
  );
}
