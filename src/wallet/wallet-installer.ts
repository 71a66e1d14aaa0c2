/**
 * The port through which onboarding installs a user's wallet on the ledger (in Splice: the
 * wallet app install, the `MergeDelegationProposal` the user signs and the provider accepts).
 * The Canton Coin model implements it; until then nothing needs installing.
 */
export interface WalletInstaller {
  /** Makes `party`'s wallet usable by `user`. Called again after a failure: must be idempotent. */
  installWallet(party: string, user: string): Promise<void>;
  /** Undoes the installation when the user is offboarded (the party and its holdings stay). */
  uninstallWallet?(party: string, user: string): Promise<void>;
}

export const noopWalletInstaller: WalletInstaller = {
  installWallet: async () => undefined,
};
