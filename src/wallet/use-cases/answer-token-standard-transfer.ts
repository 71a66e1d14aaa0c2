/**
 * `POST /v0/wallet/token-standard/transfers/{contract_id}/accept|reject|withdraw`: the receiver
 * accepts or rejects a pending CC transfer instruction, the sender withdraws it. An instruction
 * the party is not part of, or one not of the network's DSO, is unknown to it (404); the wrong
 * side acting is a bad request.
 */
import { isContractId } from "../../ledger/ids.js";
import type { TransferInstructionChoice } from "../../registry/index.js";
import { AmuletTransferInstruction } from "../../templates/splice/amulet-transfer-instruction.js";
import type { TransferInstructionResult } from "../../templates/splice/token-standard/transfer-instruction-v1.js";
import { actingOnNamed } from "../support/contention.js";
import { answerInstruction } from "../support/token-standard-calls.js";
import type { WalletDeps } from "../wallet-deps.js";
import { walletErrors } from "../wallet-error.js";

const ROLE: Record<TransferInstructionChoice, "sender" | "receiver"> = { accept: "receiver", reject: "receiver", withdraw: "sender" };

export async function answerTokenStandardTransfer(deps: WalletDeps, party: string, contractId: string, choice: TransferInstructionChoice): Promise<TransferInstructionResult> {
  if (!isContractId(contractId)) throw walletErrors.badRequest(`contract_id: ${JSON.stringify(contractId)} is not a contract id`);
  const instruction = await deps.client.contract(AmuletTransferInstruction, contractId);
  const transfer = instruction?.payload.transfer;
  const gone = () => walletErrors.notFound(`no open token-standard transfer ${contractId} of party ${party}`);
  // An instruction of another admin than the network's DSO is not a CC transfer (the list leaves it out too).
  if (!transfer || transfer.instrumentId.admin !== deps.dso || (transfer.sender !== party && transfer.receiver !== party)) throw gone();
  const role = ROLE[choice];
  if (transfer[role] !== party) throw walletErrors.badRequest(`only the ${role} of transfer ${contractId} can ${choice} it`);
  const isActive = async () => (await deps.client.contract(AmuletTransferInstruction, contractId)) !== undefined;
  return actingOnNamed(isActive, gone, () => answerInstruction(deps, party, contractId, choice));
}

export const acceptTokenStandardTransfer = (deps: WalletDeps, party: string, contractId: string) => answerTokenStandardTransfer(deps, party, contractId, "accept");
export const rejectTokenStandardTransfer = (deps: WalletDeps, party: string, contractId: string) => answerTokenStandardTransfer(deps, party, contractId, "reject");
export const withdrawTokenStandardTransfer = (deps: WalletDeps, party: string, contractId: string) => answerTokenStandardTransfer(deps, party, contractId, "withdraw");
