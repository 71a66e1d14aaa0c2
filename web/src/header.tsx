/** The header (B.2): user, party id with copy, featured star, the preapproval button next to "Log out". */
import type { Session } from "./api.js";
import { CopyButton } from "./copy-button.js";
import { FeaturedStar } from "./featured-star.js";
import { PreapprovalButton } from "./preapproval-button.js";
import type { RulesFacts } from "./scan.js";

interface Props {
  readonly session: Session;
  readonly party: string;
  readonly rules: RulesFacts | undefined;
  readonly price: string | undefined;
  readonly logout: () => void;
}

export function Header({ session, party, rules, price, logout }: Props) {
  return (
    <header>
      <strong>CC Wallet · {session.user}</strong> <FeaturedStar session={session} party={party} />{" "}
      <span aria-label="Party ID" id="party-id">
        {party}
      </span>{" "}
      <CopyButton text={party} />{" "}
      <PreapprovalButton session={session} party={party} feeUsdPerDay={rules?.preapprovalFeeUsdPerDay} price={price} />{" "}
      <button onClick={logout}>Log out</button>
    </header>
  );
}
