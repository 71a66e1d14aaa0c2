import { describe, expect, it } from "vitest";
import { PartyManagementService } from "../../../gen/com/daml/ledger/api/v2/admin/party_management_service_pb.js";
import { matchRoute, routesOf } from "../../../src/api/http/route-table.js";

const routes = routesOf([PartyManagementService]);
const method = (m: ReturnType<typeof matchRoute>) => (typeof m === "object" ? m.route.method.name : m);

describe("matching a request to its route", () => {
  it("prefers a literal path to a variable one, and binds variables decoded", () => {
    expect(method(matchRoute(routes, "GET", "/v2/parties/participant-id"))).toBe("GetParticipantId");
    const m = matchRoute(routes, "GET", "/v2/parties/alice%3A%3A1220ab");
    expect(method(m)).toBe("GetParties");
    expect(typeof m === "object" && m.params).toEqual(["alice::1220ab"]);
    expect(method(matchRoute(routes, "POST", "/v2/parties/external/allocate"))).toBe("AllocateExternalParty");
  });

  it("answers 405 for a path served with other methods, whether its route is literal or not", () => {
    expect(matchRoute(routes, "POST", "/v2/parties/participant-id")).toBe("method-not-allowed");
    expect(matchRoute(routes, "DELETE", "/v2/parties")).toBe("method-not-allowed");
    expect(matchRoute(routes, "DELETE", "/v2/parties/alice")).toBe("method-not-allowed");
  });

  it("tells bad percent-encoding and unknown paths apart", () => {
    expect(matchRoute(routes, "GET", "/v2/parties/%ZZ")).toBe("bad-encoding");
    expect(matchRoute(routes, "GET", "/v2/nothing-here")).toBeUndefined();
    expect(matchRoute(routes, "GET", "/v2/parties/participant-id/")).toBeUndefined();
  });
});
