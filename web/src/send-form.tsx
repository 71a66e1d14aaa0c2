/**
 * The send form: looks up the receiver's preapproval and sends in one step when there is one; else a
 * legacy transfer offer or, when chosen, a token-standard transfer. It says which path it took.
 */
import { useState } from "preact/hooks";
import { api, freshId, type Session } from "./api.js";
import { Alert } from "./alert.js";
import { useAction } from "./action.js";
import { formatCc, isDecimal } from "./decimal.js";

export function hasPreapproval(session: Session, party: string): Promise<boolean> {
  return api(session, "GET", `/v0/scan-proxy/transfer-preapprovals/by-party/${encodeURIComponent(party)}`).then(
    () => true,
    () => false,
  );
}

/** How long an offer or token-standard transfer waits for the receiver (Splice's choices); unused with a preapproval. */
const expiryChoices = ["1", "10", "30", "60", "90"];

export function SendForm({ session }: { session: Session }) {
  const [receiver, setReceiver] = useState("");
  const [amount, setAmount] = useState("");
  const [description, setDescription] = useState("");
  const [tokenStandard, setTokenStandard] = useState(false);
  const [expiryDays, setExpiryDays] = useState("1");
  const [done, setDone] = useState<string>();
  const { run, error, busy } = useAction();
  const send = async () => {
    setDone(undefined);
    const to = receiver.trim();
    const amountText = isDecimal(amount) ? formatCc(amount.trim()) : `${amount} CC`;
    if (await hasPreapproval(session, to)) {
      await api(session, "POST", "/v0/wallet/transfer-preapproval/send", { receiver_party_id: to, amount, deduplication_id: freshId("ui-send"), description });
      return setDone(`Sent ${amountText} directly: the receiver pre-approved incoming transfers.`);
    }
    const request = { receiver_party_id: to, amount, description, expires_at: (Date.now() + Number(expiryDays) * 86_400_000) * 1000, tracking_id: freshId("ui-transfer") };
    if (tokenStandard) {
      await api(session, "POST", "/v0/wallet/token-standard/transfers", request);
      setDone(`Created a token-standard transfer of ${amountText}: the receiver has no preapproval and must accept it.`);
    } else {
      await api(session, "POST", "/v0/wallet/transfer-offers", request);
      setDone(`Created a transfer offer of ${amountText}: the receiver has no preapproval and must accept it.`);
    }
  };
  return (
    <section aria-label="Send">
      <h2>Send CC</h2>
      <form onSubmit={(e) => (e.preventDefault(), run(send))}>
        <label>
          Receiver <input value={receiver} onInput={(e) => setReceiver(e.currentTarget.value)} required />
        </label>
        <label>
          Amount <input value={amount} inputMode="decimal" onInput={(e) => setAmount(e.currentTarget.value)} required />
        </label>
        <label>
          Description <input value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
        </label>
        <label>
          Expires in{" "}
          <select value={expiryDays} onChange={(e) => setExpiryDays(e.currentTarget.value)}>
            {expiryChoices.map((d) => (
              <option key={d} value={d}>
                {d === "1" ? "1 day" : `${d} days`}
              </option>
            ))}
          </select>
        </label>
        <label>
          <input type="checkbox" checked={tokenStandard} onChange={(e) => setTokenStandard(e.currentTarget.checked)} /> Use a token-standard transfer
          when the receiver has no preapproval
        </label>
        <button type="submit" disabled={busy}>
          Send
        </button>
      </form>
      {done && <p role="status">{done}</p>}
      <Alert text={error} />
    </section>
  );
}
