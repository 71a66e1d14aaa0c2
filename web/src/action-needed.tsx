/** Action needed (B.3): incoming legacy offers and token-standard transfer instructions, each with Accept / Reject. */
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

export function ActionNeeded({ session, party, open, price, refresh }: Props) {
  const { run, error } = useAction(refresh);
  const post = (path: string) => () => run(() => api(session, "POST", path, {}));
  const offers = (open?.offers ?? []).filter((o) => o.payload.receiver === party);
  const instructions = (open?.instructions ?? []).filter((i) => i.payload.transfer.receiver === party);
  const count = offers.length + instructions.length;
  return (
    <section aria-label="Action needed">
      <h2>
        Action needed <span class="chip">{count}</span>
      </h2>
      {count === 0 && <p>No transfer offers available.</p>}
      <ul>
        {offers.map((o) => (
          <li key={o.contract_id} class="offer">
            <span class="actions">
              <button onClick={post(offerPath(o.contract_id, "accept"))}>Accept</button> <button onClick={post(offerPath(o.contract_id, "reject"))}>Reject</button>
            </span>{" "}
            ↓ <Amount cc={o.payload.amount.amount} price={price} /> · transfer offer from {o.payload.sender} · <FreeText text={o.payload.description} fallback="no description" />
          </li>
        ))}
        {instructions.map((i) => (
          <li key={i.contract_id} class="offer">
            <span class="actions">
              <button onClick={post(instructionPath(i.contract_id, "accept"))}>Accept</button>{" "}
              <button onClick={post(instructionPath(i.contract_id, "reject"))}>Reject</button>
            </span>{" "}
            ↓ <Amount cc={i.payload.transfer.amount} price={price} /> · token-standard transfer from {i.payload.transfer.sender} · expires{" "}
            {i.payload.transfer.executeBefore} · <FreeText text={reasonOf(i)} fallback="no description" />
          </li>
        ))}
      </ul>
      <Alert text={error} />
    </section>
  );
}
