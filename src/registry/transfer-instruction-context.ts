/**
 * `POST /registry/transfer-instruction/v1/{id}/choice-contexts/{accept|reject|withdraw}` as a
 * function: the context of the LockedAmulet behind the instruction (locked-amulet-context.ts);
 * accept moves the CC, reject and withdraw return it.
 */
import { isContractId } from "../ledger/ids.js";
import { AmuletTransferInstruction } from "../templates/splice/amulet-transfer-instruction.js";
import type { ChoiceContextWithDisclosures } from "./choice-context-builder.js";
import { lockedAmuletContext } from "./locked-amulet-context.js";
import type { RegistryDeps } from "./registry-deps.js";
import { badRequest, notFound } from "./registry-error.js";
import { excludeDebugFieldsOf, requestObject } from "./request-fields.js";

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
  // Like Splice's scan, the registry serves its DSO's contracts only: one anyone signed as admin is unknown.
  if (!instruction || instruction.payload.transfer.instrumentId.admin !== deps.dso) throw notFound(`AmuletTransferInstruction '${transferInstructionId}' not found.`);
  const { lockedAmulet, transfer } = instruction.payload;
  const owner = `AmuletTransferInstruction '${transferInstructionId}'`;
  return lockedAmuletContext(deps, { lockedAmulet, transfers: choice === "accept", owner, deadline: transfer.executeBefore }, excludeDebugFields);
}

export const getTransferInstructionAcceptContext = (deps: RegistryDeps, id: string, body: unknown) => getTransferInstructionChoiceContext(deps, id, "accept", body);
export const getTransferInstructionRejectContext = (deps: RegistryDeps, id: string, body: unknown) => getTransferInstructionChoiceContext(deps, id, "reject", body);
export const getTransferInstructionWithdrawContext = (deps: RegistryDeps, id: string, body: unknown) => getTransferInstructionChoiceContext(deps, id, "withdraw", body);
