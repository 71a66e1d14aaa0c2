/**
 * First-start state every node needs, made idempotently on each start: the participant's
 * namespace (and so its id and party suffix), the participant admin user and the validator operator.
 */
import { hash1220, randomHex, type PartyId } from "./ledger/ids.js";
import { onboardUser, type OnboardingDeps } from "./wallet/index.js";
import type { Store } from "./ledger/store-port.js";

export interface NodeIdentity {
  readonly namespace: string;
  readonly participantId: string;
  readonly synchronizerId: string;
}

export async function bootstrap(store: Store, adminUser: string): Promise<NodeIdentity> {
  const namespace = await store.initSetting("namespace", hash1220("ccwallet-participant", randomHex(16)));
  await store.addUser({
    id: adminUser,
    primaryParty: "",
    isDeactivated: false,
    metadata: { resourceVersion: "0", annotations: {} },
    identityProviderId: "",
    rights: [{ kind: "ParticipantAdmin" }],
  });
  // The admin user must stay an admin even if someone revoked the right in an earlier run.
  await store.grantRights(adminUser, [{ kind: "ParticipantAdmin" }]);
  return {
    namespace,
    participantId: `PAR::ccwallet::${namespace}`,
    synchronizerId: `global-domain::${namespace}`,
  };
}

/**
 * The validator operator: on every start (idempotently) its party exists, belongs to
 * `CCWALLET_VALIDATOR_USER` and has its wallet installed. Runs once the ledger is up, because
 * installing a wallet submits ledger commands.
 */
export async function bootstrapValidatorOperator(wallet: OnboardingDeps): Promise<PartyId> {
  const { party } = await onboardUser(wallet, { name: wallet.validatorUser });
  return party;
}
