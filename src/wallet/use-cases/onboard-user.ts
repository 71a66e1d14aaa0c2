/**
 * Onboarding (`POST /v0/admin/users`, `/v0/register`, the validator operator at first start):
 * the user gets a party (a fresh one unless `partyId` is given; `createPartyIfMissing` allocates a
 * given one), a ledger user acting and reading as it, and an installed wallet. Idempotent: onboarding
 * an onboarded user returns its party and finishes a wallet installation that failed before.
 */
import { isPartyHint, partyIdFor, randomHex, type PartyId } from "../../ledger/ids.js";
import { canActAs, type PartyRecord, type UserRight } from "../../ledger/records.js";
import type { OnboardingDeps } from "../wallet-deps.js";
import { walletErrors } from "../wallet-error.js";
import { parsePartyId, parseUserId } from "../support/wallet-input.js";

export interface OnboardUserInput {
  readonly name: string;
  readonly partyId?: string;
  readonly createPartyIfMissing?: boolean;
  /**
   * The user onboards itself (`/v0/register`): it grants nothing the user did not have, so an
   * existing party (a wallet left behind, or its primary party) only if it can already act as it.
   */
  readonly selfService?: boolean;
}

export async function onboardUser(ctx: OnboardingDeps, input: OnboardUserInput): Promise<{ party: PartyId }> {
  const name = parseUserId("name", input.name);
  const wanted = input.partyId === undefined ? undefined : parsePartyId("party_id", input.partyId);
  return ctx.local.userLocks.run(name, async () => {
    const known = await ctx.users.get(name);
    if (known && wanted && known.party !== wanted) {
      throw walletErrors.conflict(`user ${name} is already onboarded with party ${known.party}`);
    }
    // The network's DSO party is hosted here only because this node simulates the DSO: no user's
    // wallet, whether named in the request or the user's primary party.
    const dsoRefusal = () => walletErrors.forbidden(`party ${ctx.dso} is the DSO party of the network, not a wallet party`);
    if (wanted === ctx.dso) throw dsoRefusal();
    // Checked under the user's lock, so that no change of its primary party slips in between.
    if (input.selfService) await refuseUnheldParty(ctx, name, known?.party);
    const party = (known?.party as PartyId | undefined) ?? (await partyFor(ctx, name, wanted, input.createPartyIfMissing === true));
    if (party === ctx.dso) throw dsoRefusal();
    // Its wallet would be contracts it signs, and the node holds no key of it (the engine refuses
    // to act for it anyway): an external party's CC is served by /v0/admin/external-party/*.
    if ((await ctx.store.party(party))?.external) {
      throw walletErrors.badRequest(`party ${party} is an external party: it signs its own transactions, so no wallet can be installed for it here (its CC is served by /v0/admin/external-party/*)`);
    }
    await ensureLedgerUser(ctx, name, party);
    if (!known) await ctx.users.put({ userId: name, party, walletInstalled: false });
    if (!known?.walletInstalled) {
      await ctx.installer.installWallet(party, name);
      await ctx.users.put({ userId: name, party, walletInstalled: true });
    }
    return { party };
  });
}

/** Self-service: the party onboarding would reuse must be one the user can already act as. */
async function refuseUnheldParty(ctx: OnboardingDeps, name: string, walletParty: string | undefined): Promise<void> {
  const user = await ctx.store.user(name);
  const party = walletParty ?? user?.primaryParty;
  if (party && !(user && canActAs(user, party))) {
    throw walletErrors.forbidden(`user ${name} cannot act as party ${party}: self-registration grants no rights; the validator operator can onboard it (POST /v0/admin/users)`);
  }
}

async function partyFor(ctx: OnboardingDeps, name: string, wanted: PartyId | undefined, createIfMissing: boolean): Promise<PartyId> {
  if (wanted) {
    if (await ctx.store.party(wanted)) return wanted;
    if (!createIfMissing) throw walletErrors.notFound(`party ${wanted} does not exist (set createPartyIfMissing to allocate it)`);
    const [hint, namespace] = wanted.split("::");
    if (namespace !== ctx.namespace || !isPartyHint(hint)) {
      throw walletErrors.badRequest(`party_id: ${wanted} cannot be allocated here; parties of this validator are <hint>::${ctx.namespace}`);
    }
    await allocate(ctx, wanted);
    return wanted;
  }
  // A ledger user that already has a primary party keeps it (as in Splice).
  const existing = (await ctx.store.user(name))?.primaryParty;
  if (existing && (await ctx.store.party(existing))) return existing as PartyId;
  const hint = partyHintOf(name);
  for (const candidate of [hint, `${hint.slice(0, 176)}-${randomHex(4)}`, `${hint.slice(0, 176)}-${randomHex(4)}`]) {
    const party = partyIdFor(candidate, ctx.namespace);
    if (await allocate(ctx, party)) return party;
  }
  throw walletErrors.internal(`could not allocate a party for user ${name}`);
}

/** User ids allow more characters than party hints: the others become `_`. */
export function partyHintOf(name: string): string {
  return name.replace(/[^A-Za-z0-9\-_ ]/g, "_").slice(0, 185);
}

async function allocate(ctx: OnboardingDeps, party: PartyId): Promise<boolean> {
  const record: PartyRecord = { party, isLocal: true, localMetadata: { resourceVersion: "0", annotations: {} }, identityProviderId: "" };
  return ctx.store.addParty(record);
}

async function ensureLedgerUser(ctx: OnboardingDeps, name: string, party: PartyId): Promise<void> {
  const rights: UserRight[] = [
    { kind: "CanActAs", party },
    { kind: "CanReadAs", party },
  ];
  const added = await ctx.store.addUser({
    id: name,
    primaryParty: party,
    isDeactivated: false,
    metadata: { resourceVersion: "0", annotations: {} },
    identityProviderId: "",
    rights,
  });
  if (!added && !(await ctx.store.grantRights(name, rights))) throw walletErrors.internal(`user ${name} vanished while onboarding`);
}
