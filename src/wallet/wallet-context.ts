/**
 * What the wallet and validator use cases need, built once at start and passed to each of them.
 * Collaborators arrive as ports (installer, featured app rights), so tests pass plain fakes.
 */
import type { Store } from "../ledger/store-port.js";
import { noFeaturedAppRights, type FeaturedAppRights } from "./featured-app-rights.js";
import { KeyedMutex } from "./support/keyed-mutex.js";
import { noopWalletInstaller, type WalletInstaller } from "./wallet-installer.js";
import { WalletUsers } from "./support/wallet-users.js";

export interface WalletContext {
  readonly store: Store;
  /** Participant namespace: the `::1220…` suffix of parties allocated here. */
  readonly namespace: string;
  /** `CCWALLET_VALIDATOR_USER`: the validator operator's ledger user. */
  readonly validatorUser: string;
  readonly installer: WalletInstaller;
  readonly featured: FeaturedAppRights;
  readonly users: WalletUsers;
  /** Serialises onboarding and offboarding per user name. */
  readonly userLocks: KeyedMutex;
}

export interface WalletContextOptions {
  readonly store: Store;
  readonly namespace: string;
  readonly validatorUser: string;
  readonly installer?: WalletInstaller;
  readonly featured?: FeaturedAppRights;
}

export function createWalletContext(options: WalletContextOptions): WalletContext {
  return {
    store: options.store,
    namespace: options.namespace,
    validatorUser: options.validatorUser,
    installer: options.installer ?? noopWalletInstaller,
    featured: options.featured ?? noFeaturedAppRights,
    users: new WalletUsers(options.store),
    userLocks: new KeyedMutex(),
  };
}
