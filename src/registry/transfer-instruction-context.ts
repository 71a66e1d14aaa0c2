/**
 * `POST /registry/transfer-instruction/v1/{id}/choice-contexts/{accept|reject|withdraw}` as a
 * function. While the LockedAmulet behind the instruction exists, every choice gets the rules,
 * the open round and the locked amulet, with `expire-lock` true. Once the sender has expired the
 * lock itself, accept is impossible (404) and reject/withdraw only need `expire-lock` false.
 */
import { isContractId } from "../ledger/ids.js";
import { AmuletTransferInstruction } from "../templates/splice/amulet-transfer-instruction.js";
import { LockedAmulet } from "../templates/splice/amulet.js";
import { CONTEXT_KEYS } from "../templates/splice/token-standard/choice-context.js";
import { ChoiceContextBuilder, type ChoiceContextWithDisclosures } from "./choice-context-builder.js";
import { amuletRulesContext, type RegistryDeps } from "./registry-deps.js";
import { badRequest, notFound } from "./registry-error.js";
import { excludeDebugFieldsOf, requestObject } from "./request-fields.js";
import { formatIsoMicros } from "../ledger/daml-type.js";

export type TransferInstructionChoice = "accept" | "reject" | "withdraw";

export async function getTransferInstructionChoiceContext(
  deps: RegistryDeps,
  transferInstructionId: string,
  choice: TransferInstructionChoice,
  body: unknown,
): Promise<ChoiceContextWithDisclosures> {
  const excludeDebugFields = excludeDebugFieldsOf(requestObject(body));
  if (!isContractId(transferInstructionId)) throw badRequest(`Invalid transfer instruction id: ${JSON.stringify(transferInstructionId)}`);
  const instruction = await deps.client.contract(AmuletTransferInstruction, transferInstructionId);
  if (!instruction) throw notFound(`AmuletTransferInstruction '${transferInstructionId}' not found.`);
  const { lockedAmulet, transfer } = instruction.payload;
  const builder = await amuletRulesContext(deps, excludeDebugFields);
  const locked = await deps.client.contract(LockedAmulet, lockedAmulet);
  if (locked) return builder.disclose(locked.record).addBool(CONTEXT_KEYS.expireLock, true).build();
  if (choice === "accept") {
    throw notFound(
      `LockedAmulet '${lockedAmulet}' not found for AmuletTransferInstruction '${transferInstructionId}', which expires on ${formatIsoMicros(transfer.executeBefore)}`,
    );
  }
  return new ChoiceContextBuilder(builder.synchronizerId, excludeDebugFields).addBool(CONTEXT_KEYS.expireLock, false).build();
}

export const getTransferInstructionAcceptContext = (deps: RegistryDeps, id: string, body: unknown) => getTransferInstructionChoiceContext(deps, id, "accept", body);
export const getTransferInstructionRejectContext = (deps: RegistryDeps, id: string, body: unknown) => getTransferInstructionChoiceContext(deps, id, "reject", body);
export const getTransferInstructionWithdrawContext = (deps: RegistryDeps, id: string, body: unknown) => getTransferInstructionChoiceContext(deps, id, "withdraw", body);
