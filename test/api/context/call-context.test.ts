import { describe, expect, it } from "vitest";
import { createHandlerContext } from "@connectrpc/connect";
import type { IncomingHttpHeaders } from "node:http2";
import { VersionService } from "../../../gen/com/daml/ledger/api/v2/version_service_pb.js";
import { CallContext } from "../../../src/api/context/index.js";
import { authorizationHeader } from "../../../src/api/services/call-token.js";

const method = VersionService.method.getLedgerApiVersion;
const ours = (headers: IncomingHttpHeaders) => new CallContext(VersionService, method, "/v2/version", headers, { protocolName: "connect", requestMethod: "POST" });

describe("CallContext", () => {
  it("reads the token without building the Web Headers, and gives what Headers.get would", () => {
    const cases: IncomingHttpHeaders[] = [
      {},
      { authorization: "Bearer abc.def.ghi" },
      { authorization: " \tBearer abc\r\n " },
      { authorization: "" },
      { authorization: ["Bearer one", " Bearer two "] as unknown as string },
      { authorization: [] as unknown as string },
      { host: "x", "content-type": "application/json", authorization: "Basic Zm9vOmJhcg==" },
    ];
    for (const headers of cases) {
      const ctx = ours(headers);
      const expected = new Headers();
      for (const [k, v] of Object.entries(headers)) for (const x of Array.isArray(v) ? v : [v!]) expected.append(k, x);
      expect(ctx.authorization(), JSON.stringify(headers)).toBe(expected.get("authorization"));
      expect(authorizationHeader(ctx)).toBe(expected.get("authorization"));
      // Built on first use, then the same object.
      expect(ctx.requestHeader.get("authorization")).toBe(expected.get("authorization"));
      expect(ctx.requestHeader).toBe(ctx.requestHeader);
    }
  });

  it("HTTP/2 pseudo-headers are not request metadata", () => {
    const ctx = ours({ ":path": "/x", ":method": "POST", "x-trace": "1" });
    expect([...ctx.requestHeader.keys()]).toEqual(["x-trace"]);
  });

  it("takes the token from Connect's own context on calls Connect serves", () => {
    const requestHeader = new Headers({ authorization: "Bearer from-connect" });
    const ctx = createHandlerContext({ service: VersionService, method, protocolName: "connect", requestMethod: "POST", url: "/x", requestHeader });
    expect(authorizationHeader(ctx)).toBe("Bearer from-connect");
  });
});
