/**
 * Traffic cost estimation at prepare (Canton 3.4 `PrepareSubmissionResponse.cost_estimation`):
 * what executing the prepared transaction will charge this participant, priced by the same meter
 * and formula as the commit (`trafficCostOf`, exemptions, metering off = 0), plus the external
 * signatures the execute will carry. Estimated unless the hints disable it, as in Canton.
 *
 * The confirmation response estimate is 0: this node is the one confirming participant, and the
 * base event cost of the request already stands for its response (src/network/traffic/traffic-cost.ts).
 */
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { CostEstimationSchema } from "../../../../gen/com/daml/ledger/api/v2/interactive/interactive_submission_service_pb.js";
import type { NodeRecord } from "../../../ledger/records.js";
import { timestampOf } from "../../convert/ledger-proto.js";
import type { LedgerApi } from "./ledger-api.js";

export type CostEstimationInit = MessageInitShape<typeof CostEstimationSchema>;

/** The request's CostEstimationHints, or any part of them. */
export interface CostHints {
  readonly disabled?: boolean;
  readonly expectedSignatures?: readonly unknown[];
}

/** How many signatures the execute is expected to carry: the hint's list, else each party's threshold. */
async function expectedSignatures(api: LedgerApi, actAs: readonly string[], hints: CostHints): Promise<number> {
  if (hints.expectedSignatures && hints.expectedSignatures.length > 0) return hints.expectedSignatures.length;
  let n = 0;
  for (const party of actAs) n += (await api.store.party(party))?.external?.threshold ?? 0;
  return n;
}

export async function costEstimationOf(
  api: LedgerApi,
  actAs: readonly string[],
  nodes: readonly NodeRecord[],
  hints: CostHints,
): Promise<CostEstimationInit | undefined> {
  if (hints.disabled) return undefined;
  const signatures = await expectedSignatures(api, actAs, hints);
  const request = api.traffic ? await api.traffic.estimate(actAs, nodes, signatures) : 0n;
  const response = 0n;
  return {
    estimationTimestamp: timestampOf(api.clock.now()),
    confirmationRequestTrafficCostEstimation: request,
    confirmationResponseTrafficCostEstimation: response,
    totalTrafficCostEstimation: request + response,
  };
}
