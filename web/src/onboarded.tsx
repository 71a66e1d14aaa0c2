/** The wallet of an onboarded user: banner, header, balance on every page, then the chosen page. */
import { useState } from "preact/hooks";
import type { Session } from "./api.js";
import { ActionNeeded } from "./action-needed.js";
import { Balance } from "./balance.js";
import { BuyTraffic } from "./buy-traffic.js";
import { Delegations } from "./delegations.js";
import { Header } from "./header.js";
import { History } from "./history.js";
import { Holdings } from "./holdings.js";
import { Nav } from "./nav.js";
import { NetworkBanner } from "./network-banner.js";
import { Outgoing } from "./outgoing.js";
import { pageFromHash, type Page } from "./pages.js";
import { useAmuletPrice, useAmuletRules } from "./scan.js";
import { SendForm } from "./send-form.js";
import { Tap } from "./tap.js";
import { useOpenTransfers } from "./transfers.js";

export function Onboarded({ session, party, logout }: { session: Session; party: string; logout: () => void }) {
  const [page, setPage] = useState<Page>(pageFromHash(location.hash));
  const go = (p: Page) => ((location.hash = p), setPage(p));
  const price = useAmuletPrice(session);
  const rules = useAmuletRules(session);
  return (
    <>
      <NetworkBanner isDevNet={rules?.isDevNet} />
      <Header session={session} party={party} rules={rules} price={price} logout={logout} />
      <Nav page={page} go={go} />
      <main>
        <Balance session={session} price={price} />
        {page === "transfer" && <TransferPage session={session} party={party} price={price} devNet={rules?.isDevNet !== false} />}
        {page === "transactions" && <History session={session} party={party} price={price} />}
        {page === "holdings" && <Holdings session={session} price={price} />}
        {page === "traffic" && <BuyTraffic session={session} party={party} rules={rules} price={price} />}
        {page === "delegations" && <Delegations session={session} />}
      </main>
    </>
  );
}

function TransferPage({ session, party, price, devNet }: { session: Session; party: string; price: string | undefined; devNet: boolean }) {
  const open = useOpenTransfers(session);
  return (
    <>
      {devNet && <Tap session={session} />}
      <SendForm session={session} />
      <ActionNeeded session={session} party={party} open={open.data} price={price} refresh={open.refresh} />
      <Outgoing session={session} party={party} open={open.data} price={price} refresh={open.refresh} />
    </>
  );
}
