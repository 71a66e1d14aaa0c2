/** DevNet tap: mints CC for the user (shown on DevNet only). */
import { useState } from "preact/hooks";
import { api, type Session } from "./api.js";
import { Alert } from "./alert.js";
import { useAction } from "./action.js";

export function Tap({ session }: { session: Session }) {
  const [amount, setAmount] = useState("100");
  const { run, error, busy } = useAction();
  return (
    <section aria-label="DevNet tap">
      <h2>DevNet tap</h2>
      <label>
        Tap amount <input value={amount} inputMode="decimal" onInput={(e) => setAmount(e.currentTarget.value)} />
      </label>
      <button disabled={busy} onClick={() => run(() => api(session, "POST", "/v0/wallet/tap", { amount }))}>
        Tap
      </button>
      <Alert text={error} />
    </section>
  );
}
