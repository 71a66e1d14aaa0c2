/**
 * Buy traffic (wallet-external API): a request for the validator hosting the user's party on the
 * active synchronizer, then its status polled by tracking id until completed or failed. The amount
 * is a whole number of bytes as typed (no `2e9`, no hex: what the cost line reads is what is
 * bought), and a dialog names the cost before any CC is spent.
 */
import { useState } from "preact/hooks";
import { api, freshId, type Session } from "./api.js";
import { Alert } from "./alert.js";
import { useAction } from "./action.js";
import { divDecimal, formatCc, formatUsd, isDecimal, isZero, mulDecimal } from "./decimal.js";
import { usePoll } from "./poll.js";
import type { RulesFacts } from "./scan.js";

interface Status {
  status: "created" | "completed" | "failed";
  transaction_id?: string;
  failure_reason?: string;
  rejection_reason?: string;
}

interface Props {
  readonly session: Session;
  readonly party: string;
  readonly rules: RulesFacts | undefined;
  readonly price: string | undefined;
}

export function BuyTraffic({ session, party, rules, price }: Props) {
  const synchronizer = rules?.synchronizer;
  const [bytes, setBytes] = useState("200000");
  const [tracking, setTracking] = useState<string[]>([]);
  const [confirming, setConfirming] = useState(false);
  const { run, error, busy } = useAction();
  const wholeBytes = /^[1-9]\d{0,14}$/.test(bytes);
  const buy = () =>
    run(async () => {
      if (!synchronizer) throw new Error("The active synchronizer is not known yet; try again in a moment.");
      const tracking_id = freshId("ui-traffic");
      await api(session, "POST", "/v0/wallet/buy-traffic-requests", {
        receiving_validator_party_id: party,
        domain_id: synchronizer,
        traffic_amount: Number(bytes),
        tracking_id,
        expires_at: (Date.now() + 3_600_000) * 1000,
      });
      setTracking((t) => [tracking_id, ...t]);
    });
  return (
    <section aria-label="Buy traffic">
      <h2>Buy traffic</h2>
      <p>Buys extra synchronizer traffic for this validator, paid in CC from your wallet.</p>
      <label>
        Traffic amount (bytes) <input value={bytes} inputMode="numeric" onInput={(e) => setBytes(e.currentTarget.value)} />
      </label>
      <Cost bytes={bytes} usdPerMb={rules?.extraTrafficPriceUsdPerMb} price={price} />{" "}
      <button disabled={busy || !wholeBytes} onClick={() => setConfirming(true)}>
        Buy traffic
      </button>
      {!wholeBytes && <span class="caption"> a whole number of bytes, digits only</span>}
      {confirming && (
        <div role="dialog" aria-label="Confirm traffic purchase">
          <p>
            Buy {bytes} bytes of traffic: <Cost bytes={bytes} usdPerMb={rules?.extraTrafficPriceUsdPerMb} price={price} />, paid in CC from your wallet.
          </p>
          <button onClick={() => (setConfirming(false), buy())}>Confirm</button>
          <button onClick={() => setConfirming(false)}>Cancel</button>
        </div>
      )}
      <Alert text={error} />
      <ul aria-label="Traffic requests">
        {tracking.map((id) => (
          <TrafficStatus key={id} session={session} id={id} />
        ))}
      </ul>
    </section>
  );
}

function TrafficStatus({ session, id }: { session: Session; id: string }) {
  const s = usePoll(() => api<Status>(session, "POST", `/v0/wallet/buy-traffic-requests/${encodeURIComponent(id)}/status`, {}), [id]);
  const d = s.data;
  const text = !d
    ? "…"
    : d.status === "completed"
      ? `completed in ${d.transaction_id ?? "?"}`
      : d.status === "failed"
        ? `failed: ${d.failure_reason ?? ""}${d.rejection_reason ? ` (${d.rejection_reason})` : ""}`
        : "created, waiting for the wallet automation";
  return (
    <li>
      {id}: <span role="status">{text}</span>
      <Alert text={s.error} />
    </li>
  );
}

/** What the traffic costs: bytes / 10^6 × the rules' USD per MB, in CC at the open round's price. */
function Cost({ bytes, usdPerMb, price }: { bytes: string; usdPerMb: string | undefined; price: string | undefined }) {
  if (!usdPerMb || !/^\d+$/.test(bytes) || !isDecimal(usdPerMb)) return null;
  const usd = divDecimal(mulDecimal(bytes, usdPerMb), "1000000");
  const cc = price && !isZero(price) ? ` ≈ ${formatCc(divDecimal(usd, price))}` : "";
  return (
    <span class="usd">
      costs {formatUsd(usd)}
      {cc}
    </span>
  );
}
