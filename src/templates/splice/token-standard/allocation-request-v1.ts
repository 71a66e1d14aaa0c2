/**
 * The token standard's allocation-request API (package `splice-api-token-allocation-request-v1`):
 * an app's request to its users to allocate for a settlement. Apps implement it, not the
 * registry, so no CC template does; it is known so wallets can filter on it.
 */
import { t, type ValueOf } from "../../../ledger/daml-type.js";
import { defineInterface } from "../../../ledger/template.js";
import { spliceName, spliceType } from "../packages.js";
import { Metadata } from "../types.js";
import { SettlementInfo, TransferLeg } from "./allocation-v1.js";

const MODULE = "Splice.Api.Token.AllocationRequestV1";

export const AllocationRequestView = t.record(
  { settlement: SettlementInfo, transferLegs: t.textMap(TransferLeg), meta: Metadata },
  spliceType("allocationRequestV1", MODULE, "AllocationRequestView"),
);
export type AllocationRequestView = ValueOf<typeof AllocationRequestView>;

export const AllocationRequest = defineInterface<AllocationRequestView>({ id: spliceName("allocationRequestV1", MODULE, "AllocationRequest"), view: AllocationRequestView });

