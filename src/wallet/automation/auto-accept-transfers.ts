/**
 * Splice's AutoAcceptTransferOffersTrigger (reference A.5): a hosted receiver configured in
 * `automation.autoAcceptTransfers` accepts the transfer offers of the senders it lists, as if it
 * had pressed accept itself; the sender's wallet then completes them. Beyond Splice (its issue
 * #7061), listed senders' token-standard transfer instructions (AmuletTransferInstruction) are
 * accepted too, so a sender's choice of API does not decide whether funds arrive unattended.
 * Offers and instructions from anyone else are left for the receiver to answer.
 */
import type { AutoAcceptTransfersConfig } from "../../config/auto-accept-transfers.js";
import { inScope, type Scope } from "../../automation/automation-step.js";
import { AmuletTransferInstruction } from "../../templates/splice/amulet-transfer-instruction.js";
import { TransferOffer } from "../../templates/splice/wallet/transfer-offer.js";
import { acceptTokenStandardTransfer } from "../use-cases/answer-token-standard-transfer.js";
import { acceptTransferOffer } from "../use-cases/accept-transfer-offer.js";
import type { WalletDeps } from "../wallet-deps.js";
import { walletErrorOf } from "../wallet-error.js";
import { actOnAll, isPermanentRefusal } from "./act-on-each.js";
import type { AutomationLog } from "./automation-log.js";
import type { WalletParties } from "./wallet-parties.js";
import { extend } from "../../util/extend.js";

export const AUTO_ACCEPT_TRIGGER = "auto-accept transfers";

export interface AutoAcceptContext {
  readonly deps: WalletDeps;
  readonly parties: WalletParties;
  readonly autoAccept: AutoAcceptTransfersConfig;
  readonly log: AutomationLog;
}

/** One incoming transfer a listed sender made to a configured receiver. */
interface Incoming {
  readonly kind: "transfer offer" | "token-standard transfer";
  readonly contractId: string;
  readonly sender: string;
  readonly receiver: string;
}

export async function autoAcceptTransfers(ctx: AutoAcceptContext, now: bigint, scope: Scope): Promise<boolean> {
  const configured = Object.entries(ctx.autoAccept).filter(([, c]) => c.fromParties.length > 0);
  if (configured.length === 0) return false;
  const ours = new Set(await ctx.parties());
  const senders = new Map(configured.filter(([receiver]) => ours.has(receiver) && inScope(scope, receiver)).map(([r, c]) => [r, new Set(c.fromParties)]));
  if (senders.size === 0) return false;
  const listed = (t: { sender: string; receiver: string }) => senders.get(t.receiver)?.has(t.sender) === true;
  const receivers = [...senders.keys()];
  const { deps } = ctx;
  const [offers, instructions] = await Promise.all([deps.client.active(TransferOffer, receivers), deps.client.active(AmuletTransferInstruction, receivers)]);
  const due: Incoming[] = [
    ...offers
      .filter((o) => o.payload.dso === deps.dso && o.payload.expiresAt > now && listed(o.payload))
      .map((o): Incoming => ({ kind: "transfer offer", contractId: o.contractId, sender: o.payload.sender, receiver: o.payload.receiver })),
    ...instructions
      .map((i) => ({ contractId: i.contractId, transfer: i.payload.transfer }))
      .filter(({ transfer }) => transfer.instrumentId.admin === deps.dso && transfer.executeBefore > now && listed(transfer))
      .map(({ contractId, transfer }): Incoming => ({ kind: "token-standard transfer", contractId, sender: transfer.sender, receiver: transfer.receiver })),
  ];
  return actOnAll(due, (incoming) => accept(ctx, incoming));
}

async function accept(ctx: AutoAcceptContext, t: Incoming): Promise<boolean> {
  const fields = { trigger: AUTO_ACCEPT_TRIGGER, kind: t.kind, contractId: t.contractId, sender: t.sender, receiver: t.receiver };
  try {
    if (t.kind === "transfer offer") await acceptTransferOffer(ctx.deps, t.receiver, t.contractId);
    else await acceptTokenStandardTransfer(ctx.deps, t.receiver, t.contractId);
  } catch (e) {
    // Gone meanwhile (withdrawn, expired, answered by the receiver): nothing left to accept.
    if (walletErrorOf(e).kind === "not-found") return false;
    if (!isPermanentRefusal(e)) throw e;
    ctx.log.error(extend(fields, { reason: walletErrorOf(e).message }), `auto-accept of a ${t.kind} refused`);
    return false;
  }
  ctx.log.info(fields, `auto-accepted a ${t.kind} from ${t.sender}`);
  return true;
}
