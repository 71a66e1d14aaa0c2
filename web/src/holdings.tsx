/** Holdings (UTXOs): each unlocked and locked amulet with its effective amount, creation round and accrued fee. */
import { api, type Session } from "./api.js";
import { Alert } from "./alert.js";
import { Amount } from "./amount.js";
import { formatCc } from "./decimal.js";
import { usePoll } from "./poll.js";
import type { AmuletPosition } from "./types.js";

export function Holdings({ session, price }: { session: Session; price: string | undefined }) {
  const h = usePoll(() => api<{ amulets: AmuletPosition[]; locked_amulets: AmuletPosition[] }>(session, "GET", "/v0/wallet/amulets"), [session.token]);
  const rows = [...(h.data?.amulets ?? []).map((a) => ({ a, locked: false })), ...(h.data?.locked_amulets ?? []).map((a) => ({ a, locked: true }))];
  return (
    <section aria-label="Holdings">
      <h2>Holdings</h2>
      {h.data && rows.length === 0 && <p>No holdings.</p>}
      <table>
        <thead>
          <tr>
            <th>Amount</th>
            <th>State</th>
            <th>Created in round</th>
            <th>Accrued holding fee</th>
            <th>Contract</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ a, locked }) => (
            <tr key={a.contract.contract.contract_id}>
              <td>
                <Amount cc={a.effective_amount} price={price} />
              </td>
              <td>{locked ? "locked" : "unlocked"}</td>
              <td>{(a.contract.contract.payload.amount ?? a.contract.contract.payload.amulet?.amount)?.createdAt.number}</td>
              <td>{formatCc(a.accrued_holding_fee)}</td>
              <td class="party">{a.contract.contract.contract_id}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Alert text={h.error} />
    </section>
  );
}
