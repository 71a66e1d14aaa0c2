/**
 * `POST /registry/allocation-instruction/v1/allocation-factory` as a function: which factory to
 * exercise `AllocationFactory_Allocate` on (CC's `ExternalPartyAmuletRules`) and the choice context
 * with the contracts to disclose. An allocation only locks the sender's CC, so it needs no more
 * than any CC transfer: the rules and the open round.
 */
import { fromDamlJson, t, ValueError } from "../ledger/daml-type.js";
import { ExternalPartyAmuletRules } from "../templates/splice/external-party-amulet-rules.js";
import { AllocationSpecification } from "../templates/splice/token-standard/allocation-v1.js";
import type { ChoiceContextWithDisclosures } from "./choice-context-builder.js";
import { amuletRulesContext, type RegistryDeps } from "./registry-deps.js";
import { badRequest, notFound } from "./registry-error.js";
import { excludeDebugFieldsOf, isObject, requestObject } from "./request-fields.js";

export interface FactoryWithChoiceContext {
  readonly factoryId: string;
  readonly choiceContext: ChoiceContextWithDisclosures;
}

/**
 * Checks the `AllocationFactory_Allocate` arguments as far as a client sends them: the
 * allocation must decode. `extraArgs` is not read (clients send it empty: it is what they ask for).
 */
function checkChoiceArguments(body: Record<string, unknown>): void {
  const args = body.choiceArguments;
  const invalid = (why: string) => badRequest(`Field \`choiceArguments\` does not contain a valid \`AllocationFactory_Allocate\`: ${why}`);
  if (!isObject(args)) throw invalid("missing or not a JSON object");
  try {
    if (args.expectedAdmin !== undefined) fromDamlJson(t.party, args.expectedAdmin, "expectedAdmin");
    fromDamlJson(AllocationSpecification, args.allocation, "allocation");
  } catch (e) {
    if (e instanceof ValueError) throw invalid(e.message);
    throw e;
  }
}

export async function getAllocationFactory(deps: RegistryDeps, body: unknown): Promise<FactoryWithChoiceContext> {
  const request = requestObject(body);
  checkChoiceArguments(request);
  const builder = await amuletRulesContext(deps, excludeDebugFieldsOf(request));
  const [factory] = await deps.client.active(ExternalPartyAmuletRules, [deps.dso]);
  if (!factory) throw notFound("No ExternalPartyAmuletRules contract found.");
  return { factoryId: factory.contractId, choiceContext: builder.disclose(factory.record).build() };
}
