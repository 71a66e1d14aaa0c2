/**
 * A party's CC balance at the latest open round, computed without the wallet's index: in process
 * from the ACS, as a gRPC client from GetActiveContracts, and the fee arithmetic alone.
 */
import { createClient } from "@connectrpc/connect";
import { StateService } from "../../gen/com/daml/ledger/api/v2/state_service_pb.js";
import type { Value } from "../../gen/com/daml/ledger/api/v2/value_pb.js";
import { latestOpenRound, readNetwork } from "../../src/network/network-state.js";
import { Numeric } from "../../src/ledger/numeric.js";
import type { RunningServer } from "../../src/server.js";
import { Amulet, currentAmount, type ExpiringAmount } from "../../src/templates/splice/index.js";
import { grpcTransport } from "../lib/clients.js";
import type { CcNetwork } from "./cc-network.js";

export async function balanceInProcess(net: CcNetwork, server: RunningServer, owner: string): Promise<string> {
  const round = latestOpenRound(await readNetwork(net.client, net.dso), server.api.clock.now()).payload.round.number;
  let sum = Numeric.zero;
  for (const h of await net.client.active(Amulet, [owner])) if (h.payload.owner === owner) sum = sum.add(currentAmount(h.payload.amount, round));
  return sum.toString();
}

const field = (v: Value | undefined, label: string): Value | undefined =>
  v?.sum.case === "record" ? v.sum.value.fields.find((f) => f.label === label)?.value : undefined;
const scalar = (v: Value | undefined): string => (v && (v.sum.case === "numeric" || v.sum.case === "party") ? v.sum.value : v?.sum.case === "int64" ? String(v.sum.value) : "");

/** What a client does: stream the party's Amulet contracts and apply the holding-fee rule. */
export async function balanceByGrpc(grpcUrl: string, token: string, owner: string, round?: bigint): Promise<string> {
  const state = createClient(StateService, grpcTransport(grpcUrl, token));
  const { offset } = await state.getLedgerEnd({});
  const templateId = { packageId: "#splice-amulet", moduleName: "Splice.Amulet", entityName: "Amulet" };
  let sum = Numeric.zero;
  const amounts: ExpiringAmount[] = [];
  for await (const r of state.getActiveContracts({
    activeAtOffset: offset,
    eventFormat: { filtersByParty: { [owner]: { cumulative: [{ identifierFilter: { case: "templateFilter", value: { templateId } } }] } }, verbose: false },
  })) {
    if (r.contractEntry.case !== "activeContract") continue;
    const args = { sum: { case: "record", value: r.contractEntry.value.createdEvent!.createArguments! } } as Value;
    if (scalar(field(args, "owner")) !== owner) continue;
    const amount = field(args, "amount");
    amounts.push({
      initialAmount: Numeric.parse(scalar(field(amount, "initialAmount"))),
      createdAt: { number: BigInt(scalar(field(field(amount, "createdAt"), "number"))) },
      ratePerRound: { rate: Numeric.parse(scalar(field(field(amount, "ratePerRound"), "rate"))) },
    });
  }
  const at = round ?? amounts.reduce((m, a) => (a.createdAt.number > m ? a.createdAt.number : m), 0n);
  for (const a of amounts) sum = sum.add(currentAmount(a, at));
  return sum.toString();
}

let cached: ExpiringAmount[] | undefined;

/** Sums `n` holdings' current amounts (already decoded): the arithmetic floor of a balance. */
export function feeMathOnly(n: number): string {
  cached ??= Array.from({ length: n }, (_, i) => ({ initialAmount: Numeric.parse("1.5"), createdAt: { number: BigInt(i % 7) }, ratePerRound: { rate: Numeric.parse("0.0038051800") } }));
  let sum = Numeric.zero;
  for (const a of cached) sum = sum.add(currentAmount(a, 10n));
  return sum.toString();
}
