/**
 * `POST /registry/allocations/v1/{allocationId}/choice-contexts/{execute-transfer|withdraw|cancel}`
 * as a function: the context of the LockedAmulet behind the `AmuletAllocation`
 * (locked-amulet-context.ts). Execute-transfer moves the CC and, as Splice's scan does, adds the
 * executor's featured app right when it has one (the executor is the transfer's provider).
 */
import { isContractId } from "../ledger/ids.js";
import { FeaturedAppRight } from "../templates/splice/amulet.js";
import { AmuletAllocation } from "../templates/splice/amulet-allocation.js";
import { CONTEXT_KEYS } from "../templates/splice/token-standard/choice-context.js";
import type { ChoiceContextBuilder, ChoiceContextWithDisclosures } from "./choice-context-builder.js";
import { lockedAmuletContext } from "./locked-amulet-context.js";
import type { RegistryDeps } from "./registry-deps.js";
import { badRequest, notFound } from "./registry-error.js";
import { excludeDebugFieldsOf, requestObject } from "./request-fields.js";

export type AllocationChoice = "execute-transfer" | "withdraw" | "cancel";

async function withFeaturedExecutor(deps: RegistryDeps, executor: string, builder: ChoiceContextBuilder): Promise<ChoiceContextBuilder> {
  const rights = await deps.client.active(FeaturedAppRight, [executor]);
  const right = rights.find((r) => r.payload.provider === executor && r.payload.dso === deps.dso);
  return builder.addContract(CONTEXT_KEYS.featuredAppRight, right?.record);
}

export async function getAllocationChoiceContext(deps: RegistryDeps, allocationId: string, choice: AllocationChoice, body: unknown): Promise<ChoiceContextWithDisclosures> {
  const excludeDebugFields = excludeDebugFieldsOf(requestObject(body));
  if (!isContractId(allocationId)) throw badRequest(`Invalid allocation id: ${JSON.stringify(allocationId)}`);
  const allocation = await deps.client.contract(AmuletAllocation, allocationId);
  // Like Splice's scan, the registry serves its DSO's contracts only: one anyone signed as admin is unknown.
  if (!allocation || allocation.payload.allocation.transferLeg.instrumentId.admin !== deps.dso) throw notFound(`AmuletAllocation '${allocationId}' not found.`);
  const { lockedAmulet, allocation: spec } = allocation.payload;
  const executor = spec.settlement.executor;
  return lockedAmuletContext(
    deps,
    {
      lockedAmulet,
      transfers: choice === "execute-transfer",
      owner: `AmuletAllocation '${allocationId}'`,
      deadline: spec.settlement.settleBefore,
      extend: (builder) => withFeaturedExecutor(deps, executor, builder),
    },
    excludeDebugFields,
  );
}
