/** An amount in CC with its USD value at a given price (B.4): exact, grouped, "@ rate". */
import { ccToUsd, formatCc, formatDecimal, formatUsd, isZero } from "./decimal.js";

export function Amount({ cc, price, priceNote }: { cc: string; price: string | undefined; priceNote?: string }) {
  return (
    <>
      <span class="cc">{formatCc(cc)}</span>
      {price !== undefined && !isZero(price) && (
        <span class="usd">
          {" "}
          ≈ {formatUsd(ccToUsd(cc, price))} @ {formatDecimal(price)} USD/CC{priceNote ? ` (${priceNote})` : ""}
        </span>
      )}
    </>
  );
}
