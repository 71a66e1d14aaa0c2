/**
 * `POST /registry/transfer-instruction/v1/transfer-factory` as a function: which factory to
 * exercise, what kind of transfer it will run (`self`, `direct` through the receiver's
 * preapproval, or `offer`), and the choice context with the contracts to disclose.
 */
import { fromDamlJson, t, ValueError } from "../ledger/daml-type.js";
import type { Active } from "../ledger/ledger-client.js";
import { FeaturedAppRight } from "../templates/splice/amulet.js";
import { ExternalPartyAmuletRules } from "../templates/splice/external-party-amulet-rules.js";
import { CONTEXT_KEYS } from "../templates/splice/token-standard/choice-context.js";
import { Transfer } from "../templates/splice/token-standard/transfer-instruction-v1.js";
import { TransferPreapproval, type TransferPreapprovalPayload } from "../templates/splice/transfer-preapproval.js";
import type { ChoiceContextWithDisclosures } from "./choice-context-builder.js";
import { amuletRulesContext, type RegistryDeps } from "./registry-deps.js";
import { badRequest, notFound } from "./registry-error.js";
import { excludeDebugFieldsOf, isObject, requestObject } from "./request-fields.js";

export type TransferKind = "self" | "direct" | "offer";

export interface TransferFactoryWithChoiceContext {
  readonly factoryId: string;
  readonly transferKind: TransferKind;
  readonly choiceContext: ChoiceContextWithDisclosures;
}

/**
 * The parts of `TransferFactory_Transfer` the registry needs. `extraArgs` is not read: clients
 * send it with an empty context (that is what they are asking for).
 */
function parseChoiceArguments(body: Record<string, unknown>): { transfer: Transfer } {
  const args = body.choiceArguments;
  const invalid = (why: string) => badRequest(`Field \`choiceArguments\` does not contain a valid \`TransferFactory_Transfer\`: ${why}`);
  if (!isObject(args)) throw invalid("missing or not a JSON object");
  try {
    if (args.expectedAdmin !== undefined) fromDamlJson(t.party, args.expectedAdmin, "expectedAdmin");
    return { transfer: fromDamlJson(Transfer, args.transfer, "transfer") as Transfer };
  } catch (e) {
    if (e instanceof ValueError) throw invalid(e.message);
    throw e;
  }
}

/** The receiver's usable preapproval: unexpired, the longest-lived if there are several. */
export async function lookupTransferPreapproval(deps: RegistryDeps, receiver: string): Promise<Active<TransferPreapprovalPayload> | undefined> {
  const now = deps.now();
  const usable = (await deps.client.active(TransferPreapproval, [receiver])).filter(
    (p) => p.payload.receiver === receiver && p.payload.dso === deps.dso && p.payload.expiresAt > now,
  );
  return usable.sort((a, b) => (a.payload.expiresAt > b.payload.expiresAt ? -1 : 1))[0];
}

async function lookupFeaturedAppRight(deps: RegistryDeps, provider: string) {
  const rights = await deps.client.active(FeaturedAppRight, [provider]);
  return rights.find((r) => r.payload.provider === provider && r.payload.dso === deps.dso);
}

export async function getTransferFactory(deps: RegistryDeps, body: unknown): Promise<TransferFactoryWithChoiceContext> {
  const request = requestObject(body);
  const { transfer } = parseChoiceArguments(request);
  const builder = await amuletRulesContext(deps, excludeDebugFieldsOf(request));
  const [factory] = await deps.client.active(ExternalPartyAmuletRules, [deps.dso]);
  if (!factory) throw notFound("No ExternalPartyAmuletRules contract found.");
  const isSelf = transfer.receiver === transfer.sender;
  // Pre-approval and featured app right are only provided if they exist and are required.
  const preapproval = isSelf ? undefined : await lookupTransferPreapproval(deps, transfer.receiver);
  const featured = preapproval ? await lookupFeaturedAppRight(deps, preapproval.payload.provider) : undefined;
  const choiceContext = builder
    .addContract(CONTEXT_KEYS.featuredAppRight, featured?.record)
    .addContract(CONTEXT_KEYS.transferPreapproval, preapproval?.record)
    .disclose(factory.record)
    .build();
  return { factoryId: factory.contractId, transferKind: isSelf ? "self" : preapproval ? "direct" : "offer", choiceContext };
}
