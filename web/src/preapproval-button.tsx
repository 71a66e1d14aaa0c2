/**
 * "Pre-approve incoming direct transfers": disabled once the party has a preapproval (scan proxy
 * lookup); a confirmation dialog first shows what it costs and who pays.
 */
import { useState } from "preact/hooks";
import { api, type Session } from "./api.js";
import { Alert } from "./alert.js";
import { useAction } from "./action.js";
import { divDecimal, formatCc, formatUsd, isZero, mulDecimal } from "./decimal.js";
import { usePoll } from "./poll.js";
import { hasPreapproval } from "./send-form.js";

interface Props {
  readonly session: Session;
  readonly party: string;
  readonly feeUsdPerDay: string | undefined;
  readonly price: string | undefined;
}

export function PreapprovalButton({ session, party, feeUsdPerDay, price }: Props) {
  const own = usePoll(() => hasPreapproval(session, party), [party]);
  const [confirming, setConfirming] = useState(false);
  const { run, error, busy } = useAction(own.refresh);
  const has = own.data === true;
  return (
    <>
      <button disabled={has || busy || own.data === undefined} onClick={() => setConfirming(true)}>
        {has ? "Pre-approve incoming direct transfers (active)" : "Pre-approve incoming direct transfers"}
      </button>
      {confirming && (
        <div role="dialog" aria-label="Confirm preapproval">
          <p>A transfer preapproval lets others send you CC in one step, without an offer you must accept.</p>
          <p>
            Fee: <Fee feeUsdPerDay={feeUsdPerDay} price={price} />, paid by the validator operator, who also renews it for you. Removing it later needs
            the validator operator.
          </p>
          <button onClick={() => (setConfirming(false), run(() => api(session, "POST", "/v0/wallet/transfer-preapproval", {})))}>Confirm</button>
          <button onClick={() => setConfirming(false)}>Cancel</button>
        </div>
      )}
      <Alert text={error} />
    </>
  );
}

function Fee({ feeUsdPerDay, price }: { feeUsdPerDay: string | undefined; price: string | undefined }) {
  if (feeUsdPerDay === undefined) return <>--.-- USD per day</>;
  const perYear = mulDecimal(feeUsdPerDay, "365");
  const cc = price && !isZero(price) ? ` (≈ ${formatCc(divDecimal(perYear, price))} at the current price)` : "";
  return (
    <span data-testid="preapproval-fee">
      {formatUsd(feeUsdPerDay)} per day of its lifetime, {formatUsd(perYear)} per year{cc}
    </span>
  );
}
