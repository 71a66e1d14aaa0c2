/**
 * The bad-input sweep's specs for DAR uploads (raw bodies that are no DAR), GetPackage,
 * contract-by-id and the paginated ACS (issue #12).
 */
import { testDar, testPackage, testZip } from "../support/dar-builder.js";
import { filterOf, type RouteSpec } from "./bad-input-specs.js";

/** DAR uploads (`POST /v2/packages`, `/v2/dars`): bodies that are no DAR, each refused with nothing stored. */
const DAR_UPLOAD: RouteSpec = {
  valid: () => ({}),
  binary: () => {
    const archive = badArchive();
    return [
      { name: "an empty body", body: new Uint8Array(0), allowed: [400] },
      { name: "not a zip", body: new TextEncoder().encode("this is no zip file at all"), allowed: [400] },
      { name: "a zip without manifest", body: testZip({ "a.dalf": archive }), allowed: [400] },
      { name: "a zip without archives", body: testZip({ "META-INF/MANIFEST.MF": new TextEncoder().encode("Manifest-Version: 1.0\r\n") }), allowed: [400] },
      { name: "an archive whose hash is not its payload's", body: testDar([testPackage({ hash: "ab".repeat(32) })]), allowed: [400] },
      { name: "a DAR sent as text/plain", body: testDar([testPackage()]), contentType: "text/plain", allowed: [415] },
    ];
  },
};

const ACS_PAGE: RouteSpec = {
  read: true,
  as: (w) => w.alice.token,
  valid: (w) => ({ eventFormat: filterOf(w.alice.party), maxPageSize: 10 }),
  bad: (w) => [
    { name: "another party", merge: { eventFormat: filterOf(w.bob.party) }, allowed: [403] },
    { name: "any party for a party user", merge: { eventFormat: { filtersForAnyParty: { cumulative: [] } } }, allowed: [403] },
    { name: "no eventFormat", body: { maxPageSize: 10 }, allowed: [400] },
    { name: "an offset after the ledger end", merge: { activeAtOffset: 99_999_999 }, allowed: [400] },
    { name: "a negative offset", merge: { activeAtOffset: -1 }, allowed: [400] },
    { name: "a negative page size", merge: { maxPageSize: -5 }, allowed: [400] },
    { name: "a forged page token", merge: { pageToken: "Zm9yZ2Vk" }, allowed: [400] },
    { name: "a page token that is no base64url", merge: { pageToken: "%%%" }, allowed: [400] },
  ],
};

function badArchive(): Uint8Array {
  return new Uint8Array([0x1a, 0x03, 0xff, 0xff, 0xff]);
}

export const PACKAGE_AND_CONTRACT_SPECS: Record<string, RouteSpec> = {
  "GET /v2/packages/{package_id}": { anyUser: true },
  "POST /v2/packages": DAR_UPLOAD,
  "POST /v2/dars": DAR_UPLOAD,
  "GET /v2/state/active-contracts-page": ACS_PAGE,
  "POST /v2/state/active-contracts-page": ACS_PAGE,
  "POST /v2/contracts/contract-by-id": {
    read: true,
    as: (w) => w.alice.token,
    valid: (w) => ({ contractId: w.unknownCid, queryingParties: [w.alice.party] }),
    bad: (w) => [
      { name: "another party", body: { contractId: w.ownAmulet, queryingParties: [w.bob.party] }, allowed: [403] },
      { name: "no querying parties (any party) for a party user", body: { contractId: w.ownAmulet }, allowed: [403] },
      { name: "an unknown contract", body: { contractId: w.unknownCid, queryingParties: [w.alice.party] }, allowed: [404] },
      { name: "a contract the party does not see", body: { contractId: w.othersAmulet, queryingParties: [w.alice.party] }, allowed: [404] },
      { name: "not a contract id", body: { contractId: "nope", queryingParties: [w.alice.party] }, allowed: [400] },
      { name: "not a party id", body: { contractId: w.ownAmulet, queryingParties: ["not a party"] }, allowed: [400, 403] },
      { name: "no contract id", body: { queryingParties: [w.alice.party] }, allowed: [400] },
    ],
  },
};
