/**
 * The token standard's holding interface (Splice.Api.Token.HoldingV1). CC holdings (`Amulet`,
 * `LockedAmulet`) implement it, so wallets can read balances through an interface filter.
 */
import { t, type ValueOf } from "../../ledger/daml-type.js";
import { defineInterface } from "../../ledger/template.js";
import { spliceName, spliceType } from "./packages.js";
import { InstrumentId, Metadata, RelTime } from "./types.js";

const MODULE = "Splice.Api.Token.HoldingV1";

export const Lock = t.record(
  { holders: t.list(t.party), expiresAt: t.optional(t.time), expiresAfter: t.optional(RelTime), context: t.optional(t.text) },
  spliceType("holdingV1", MODULE, "Lock"),
);

export const HoldingView = t.record(
  { owner: t.party, instrumentId: InstrumentId, amount: t.numeric(), lock: t.optional(Lock), meta: Metadata },
  spliceType("holdingV1", MODULE, "HoldingView"),
);
export type HoldingView = ValueOf<typeof HoldingView>;

export const Holding = defineInterface<HoldingView>({ id: spliceName("holdingV1", MODULE, "Holding"), view: HoldingView });
