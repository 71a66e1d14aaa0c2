/**
 * The WalletInstaller on Canton Coin, as Splice's validator installs a user's wallet: a
 * `WalletAppInstall` signed by the user's party and the operator, and the user's
 * `MergeDelegationProposal` the operator accepts (a `MergeDelegation`, so the operator may merge
 * the user's holdings). Each step first looks for what an earlier, interrupted run left, so
 * installing again is harmless. Uninstalling archives the install; the merge delegation goes
 * with the party's last install.
 */
import type { LedgerClient } from "../../ledger/ledger-client.js";
import type { UserStore } from "../../ledger/store-port.js";
import { MergeDelegation, MergeDelegation_Reject, type MergeDelegationPayload, MergeDelegationProposal, MergeDelegationProposal_Accept } from "../../templates/splice/merge-delegation.js";
import { emptyMetadata } from "../../templates/splice/types.js";
import { WalletAppInstall } from "../../templates/splice/wallet/install.js";
import type { WalletInstaller } from "../wallet-installer.js";
import { walletErrors } from "../wallet-error.js";

export interface CcWalletInstallerOptions {
  readonly client: LedgerClient;
  readonly store: UserStore;
  readonly dso: string;
  /** `CCWALLET_VALIDATOR_USER`: its primary party is the operator (known once it is onboarded itself). */
  readonly validatorUser: string;
}

export function ccWalletInstaller(options: CcWalletInstallerOptions): WalletInstaller {
  const { client, store, dso } = options;
  const operatorParty = async (): Promise<string> => {
    const party = (await store.user(options.validatorUser))?.primaryParty;
    if (!party) throw walletErrors.internal(`the validator user ${options.validatorUser} has no party yet`);
    return party;
  };
  const installsOf = async (party: string, operator: string) =>
    (await client.active(WalletAppInstall, [party])).filter((i) => i.payload.endUserParty === party && i.payload.validatorParty === operator && i.payload.dsoParty === dso);
  const isDelegation = (party: string, operator: string) => (d: MergeDelegationPayload) => d.owner === party && d.operator === operator;

  async function ensureInstall(party: string, user: string, operator: string): Promise<void> {
    if ((await installsOf(party, operator)).some((i) => i.payload.endUserName === user)) return;
    await client.create([party, operator], WalletAppInstall, { dsoParty: dso, validatorParty: operator, endUserName: user, endUserParty: party });
  }

  async function ensureMergeDelegation(party: string, operator: string): Promise<void> {
    const mine = isDelegation(party, operator);
    if ((await client.active(MergeDelegation, [party])).some((d) => mine(d.payload))) return;
    const open = (await client.active(MergeDelegationProposal, [party])).find((p) => mine(p.payload.delegation));
    const proposal = open?.contractId ?? (await client.create([party], MergeDelegationProposal, { delegation: { operator, owner: party, meta: emptyMetadata() } }));
    await client.exercise([operator], MergeDelegationProposal, proposal, MergeDelegationProposal_Accept, {});
  }

  return {
    async installWallet(party, user) {
      const operator = await operatorParty();
      await ensureInstall(party, user, operator);
      await ensureMergeDelegation(party, operator);
    },
    async uninstallWallet(party, user) {
      const operator = await operatorParty();
      const installs = await installsOf(party, operator);
      for (const i of installs.filter((x) => x.payload.endUserName === user)) {
        await client.exercise([party, operator], WalletAppInstall, i.contractId, WalletAppInstall.archive, {});
      }
      if (installs.some((i) => i.payload.endUserName !== user)) return;
      const mine = isDelegation(party, operator);
      for (const d of (await client.active(MergeDelegation, [party])).filter((x) => mine(x.payload))) {
        await client.exercise([operator], MergeDelegation, d.contractId, MergeDelegation_Reject, {});
      }
    },
  };
}
