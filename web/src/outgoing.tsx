/** Outgoing offers and token-standard transfers with Withdraw (B.5, Splice issue #865). */
import { api, type Session } from "./api.js";
import { Alert } from "./alert.js";
import { useAction } from "./action.js";
import { Amount } from "./amount.js";
import { FreeText } from "./free-text.js";
import { instructionPath, offerPath, reasonOf, type OpenTransfers } from "./transfers.js";

interface Props {
  readonly session: Session;
  readonly party: string;
  readonly open: OpenTransfers | undefined;
  readonly price: string | undefined;
  readonly refresh: () => void;
}

export function Outgoing({ session, party, open, price, refresh }: Props) {
  const { run, error } = useAction(refresh);
  const post = (path: string) => () => run(() => api(session, "POST", path, {}));
  const offers = (open?.offers ?? []).filter((o) => o.payload.sender === party);
  const instructions = (open?.instructions ?? []).filter((i) => i.payload.transfer.sender === party);
  return (
    <section aria-label="Outgoing offers">
      <h2>Outgoing offers</h2>
      {offers.length + instructions.length === 0 && <p>Nothing waiting for a receiver.</p>}
      <ul>
        {offers.map((o) => (
          <li key={o.contract_id} class="offer">
            <span class="actions">
              <button onClick={post(offerPath(o.contract_id, "withdraw"))}>Withdraw</button>
            </span>{" "}
            ↑ <Amount cc={o.payload.amount.amount} price={price} /> · transfer offer to {o.payload.receiver} · <FreeText text={o.payload.description} fallback="no description" />
          </li>
        ))}
        {instructions.map((i) => (
          <li key={i.contract_id} class="offer">
            <span class="actions">
              <button onClick={post(instructionPath(i.contract_id, "withdraw"))}>Withdraw</button>
            </span>{" "}
            ↑ <Amount cc={i.payload.transfer.amount} price={price} /> · token-standard transfer to {i.payload.transfer.receiver} · <FreeText text={reasonOf(i)} fallback="no description" />
          </li>
        ))}
      </ul>
      <Alert text={error} />
    </section>
  );
}
