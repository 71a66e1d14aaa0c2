/** Where the load points send: the ledger under test and the echo servers that are its baselines. */
import type { Target } from "../lib/loadgen.js";
import type { BenchServer, EchoServers } from "../lib/setup.js";

export interface Targets {
  readonly ledger: Target;
  /** Connect-server gRPC echo and bare HTTP/1.1 JSON echo. */
  readonly echo: Target;
  /** The same echo answer from ccwallet's native gRPC handler (the ledger's own transport). */
  readonly nativeEcho: Target;
  /** The same echo answer from a @grpc/grpc-js server. */
  readonly grpcJsEcho: Target;
}

export function targetsFor(bs: BenchServer, echo: EchoServers, party: { token: string; party: string }): Targets {
  const ledger: Target = { grpcUrl: bs.grpcUrl, httpUrl: bs.httpUrl, token: party.token, party: party.party };
  const echoTarget: Target = { ...ledger, grpcUrl: echo.grpcUrl, httpUrl: echo.httpUrl };
  return { ledger, echo: echoTarget, nativeEcho: { ...echoTarget, grpcUrl: echo.nativeUrl }, grpcJsEcho: { ...echoTarget, grpcUrl: echo.grpcJsUrl } };
}
