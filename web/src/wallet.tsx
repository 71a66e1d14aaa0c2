/** After login: the user's status decides between onboarding and the wallet (Splice's AuthCheck). */
import { api, type Session } from "./api.js";
import { Alert } from "./alert.js";
import { Onboarded } from "./onboarded.js";
import { Onboarding } from "./onboarding.js";
import { usePoll } from "./poll.js";
import type { UserStatus } from "./types.js";

export function Wallet({ session, logout }: { session: Session; logout: () => void }) {
  const status = usePoll(() => api<UserStatus>(session, "GET", "/v0/wallet/user-status"), [session.token]);
  if (status.data === undefined) {
    return (
      <main>
        <p>Loading…</p>
        <Alert text={status.error} />
        <button onClick={logout}>Log out</button>
      </main>
    );
  }
  if (!status.data.user_onboarded || !status.data.user_wallet_installed) {
    return <Onboarding session={session} logout={logout} onboarded={status.refresh} />;
  }
  return <Onboarded session={session} party={status.data.party_id} logout={logout} />;
}
