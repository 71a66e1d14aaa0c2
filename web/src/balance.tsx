/** The balance panel (B.3 Hero): unlocked CC with its USD value at the open round's price; locked CC when any. */
import { api, type Session } from "./api.js";
import { Alert } from "./alert.js";
import { Amount } from "./amount.js";
import { formatCc, isZero } from "./decimal.js";
import { usePoll } from "./poll.js";
import type { BalanceResponse } from "./types.js";

export function Balance({ session, price }: { session: Session; price: string | undefined }) {
  const b = usePoll(() => api<BalanceResponse>(session, "GET", "/v0/wallet/balance"), [session.token]);
  return (
    <section aria-label="Balance">
      <h2>Balance</h2>
      {b.data ? (
        <p>
          <span data-testid="cc">
            <Amount cc={b.data.effective_unlocked_qty} price={price} />
          </span>
          {!isZero(b.data.effective_locked_qty) && <> · {formatCc(b.data.effective_locked_qty)} locked</>}
        </p>
      ) : (
        <p>…</p>
      )}
      <p class="caption">Reflects unlocked CC and rewards earned.</p>
      <Alert text={b.error} />
    </section>
  );
}
