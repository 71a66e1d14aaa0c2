/**
 * `GET /v0/wallet/minting-delegation-proposals` and `GET /v0/wallet/minting-delegations`: the
 * proposals and delegations whose delegate is the party, oldest first, in pages. A page token is
 * the position of the last contract shown (creation offset and node), so pages stay stable while
 * contracts come and go; `beneficiaryHosted` says whether the beneficiary is hosted here.
 */
import type { Active } from "../../ledger/ledger-client.js";
import type { Template } from "../../ledger/template.js";
import { MintingDelegation, MintingDelegationProposal, type MintingDelegationPayload, type MintingDelegationProposalPayload } from "../../templates/splice/wallet/minting-delegation.js";
import type { WalletDeps } from "../wallet-deps.js";
import { walletErrors } from "../wallet-error.js";

export const DEFAULT_PAGE_LIMIT = 1000;

export interface PageRequest {
  /** A `nextPageToken` of an earlier page. */
  readonly after?: bigint;
  readonly limit?: number;
}

export interface DelegationWithStatus<P> {
  readonly contract: Active<P>;
  readonly beneficiaryHosted: boolean;
}

export interface DelegationPage<P> {
  readonly items: DelegationWithStatus<P>[];
  readonly nextPageToken?: bigint;
}

/** Node ids within one transaction stay far below this. */
const NODES_PER_OFFSET = 1_000_000n;
const positionOf = (c: Active<unknown>) => c.record.createdOffset * NODES_PER_OFFSET + BigInt(c.record.nodeId);

export const listMintingDelegationProposals = (deps: WalletDeps, party: string, page: PageRequest = {}): Promise<DelegationPage<MintingDelegationProposalPayload>> =>
  pageOf(deps, page, MintingDelegationProposal, party, (p) => p.delegation);

export const listMintingDelegations = (deps: WalletDeps, party: string, page: PageRequest = {}): Promise<DelegationPage<MintingDelegationPayload>> =>
  pageOf(deps, page, MintingDelegation, party, (d) => d);

async function pageOf<P>(
  deps: WalletDeps,
  page: PageRequest,
  template: Template<P>,
  party: string,
  delegationOf: (p: P) => MintingDelegationPayload,
): Promise<DelegationPage<P>> {
  const limit = page.limit ?? DEFAULT_PAGE_LIMIT;
  if (!Number.isInteger(limit) || limit < 1) throw walletErrors.badRequest(`limit must be a positive integer, got ${limit}`);
  if (page.after !== undefined && page.after < 0n) throw walletErrors.badRequest(`after must not be negative, got ${page.after}`);
  const all = await deps.client.active(template, [party]);
  const mine = all
    .filter((c) => delegationOf(c.payload).delegate === party && delegationOf(c.payload).dso === deps.dso)
    .filter((c) => page.after === undefined || positionOf(c) > page.after)
    .sort((a, b) => (positionOf(a) < positionOf(b) ? -1 : 1));
  const shown = mine.slice(0, Math.min(limit, DEFAULT_PAGE_LIMIT));
  const items = await Promise.all(shown.map(async (contract) => ({ contract, beneficiaryHosted: await isHosted(deps, delegationOf(contract.payload).beneficiary) })));
  const last = shown[shown.length - 1];
  return { items, ...(mine.length > shown.length && last ? { nextPageToken: positionOf(last) } : {}) };
}

async function isHosted(deps: WalletDeps, party: string): Promise<boolean> {
  return (await deps.store.party(party))?.isLocal === true;
}
