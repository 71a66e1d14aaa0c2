/**
 * Minting delegations (B.3): proposals where the user is the delegate (Accept / Reject, Accept
 * disabled when the beneficiary is not hosted here) and active delegations (Withdraw).
 */
import { api, type Session } from "./api.js";
import { Alert } from "./alert.js";
import { useAction } from "./action.js";
import { usePoll } from "./poll.js";
import type { DelegationWithStatus } from "./types.js";

const cid = (d: DelegationWithStatus) => encodeURIComponent(d.contract.contract_id);

export function Delegations({ session }: { session: Session }) {
  const proposals = usePoll(() => api<{ proposals: DelegationWithStatus[] }>(session, "GET", "/v0/wallet/minting-delegation-proposals"), [session.token]);
  const active = usePoll(() => api<{ delegations: DelegationWithStatus[] }>(session, "GET", "/v0/wallet/minting-delegations"), [session.token]);
  const { run, error } = useAction(() => (proposals.refresh(), active.refresh()));
  const post = (path: string) => () => run(() => api(session, "POST", path, {}));
  return (
    <>
      <section aria-label="Proposed delegations">
        <h2>Proposed delegations</h2>
        {proposals.data?.proposals.length === 0 && <p>No proposals.</p>}
        <ul>
          {(proposals.data?.proposals ?? []).map((p) => (
            <li key={p.contract.contract_id}>
              <Row d={p} />{" "}
              <button disabled={!p.beneficiary_hosted} onClick={post(`/v0/wallet/minting-delegation-proposals/${cid(p)}/accept`)}>
                Accept
              </button>{" "}
              <button onClick={post(`/v0/wallet/minting-delegation-proposals/${cid(p)}/reject`)}>Reject</button>
            </li>
          ))}
        </ul>
      </section>
      <section aria-label="Active delegations">
        <h2>Active delegations</h2>
        {active.data?.delegations.length === 0 && <p>No active delegations.</p>}
        <ul>
          {(active.data?.delegations ?? []).map((d) => (
            <li key={d.contract.contract_id}>
              <Row d={d} /> <button onClick={post(`/v0/wallet/minting-delegations/${cid(d)}/reject`)}>Withdraw</button>
            </li>
          ))}
        </ul>
      </section>
      <Alert text={error ?? proposals.error ?? active.error} />
    </>
  );
}

function Row({ d }: { d: DelegationWithStatus }) {
  const p = d.contract.payload.delegation ?? d.contract.payload;
  return (
    <>
      beneficiary {p.beneficiary} · max amulets {p.amuletMergeLimit ?? "?"} · expires {p.expiresAt ?? "?"}
      {!d.beneficiary_hosted && " · beneficiary not hosted on this validator"}
    </>
  );
}
