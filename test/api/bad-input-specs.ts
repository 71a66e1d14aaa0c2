/**
 * The per-route half of the bad-input sweep: for each endpoint that takes a body or parameters, a
 * request that would pass validation (`valid`: the generic cases break it one way at a time; never
 * sent as is to a mutating route) and the semantically bad requests that only this endpoint has
 * (`bad`: unknown or foreign ids, another party, out-of-range values). Keyed by method and the
 * annotated path (aliases share their path's spec). A route with a body and no spec fails the sweep.
 */
import { IOU } from "../support/test-server.js";
import type { Json } from "./bad-input-cases.js";
import { EXTERNAL_SPECS, SPLICE_EXTERNAL_SPECS } from "./bad-input-specs-external.js";
import { PACKAGE_AND_CONTRACT_SPECS } from "./bad-input-specs-packages.js";

export interface Actor {
  readonly user: string;
  readonly party: string;
  readonly token: string;
}

/** What the sweep set up: users, parties and contracts to point bad requests at. */
export interface World {
  readonly alice: Actor;
  readonly bob: Actor;
  /** The validator operator's token (`/v0/admin`), and a participant admin's (`/v2`). */
  readonly operator: string;
  readonly admin: string;
  readonly validator: string;
  readonly dso: string;
  readonly synchronizerId: string;
  /** A well-formed party id that no one allocated. */
  readonly ghost: string;
  readonly unknownCid: string;
  /** A transfer offer from bob to the operator: alice is no stakeholder. */
  readonly othersOffer: string;
  /** Alice's own Amulet: visible to her, but of the wrong template for most choices. */
  readonly ownAmulet: string;
  readonly othersAmulet: string;
  readonly unknownUpdateId: string;
  /** Ledger end when the world was set up. */
  readonly end: number;
  fresh(prefix: string): string;
  /** Ledger time in microseconds from now. */
  micros(fromNowMs: number): number;
}

/** One semantically bad request: a body, path variables, query or token different from the valid one. */
export interface BadRequest {
  readonly name: string;
  /** The whole body, or fields merged over the valid body. */
  readonly body?: Json;
  readonly merge?: Record<string, Json>;
  /** The body as text (for JSON no encoder here can write, e.g. nested deeper than its stack). */
  readonly raw?: string;
  readonly vars?: Record<string, string>;
  readonly query?: string;
  readonly token?: string;
  /** Statuses allowed; default: any 4xx the family documents except 401/413. */
  readonly allowed?: readonly number[];
}

export interface RouteSpec {
  /** Whose token passes this route's auth (default: by service, see `defaultActor`). */
  readonly as?: (w: World) => string;
  /** A body (or query string) that passes validation. */
  readonly valid?: (w: World) => Record<string, Json>;
  readonly query?: (w: World) => string;
  readonly bad?: (w: World) => BadRequest[];
  /** A POST that changes nothing even when it succeeds. */
  readonly read?: boolean;
  /** `{}` is a valid request here (it is not sent). */
  readonly emptyIsValid?: boolean;
  /** Any authenticated user may call it (no 403 for a user without rights). */
  readonly anyUser?: boolean;
  /** No token needed. */
  readonly public?: boolean;
  /** Self-service onboarding: a user without rights may call it, and doing so changes state. */
  readonly selfService?: boolean;
  /**
   * A route whose body is raw bytes (a DAR upload): these bodies replace the JSON body cases, and
   * `valid` only names the route as specified (it is never sent).
   */
  readonly binary?: (w: World) => { readonly name: string; readonly body: Uint8Array; readonly contentType?: string; readonly allowed?: readonly number[] }[];
  /** Deprecated Canton endpoints answered with UNSUPPORTED_OPERATION (501) whatever the input. */
  readonly unsupported?: boolean;
}

/** Statuses a bad request may get when the spec does not say: refused, forbidden, not found, conflict. */
export const BAD = [400, 403, 404, 409];

const amountBad = (): BadRequest[] =>
  ["-1", "0", "abc", "1.12345678901", "", "1e3", "NaN", "100000000000000000000000000000000000000", " 1", "+1", "5.", ".5", "1 "].map((amount) => ({ name: `amount ${JSON.stringify(amount)}`, merge: { amount } }));
const partyBad = (key: string, w: World): BadRequest[] =>
  [w.ghost, "", "not-a-party", "x::y::z"].map((p) => ({ name: `${key} ${JSON.stringify(p.slice(0, 20))}`, merge: { [key]: p } }));

const offerLike = (w: World) => ({ receiver_party_id: w.bob.party, amount: "1.0", description: "sweep", expires_at: w.micros(3_600_000), tracking_id: w.fresh("t") });
const offerLikeBad = (w: World): BadRequest[] => [
  ...partyBad("receiver_party_id", w),
  ...amountBad(),
  { name: "expires_at 0", merge: { expires_at: 0 } },
  { name: "expires_at in the past", merge: { expires_at: w.micros(-3_600_000) } },
  { name: "expires_at beyond int64", merge: { expires_at: 1e20 } },
  { name: "empty tracking_id", merge: { tracking_id: "" } },
  { name: "description over 280 characters", merge: { description: "d".repeat(300) } },
];

export const filterOf = (party: string) => ({ filtersByParty: { [party]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] } } });
const updateFormatOf = (party: string) => ({ includeTransactions: { eventFormat: filterOf(party), transactionShape: "TRANSACTION_SHAPE_ACS_DELTA" } });
const iou = (issuer: string, owner = issuer) => ({ CreateCommand: { templateId: IOU, createArguments: { issuer, owner, currency: "CC", amount: "1", observers: [] } } });
const exercise = (templateId: string, contractId: string, choice: string, choiceArgument: Json) => ({ ExerciseCommand: { templateId, contractId, choice, choiceArgument } });

/** Commands alice may submit (an Iou she issues to herself). */
const commandsOf = (w: World) => ({ commands: [iou(w.alice.party)], commandId: w.fresh("c"), actAs: [w.alice.party] });
/**
 * Bad variants of `commandsOf` (merged over the valid commands), with the statuses allowed; those
 * marked `true` fail only in interpretation, which the async submit reports on the completion stream.
 */
const commandsBad = (w: World): [string, Record<string, Json>, readonly number[], boolean?][] => [
  ["actAs another party", { actAs: [w.bob.party], commands: [iou(w.bob.party)] }, [403]],
  ["actAs an unknown party", { actAs: [w.ghost], commands: [iou(w.ghost)] }, BAD],
  ["readAs another party", { readAs: [w.bob.party] }, [403]],
  ["userId of another user", { userId: w.bob.user }, [403]],
  ["no actAs", { actAs: [] }, [400]],
  ["empty command id", { commandId: "" }, [400]],
  ["a command id with characters outside LedgerString", { commandId: "not!a@command" }, [400]],
  ["no commands", { commands: [] }, [400]],
  ["an unknown template", { commands: [{ CreateCommand: { templateId: "#nope:A.B:C", createArguments: {} } }] }, [400, 404]],
  ["a signatory who did not authorize", { commands: [iou(w.bob.party, w.alice.party)] }, [400, 403], true],
  ["Daml arguments of the wrong type", { commands: [{ CreateCommand: { templateId: IOU, createArguments: { ...iou(w.alice.party).CreateCommand.createArguments, amount: {} } } }] }, [400]],
  ["an unknown contract", { commands: [exercise(IOU, w.unknownCid, "Iou_Transfer", { newOwner: w.bob.party })] }, [404], true],
  ["another party's contract", { commands: [exercise("#splice-amulet:Splice.Amulet:Amulet", w.othersAmulet, "Amulet_Expire", {})] }, [400, 404], true],
  ["an Amulet exercised as an Iou", { commands: [exercise(IOU, w.ownAmulet, "Iou_Transfer", { newOwner: w.bob.party })] }, [400, 404], true],
  ["an unknown choice", { commands: [exercise(IOU, w.ownAmulet, "No_Such_Choice", {})] }, [400, 404], true],
  ["an unknown synchronizer", { synchronizerId: "nowhere::1220" + "ab".repeat(32) }, [400, 404]],
  ["a garbage disclosed contract", { disclosedContracts: [{ templateId: IOU, contractId: w.unknownCid, createdEventBlob: "not base64!", synchronizerId: "" }] }, [400]],
];
/**
 * A command route. `async`: the submission returns before interpretation — by this ledger's design
 * (Canton answers interpretation errors synchronously), so those may be 200; the sweep still checks
 * that nothing was committed.
 */
const commandRoute = (wrap: (c: Record<string, Json>) => Record<string, Json>, async = false): RouteSpec => ({
  as: (w) => w.alice.token,
  valid: (w) => wrap(commandsOf(w)),
  bad: (w) =>
    commandsBad(w).map(([name, over, allowed, interpretation]) => ({ name, body: wrap({ ...commandsOf(w), ...over }), allowed: async && interpretation ? [200, ...allowed] : allowed })),
});

const contractIdBad = (w: World): BadRequest[] =>
  [w.othersOffer, w.ownAmulet, w.othersAmulet, "", "not-a-contract-id"].map((c) => ({ name: `contract_id ${c.slice(0, 12) || '""'}`, merge: { contract_id: c } }));

const streamRead = (valid: (w: World) => Record<string, Json>, bad: (w: World) => BadRequest[]): RouteSpec => ({ as: (w) => w.alice.token, read: true, valid, bad });

/** `/v2/updates` and its deprecated alias `/v2/updates/flats`. */
const UPDATES: RouteSpec = streamRead(
  (w) => ({ beginExclusive: 0, updateFormat: updateFormatOf(w.alice.party) }),
  (w) => [
    { name: "another party", body: { beginExclusive: 0, updateFormat: updateFormatOf(w.bob.party) }, allowed: [403] },
    { name: "beginExclusive -1", body: { beginExclusive: -1, updateFormat: updateFormatOf(w.alice.party) }, allowed: [400] },
    { name: "beginExclusive after the end", body: { beginExclusive: 1e12, updateFormat: updateFormatOf(w.alice.party) }, allowed: [400] },
    { name: "endInclusive before beginExclusive", body: { beginExclusive: 5, endInclusive: 2, updateFormat: updateFormatOf(w.alice.party) }, allowed: [400] },
    { name: "an empty updateFormat", body: { beginExclusive: 0, updateFormat: {} }, allowed: [400] },
    { name: "an unknown transaction shape", body: { beginExclusive: 0, updateFormat: { includeTransactions: { eventFormat: filterOf(w.alice.party), transactionShape: "BOGUS" } } }, allowed: [400] },
  ],
);

export const SPECS: Record<string, RouteSpec> = {
  // ---- Splice /v0 wallet (alice) -------------------------------------------------------------
  "POST /v0/wallet/transfer-offers": { valid: offerLike, bad: (w) => [...offerLikeBad(w), { name: "an offer to oneself", merge: { receiver_party_id: w.alice.party } }] },
  // Token-standard transfers carry the description in metadata: no 280-character limit there.
  "POST /v0/wallet/token-standard/transfers": { valid: offerLike, bad: (w) => offerLikeBad(w).filter((b) => !b.name.startsWith("description")) },
  "POST /v0/wallet/buy-traffic-requests": {
    valid: (w) => ({ receiving_validator_party_id: w.validator, domain_id: w.synchronizerId, traffic_amount: 1_000_000, tracking_id: w.fresh("b"), expires_at: w.micros(3_600_000) }),
    bad: (w) => [
      ...partyBad("receiving_validator_party_id", w),
      { name: "unknown domain_id", merge: { domain_id: "nowhere::1220" + "ab".repeat(32) } },
      { name: "empty domain_id", merge: { domain_id: "" } },
      { name: "traffic_amount -1", merge: { traffic_amount: -1 } },
      { name: "traffic_amount 0", merge: { traffic_amount: 0 } },
      { name: "expires_at in the past", merge: { expires_at: w.micros(-3_600_000) } },
      { name: "empty tracking_id", merge: { tracking_id: "" } },
    ],
  },
  "POST /v0/wallet/transactions": {
    read: true,
    valid: () => ({ page_size: 10 }),
    bad: () => [
      { name: "page_size -1", merge: { page_size: -1 } },
      { name: "begin_after_id not an event id", merge: { begin_after_id: "not-an-event-id" } },
    ],
  },
  "POST /v0/wallet/transfer-offers/accept": { valid: (w) => ({ contract_id: w.unknownCid }), bad: contractIdBad },
  "POST /v0/wallet/transfer-offers/reject": { valid: (w) => ({ contract_id: w.unknownCid }), bad: contractIdBad },
  "POST /v0/wallet/transfer-offers/withdraw": { valid: (w) => ({ contract_id: w.unknownCid }), bad: contractIdBad },
  "POST /v0/wallet/tap": {
    valid: () => ({ amount: "10" }),
    // Past the per-tap cap (README): a huge tap sent to a victim would overflow its holdings' sum.
    bad: () => [...amountBad(), ...["1000000.0000000001", "9999999999999999999999999999"].map((amount) => ({ name: `amount over the tap cap ${amount}`, merge: { amount } }))],
  },
  "POST /v0/wallet/transfer-preapproval/send": {
    valid: (w) => ({ receiver_party_id: w.bob.party, amount: "1.0", deduplication_id: w.fresh("d") }),
    bad: (w) => [...partyBad("receiver_party_id", w), ...amountBad(), { name: "empty deduplication_id", merge: { deduplication_id: "" } }],
  },
  "GET /v0/wallet/minting-delegation-proposals": { query: () => "limit=10", bad: () => [{ name: "limit -1", query: "limit=-1" }, { name: "after -1", query: "after=-1" }] },
  "GET /v0/wallet/minting-delegations": { query: () => "limit=10", bad: () => [{ name: "limit -1", query: "limit=-1" }, { name: "after -1", query: "after=-1" }] },

  // ---- Splice /v0 validator ------------------------------------------------------------------
  "POST /v0/register": { valid: () => ({}), emptyIsValid: true, selfService: true },
  "GET /v0/validator-user": { public: true },
  "GET /v0/feature-support": { anyUser: true },
  // Tells any authenticated user whether they are onboarded.
  "GET /v0/wallet/user-status": { anyUser: true },
  "POST /v0/admin/users": {
    valid: (w) => ({ name: w.fresh("u") }),
    bad: (w) => [
      ...["", "not a user id!", "u".repeat(300)].map((name) => ({ name: `name ${JSON.stringify(name.slice(0, 20))}`, merge: { name } })),
      ...[w.ghost, "not-a-party", ""].map((p) => ({ name: `party_id ${JSON.stringify(p.slice(0, 12))}`, merge: { party_id: p } })),
      { name: "an existing user with another party", body: { name: w.alice.user, party_id: w.bob.party }, allowed: [400, 409] },
    ],
  },
  "POST /v0/admin/users/offboard": { query: () => "username=no-such-user", bad: () => [{ name: "empty username", query: "username=" }, { name: "no username", query: "" }] },
  "GET /v0/admin/external-party/balance": {
    query: (w) => `party_id=${encodeURIComponent(w.ghost)}`,
    bad: () => [{ name: "empty party_id", query: "party_id=" }, { name: "party_id not a party", query: "party_id=nope" }, { name: "no party_id", query: "" }],
  },

  // ---- Splice scan proxy (any valid token) and registry (public) -----------------------------
  "GET /v0/scan-proxy/dso-party-id": { anyUser: true },
  "GET /v0/scan-proxy/amulet-rules": { anyUser: true },
  "GET /v0/scan-proxy/open-and-issuing-mining-rounds": { anyUser: true },
  "GET /v0/scan-proxy/transfer-preapprovals/by-party/{party}": { anyUser: true },
  "GET /v0/scan-proxy/transfer-command-counter/{party}": { anyUser: true },
  "GET /v0/scan-proxy/featured-apps/{provider_party_id}": { anyUser: true },
  "GET /api/scan/v0/domains/{domain_id}/members/{member_id}/traffic-status": { public: true },
  "GET /registry/metadata/v1/info": { public: true },
  "GET /registry/metadata/v1/instruments": { public: true, query: () => "pageSize=10", bad: () => [{ name: "pageSize -1", query: "pageSize=-1" }] },
  "GET /registry/metadata/v1/instruments/{instrument_id}": { public: true },
  "POST /registry/transfer-instruction/v1/transfer-factory": {
    public: true,
    read: true,
    valid: (w) => ({ choiceArguments: transferFactoryArgs(w), excludeDebugFields: true }),
    bad: (w) => [
      { name: "empty choiceArguments", body: { choiceArguments: {} } },
      { name: "choiceArguments that are not a TransferFactory_Transfer", body: { choiceArguments: { transfer: "nope" } } },
      { name: "choiceArguments nested 20,000 deep", raw: `{"choiceArguments": {"deep": ${nested(20_000)}}}` },
    ],
  },
  "POST /registry/transfer-instruction/v1/{transfer_instruction_id}/choice-contexts/accept": choiceContext(),
  "POST /registry/transfer-instruction/v1/{transfer_instruction_id}/choice-contexts/reject": choiceContext(),
  "POST /registry/transfer-instruction/v1/{transfer_instruction_id}/choice-contexts/withdraw": choiceContext(),
  "POST /registry/allocation-instruction/v1/allocation-factory": {
    public: true,
    read: true,
    valid: (w) => ({ choiceArguments: allocationFactoryArgs(w), excludeDebugFields: true }),
    bad: () => [
      { name: "empty choiceArguments", body: { choiceArguments: {} } },
      { name: "choiceArguments that are not an AllocationFactory_Allocate", body: { choiceArguments: { allocation: "nope" } } },
      { name: "choiceArguments nested 20,000 deep", raw: `{"choiceArguments": {"deep": ${nested(20_000)}}}` },
    ],
  },
  "POST /registry/allocations/v1/{allocation_id}/choice-contexts/execute-transfer": choiceContext(),
  "POST /registry/allocations/v1/{allocation_id}/choice-contexts/withdraw": choiceContext(),
  "POST /registry/allocations/v1/{allocation_id}/choice-contexts/cancel": choiceContext(),

  // ---- Canton /v2 --------------------------------------------------------------------------
  "POST /v2/commands/submit-and-wait": commandRoute((c) => c),
  "POST /v2/commands/async/submit": commandRoute((c) => c, true),
  "POST /v2/commands/submit-and-wait-for-transaction": commandRoute((c) => ({ commands: c })),
  "POST /v2/commands/submit-and-wait-for-transaction-tree": { ...commandRoute((c) => c), unsupported: true },
  "POST /v2/commands/completions": streamRead(
    (w) => ({ parties: [w.alice.party], beginExclusive: 0 }),
    (w) => [
      { name: "another party", body: { parties: [w.bob.party], beginExclusive: 0 }, allowed: [403] },
      { name: "an unknown party", body: { parties: [w.ghost], beginExclusive: 0 }, allowed: [403, 404] },
      { name: "no parties", body: { parties: [], beginExclusive: 0 }, allowed: [400] },
      { name: "another user's completions", body: { userId: w.bob.user, parties: [w.alice.party], beginExclusive: 0 }, allowed: [403] },
      { name: "beginExclusive -1", body: { parties: [w.alice.party], beginExclusive: -1 }, allowed: [400] },
      { name: "beginExclusive after the end", body: { parties: [w.alice.party], beginExclusive: 1e12 }, allowed: [400] },
    ],
  ),
  "POST /v2/updates": UPDATES,
  // Canton's deprecated name of the same stream.
  "POST /v2/updates/flats": UPDATES,
  "POST /v2/events/events-by-contract-id": {
    read: true,
    as: (w) => w.alice.token,
    valid: (w) => ({ contractId: w.unknownCid, eventFormat: filterOf(w.alice.party) }),
    bad: (w) => [
      { name: "another party", body: { contractId: w.unknownCid, eventFormat: filterOf(w.bob.party) }, allowed: [403] },
      { name: "an unknown contract", body: { contractId: w.unknownCid, eventFormat: filterOf(w.alice.party) }, allowed: [404] },
      { name: "a contract the party does not see", body: { contractId: w.othersAmulet, eventFormat: filterOf(w.alice.party) }, allowed: [404] },
      { name: "not a contract id", body: { contractId: "nope", eventFormat: filterOf(w.alice.party) }, allowed: [400] },
      { name: "eventFormat and requestingParties", body: { contractId: w.ownAmulet, eventFormat: filterOf(w.alice.party), requestingParties: [w.alice.party] }, allowed: [400] },
      { name: "no eventFormat", body: { contractId: w.ownAmulet }, allowed: [400] },
    ],
  },
  "POST /v2/updates/trees": { ...streamRead((w) => ({ beginExclusive: 0, updateFormat: updateFormatOf(w.alice.party) }), () => []), unsupported: true },
  "POST /v2/updates/update-by-offset": streamRead(
    (w) => ({ offset: 1, updateFormat: updateFormatOf(w.alice.party) }),
    (w) => [
      { name: "another party", body: { offset: 1, updateFormat: updateFormatOf(w.bob.party) }, allowed: [403] },
      ...[0, -1].map((offset) => ({ name: `offset ${offset}`, body: { offset, updateFormat: updateFormatOf(w.alice.party) }, allowed: [400] })),
      { name: "an offset after the end", body: { offset: 1e12, updateFormat: updateFormatOf(w.alice.party) }, allowed: [404] },
      { name: "no updateFormat", body: { offset: 1 }, allowed: [400] },
    ],
  ),
  "POST /v2/updates/update-by-id": streamRead(
    (w) => ({ updateId: w.unknownUpdateId, updateFormat: updateFormatOf(w.alice.party) }),
    (w) => [
      { name: "another party", body: { updateId: w.unknownUpdateId, updateFormat: updateFormatOf(w.bob.party) }, allowed: [403] },
      { name: "empty updateId", body: { updateId: "", updateFormat: updateFormatOf(w.alice.party) }, allowed: [400] },
      { name: "no updateFormat", body: { updateId: w.unknownUpdateId }, allowed: [400] },
    ],
  ),
  "POST /v2/updates/transaction-by-offset": streamRead(
    (w) => ({ offset: 1, requestingParties: [w.alice.party] }),
    (w) => [
      { name: "another party", body: { offset: 1, requestingParties: [w.bob.party] }, allowed: [403] },
      ...[0, -1].map((offset) => ({ name: `offset ${offset}`, body: { offset, requestingParties: [w.alice.party] }, allowed: [400] })),
      { name: "an offset after the end", body: { offset: 1e12, requestingParties: [w.alice.party] }, allowed: [404] },
    ],
  ),
  "POST /v2/updates/transaction-by-id": streamRead(
    (w) => ({ updateId: w.unknownUpdateId, requestingParties: [w.alice.party] }),
    (w) => [
      { name: "another party", body: { updateId: w.unknownUpdateId, requestingParties: [w.bob.party] }, allowed: [403] },
      { name: "empty updateId", body: { updateId: "", requestingParties: [w.alice.party] }, allowed: [400] },
      { name: "another party's transactionFormat", body: { updateId: w.unknownUpdateId, transactionFormat: updateFormatOf(w.bob.party).includeTransactions }, allowed: [403] },
      {
        name: "transactionFormat and requestingParties",
        body: { updateId: w.unknownUpdateId, requestingParties: [w.alice.party], transactionFormat: updateFormatOf(w.alice.party).includeTransactions },
        allowed: [400],
      },
    ],
  ),
  "POST /v2/state/active-contracts": streamRead(
    (w) => ({ eventFormat: filterOf(w.alice.party), activeAtOffset: w.end }),
    (w) => [
      { name: "another party", body: { eventFormat: filterOf(w.bob.party), activeAtOffset: w.end }, allowed: [403] },
      { name: "activeAtOffset -1", body: { eventFormat: filterOf(w.alice.party), activeAtOffset: -1 }, allowed: [400] },
      { name: "activeAtOffset after the end", body: { eventFormat: filterOf(w.alice.party), activeAtOffset: 1e12 }, allowed: [400] },
      { name: "no filter", body: { activeAtOffset: w.end }, allowed: [400] },
      {
        name: "an unknown template filter",
        body: { eventFormat: { filtersByParty: { [w.alice.party]: { cumulative: [{ identifierFilter: { TemplateFilter: { value: { templateId: "#nope:A.B:C", includeCreatedEventBlob: false } } } }] } } }, activeAtOffset: w.end },
        allowed: [400, 404],
      },
    ],
  ),
  "GET /v2/state/ledger-end": { anyUser: true },
  // Without a party the participant's own connection is no secret (the SDK asks it with any user's token).
  "GET /v2/state/connected-synchronizers": {
    anyUser: true,
    query: () => "",
    bad: (w) => [
      { name: "a malformed party", query: "party=not%20a%20party" },
      { name: "another user's party", query: `party=${encodeURIComponent(w.bob.party)}`, token: w.alice.token, allowed: [403] },
    ],
  },
  "GET /v2/state/latest-pruned-offsets": { anyUser: true },
  // Canton's PackageService needs only an authenticated user.
  "GET /v2/packages": { anyUser: true },
  "GET /v2/packages/{package_id}/status": { anyUser: true },
  "GET /v2/version": { public: true },
  "GET /v2/authenticated-user": { anyUser: true },
  // Lenient on purpose (Canton wants admin claims): the participant id is no secret, and a
  // non-admin's GetParties answers only the parties the user has rights for.
  "GET /v2/parties/participant-id": { anyUser: true },
  "GET /v2/parties/{parties}": { anyUser: true },
  "POST /v2/parties": {
    valid: (w) => ({ partyIdHint: w.fresh("p") }),
    emptyIsValid: true,
    bad: (w) => [
      { name: "a hint with characters outside PartyIdString", body: { partyIdHint: "not!a@hint" } },
      { name: "a hint of 300 characters", body: { partyIdHint: "h".repeat(300) } },
      { name: "an unknown synchronizer", body: { partyIdHint: w.fresh("p"), synchronizerId: "nowhere::1220" + "ab".repeat(32) } },
      { name: "an unknown user", body: { partyIdHint: w.fresh("p"), userId: "no-such-user" } },
    ],
  },
  "GET /v2/parties": { query: () => "pageSize=10", bad: () => [{ name: "pageSize -1", query: "pageSize=-1" }] },
  "PATCH /v2/parties/{party_details.party}": {
    valid: () => ({ partyDetails: { localMetadata: { annotations: { k: "v" } } }, updateMask: { paths: ["local_metadata.annotations"] } }),
    bad: (w) => [
      { name: "no update mask", vars: { "party_details.party": w.bob.party }, body: { partyDetails: { localMetadata: { annotations: { k: "v" } } } } },
      { name: "an unknown update path", vars: { "party_details.party": w.bob.party }, body: { partyDetails: {}, updateMask: { paths: ["display_name"] } } },
      { name: "is_local changed", vars: { "party_details.party": w.bob.party }, body: { partyDetails: { isLocal: false }, updateMask: { paths: ["is_local"] } } },
      { name: "another party in the body", vars: { "party_details.party": w.bob.party }, body: { partyDetails: { party: w.alice.party }, updateMask: { paths: ["local_metadata"] } } },
      { name: "a stale resource version", vars: { "party_details.party": w.bob.party }, body: { partyDetails: { localMetadata: { resourceVersion: "999", annotations: { k: "v" } } }, updateMask: { paths: ["local_metadata"] } }, allowed: [409] },
      { name: "a party, as a non-admin", vars: { "party_details.party": w.alice.party }, token: w.alice.token, allowed: [403] },
    ],
  },
  "GET /v2/users": {
    query: () => "pageSize=10",
    bad: () => [
      { name: "pageSize -1", query: "pageSize=-1" },
      ...["%25%25garbage", "not-a-token", "YQ=="].map((t) => ({ name: `pageToken ${t}`, query: `pageSize=10&pageToken=${t}` })),
    ],
  },
  "POST /v2/users": {
    valid: (w) => ({ user: { id: w.fresh("u"), primaryParty: "" }, rights: [] }),
    bad: (w) => [
      { name: "no user", body: { rights: [] } },
      { name: "an empty user id", body: { user: { id: "" }, rights: [] } },
      { name: "a user id with spaces", body: { user: { id: "not a user" }, rights: [] } },
      { name: "an existing user", body: { user: { id: w.alice.user }, rights: [] }, allowed: [409] },
      { name: "a primary party that is not a party id", body: { user: { id: w.fresh("u"), primaryParty: "not a party" }, rights: [] } },
      { name: "a right for an unknown party", body: { user: { id: w.fresh("u") }, rights: [{ kind: { CanActAs: { value: { party: w.ghost } } } }] } },
      { name: "an empty right", body: { user: { id: w.fresh("u") }, rights: [{ kind: {} }] } },
    ],
  },
  "GET /v2/users/{user_id}": { bad: (w) => [{ name: "another user's record", vars: { user_id: w.bob.user }, token: w.alice.token, allowed: [403] }] },
  "GET /v2/users/{user_id}/rights": { bad: (w) => [{ name: "another user's rights", vars: { user_id: w.bob.user }, token: w.alice.token, allowed: [403] }] },
  "DELETE /v2/users/{user_id}": { bad: (w) => [{ name: "another user, as a non-admin", vars: { user_id: w.bob.user }, token: w.alice.token, allowed: [403] }] },
  "PATCH /v2/users/{user.id}": {
    valid: () => ({ user: { isDeactivated: false }, updateMask: { paths: ["is_deactivated"] } }),
    bad: (w) => [
      { name: "no update mask", vars: { "user.id": w.bob.user }, body: { user: { isDeactivated: true } } },
      { name: "an empty update mask", vars: { "user.id": w.bob.user }, body: { user: { isDeactivated: true }, updateMask: { paths: [] } } },
      { name: "an unknown update path", vars: { "user.id": w.bob.user }, body: { user: { isDeactivated: true }, updateMask: { paths: ["rights"] } } },
      { name: "a mask that is a string", vars: { "user.id": w.bob.user }, body: { user: { isDeactivated: true }, updateMask: "is_deactivated" } },
      { name: "another user's id in the body", vars: { "user.id": w.bob.user }, body: { user: { id: w.alice.user, isDeactivated: true }, updateMask: { paths: ["is_deactivated"] } } },
      { name: "a stale resource version", vars: { "user.id": w.bob.user }, body: { user: { isDeactivated: true, metadata: { resourceVersion: "999" } }, updateMask: { paths: ["is_deactivated"] } }, allowed: [409] },
      { name: "a user, as a non-admin", vars: { "user.id": w.bob.user }, body: { user: { isDeactivated: true }, updateMask: { paths: ["is_deactivated"] } }, token: w.alice.token, allowed: [403] },
    ],
  },
  "POST /v2/users/{user_id}/rights": userRights(false),
  "PATCH /v2/users/{user_id}/rights": userRights(true),
  "GET /v2/updates/transaction-tree-by-offset/{offset}": { unsupported: true },
  "GET /v2/updates/transaction-tree-by-id/{update_id}": { unsupported: true },
  ...EXTERNAL_SPECS,
  ...SPLICE_EXTERNAL_SPECS,
  ...PACKAGE_AND_CONTRACT_SPECS,
};

function userRights(revoke: boolean): RouteSpec {
  const right = (party: string) => ({ kind: { CanActAs: { value: { party } } } });
  return {
    valid: (w) => ({ rights: [right(w.alice.party)] }),
    bad: (w) => [
      // Revoking a right nobody has is a no-op (200, nothing revoked); granting one is refused.
      { name: "a right for an unknown party", vars: { user_id: w.bob.user }, body: { rights: [right(w.ghost)] }, allowed: revoke ? [200, ...BAD] : BAD },
      { name: "an empty right", vars: { user_id: w.bob.user }, body: { rights: [{ kind: {} }] } },
      { name: "an unknown right kind", vars: { user_id: w.bob.user }, body: { rights: [{ kind: { CanDoAnything: { value: {} } } }] } },
      { name: "own rights, as a non-admin", vars: { user_id: w.alice.user }, body: { rights: [right(w.bob.party)] }, token: w.alice.token, allowed: [403] },
    ],
  };
}

function choiceContext(): RouteSpec {
  return {
    public: true,
    read: true,
    valid: () => ({ meta: {}, excludeDebugFields: true }),
    bad: () => [{ name: "meta values that are not strings", body: { meta: { k: 1 } } }],
  };
}

function transferFactoryArgs(w: World) {
  const iso = (ms: number) => new Date(Date.now() + ms).toISOString();
  return {
    expectedAdmin: w.dso,
    transfer: {
      sender: w.alice.party,
      receiver: w.bob.party,
      amount: "1.0",
      instrumentId: { admin: w.dso, id: "Amulet" },
      requestedAt: iso(-1000),
      executeBefore: iso(3_600_000),
      inputHoldingCids: [w.ownAmulet],
      meta: { values: {} },
    },
    extraArgs: { context: { values: {} }, meta: { values: {} } },
  };
}

function allocationFactoryArgs(w: World) {
  const iso = (ms: number) => new Date(Date.now() + ms).toISOString();
  const meta = { values: {} };
  return {
    expectedAdmin: w.dso,
    allocation: {
      settlement: { executor: w.validator, settlementRef: { id: "trade", cid: null }, requestedAt: iso(-1000), allocateBefore: iso(1_800_000), settleBefore: iso(3_600_000), meta },
      transferLegId: "leg-0",
      transferLeg: { sender: w.alice.party, receiver: w.bob.party, amount: "1.0", instrumentId: { admin: w.dso, id: "Amulet" }, meta },
    },
    requestedAt: iso(-1000),
    inputHoldingCids: [w.ownAmulet],
    extraArgs: { context: { values: {} }, meta: { values: {} } },
  };
}

function nested(depth: number): string {
  return "[".repeat(depth) + "]".repeat(depth);
}
