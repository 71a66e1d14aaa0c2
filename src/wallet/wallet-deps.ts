/**
 * The wallet layer's one dependency object, built once per node at start (src/server.ts) and
 * passed to every use case, support function and trigger: ledger access as the validator's apps,
 * the store's reads, time, the network's parties, the in-memory indexes, the ports the Canton
 * Coin model implements, and what this node keeps in memory to coordinate its own requests.
 * Nothing of it lives in module state: a second node (or a test) builds its own.
 */
import type { Clock } from "../ledger/clock.js";
import type { LedgerClient } from "../ledger/ledger-client.js";
import type { Store } from "../ledger/store-port.js";
import type { NetworkReader } from "../network/network-cache.js";
import type { FeaturedAppRights } from "./featured-app-rights.js";
import type { HistoryIndex } from "./support/history-index.js";
import type { HoldingsIndex } from "./support/holdings-index.js";
import { InFlight } from "./support/in-flight.js";
import { KeyedMutex } from "./support/keyed-mutex.js";
import type { OfferIndex } from "./support/offer-index.js";
import { SpendQueue } from "./support/spend-queue.js";
import type { TransferCommandIndex } from "./support/transfer-command-index.js";
import type { WalletUsers } from "./support/wallet-users.js";
import type { WalletInstaller } from "./wallet-installer.js";

export interface WalletDeps {
  /** Submits and reads as the validator's apps (the node's own ledger user). */
  readonly client: LedgerClient;
  /** The ledger's store, for reads the client does not type (log, dedup records, users, parties). */
  readonly store: Store;
  readonly clock: Clock;
  /** Participant namespace: the `::1220…` suffix of parties allocated here. */
  readonly namespace: string;
  /** `CCWALLET_VALIDATOR_USER`: the validator operator's ledger user. */
  readonly validatorUser: string;
  readonly dso: string;
  /** The validator operator party: wallet provider, preapproval provider, featured app. */
  readonly validator: string;
  /** The preapprovals the validator pays for: lifetime bought or added, and the renewal window (µs). */
  readonly preapprovals: { readonly lifetimeMicros: bigint; readonly renewWithinMicros: bigint };
  /** The network's rules and rounds, cached between the commits that change them (network-cache.ts). */
  readonly network: NetworkReader;
  readonly installer: WalletInstaller;
  readonly featured: FeaturedAppRights;
  /** Which users are onboarded here (wallet-users.ts). */
  readonly users: WalletUsers;
  /** Parties' Amulet/LockedAmulet holdings, in memory, current with the ledger (holdings-index.ts). */
  readonly holdings: HoldingsIndex;
  /** The offsets of the transactions each party witnesses, for its history pages (history-index.ts). */
  readonly history: HistoryIndex;
  /** Transfer offers by tracking id for both sides, through to their end (offer-index.ts). */
  readonly offers: OfferIndex;
  /** External senders' legacy TransferCommands by (sender, nonce), through to their end (transfer-command-index.ts). */
  readonly transferCommands: TransferCommandIndex;
  readonly local: WalletLocal;
}

/**
 * What one node keeps in memory to coordinate its own requests. Another node on the same store
 * has its own; the ledger's commit-time checks settle races between them.
 */
export interface WalletLocal {
  /** Serialises onboarding and offboarding per user name. */
  readonly userLocks: KeyedMutex;
  /** One party's spends, one after another (spend-queue.ts). */
  readonly spends: SpendQueue;
  /** Requests in progress per idempotency key: a second one gets 429 (in-flight.ts). */
  readonly requests: InFlight;
}

export const newWalletLocal = (): WalletLocal => ({ userLocks: new KeyedMutex(), spends: new SpendQueue(), requests: new InFlight() });

/**
 * What onboarding and the user directory need: available before the validator operator's own
 * party exists (onboarding it is how that party is made at first start).
 */
export type OnboardingDeps = Pick<WalletDeps, "store" | "namespace" | "validatorUser" | "installer" | "featured" | "users" | "local" | "dso">;
