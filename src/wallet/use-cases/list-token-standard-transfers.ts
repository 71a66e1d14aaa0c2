/** `GET /v0/wallet/token-standard/transfers`: the open CC transfer instructions the party sends or receives. */
import type { Active } from "../../ledger/ledger-client.js";
import { AmuletTransferInstruction, type AmuletTransferInstructionPayload } from "../../templates/splice/amulet-transfer-instruction.js";
import type { WalletDeps } from "../wallet-deps.js";

export async function listTokenStandardTransfers(deps: WalletDeps, party: string): Promise<Active<AmuletTransferInstructionPayload>[]> {
  const all = await deps.client.active(AmuletTransferInstruction, [party]);
  // CC's instructions only: anyone can sign one naming itself as the instrument's admin.
  return all.filter((i) => i.payload.transfer.instrumentId.admin === deps.dso && (i.payload.transfer.sender === party || i.payload.transfer.receiver === party));
}
