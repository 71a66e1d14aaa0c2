/** What the Ledger API services need: one object, built once at start, passed to every service. */
import type { TokenVerifier } from "../../../auth/index.js";
import type { SigningKeyCache } from "../../../external/signing-key-cache.js";
import type { PreparedInterpretations } from "../../../ledger/prepared-interpretations.js";
import type { Ledger } from "../../../ledger/engine.js";
import type { TemplateRegistry } from "../../../ledger/registry.js";
import type { Store } from "../../../ledger/store-port.js";
import type { LedgerIdentity, LedgerProtoEncoder } from "../../convert/ledger-proto.js";
import type { Clock } from "../../../ledger/clock.js";
import type { CompletionHub } from "../../../ledger/completion-hub.js";
import type { UpdateHub } from "../../../ledger/update-hub.js";
import type { ErrorLog } from "./connect-error.js";
import type { StreamAuthorizations } from "./stream-authorizations.js";
import type { StreamLimits } from "./stream-limits.js";
import type { StreamPageBudget } from "../../../ledger/stream-page-budget.js";
import type { TrafficMeter } from "../../../network/traffic/traffic-meter.js";

export interface LedgerApi {
  readonly ledger: Ledger;
  readonly store: Store;
  readonly registry: TemplateRegistry;
  readonly encoder: LedgerProtoEncoder;
  readonly identity: LedgerIdentity;
  readonly verifier: TokenVerifier;
  readonly clock: Clock;
  /** Participant namespace fingerprint, the `::1220…` suffix of allocated parties. */
  readonly namespace: string;
  readonly apiVersion: string;
  /** Wakes completion streams only for what concerns them (idle streams cost nothing per commit). */
  readonly completions: CompletionHub;
  /** Wakes open-ended update streams only for the transactions their parties witness. */
  readonly updates: UpdateHub;
  /** Streams open now, against the configured caps. */
  readonly streams: StreamLimits;
  /** Store pages the open streams hold, across the node (their clients may not read them for a while). */
  readonly streamPages: StreamPageBudget;
  /** Ongoing authorization of the open streams (token expiry, changed rights). */
  readonly streamAuthorizations: StreamAuthorizations;
  /** External parties' public keys, parsed once (execute verifies many signatures per key). */
  readonly signingKeys: SigningKeyCache;
  /** What this node prepared, so an execute of exactly that commits without interpreting again. */
  readonly prepared: PreparedInterpretations;
  /** Largest DAR an upload may carry (bytes), `ledger.maxDarBytes`. */
  readonly maxDarBytes: number;
  /** The participant's traffic account; absent when `network.meterTraffic` is off. */
  readonly traffic?: TrafficMeter;
  /** Where internal errors of the services are reported (the node's pino logger). */
  readonly log: ErrorLog;
}
