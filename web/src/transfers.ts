/** The open transfers of the user: legacy offers and token-standard instructions, both directions. */
import { api, type Session } from "./api.js";
import { usePoll } from "./poll.js";
import type { InstructionContract, OfferContract } from "./types.js";

export interface OpenTransfers {
  readonly offers: OfferContract[];
  readonly instructions: InstructionContract[];
}

export function useOpenTransfers(session: Session) {
  return usePoll<OpenTransfers>(async () => {
    const [o, t] = await Promise.all([
      api<{ offers: OfferContract[] }>(session, "GET", "/v0/wallet/transfer-offers"),
      api<{ transfers: InstructionContract[] }>(session, "GET", "/v0/wallet/token-standard/transfers"),
    ]);
    return { offers: o.offers, instructions: t.transfers };
  }, [session.token]);
}

export const offerPath = (cid: string, what: "accept" | "reject" | "withdraw") => `/v0/wallet/transfer-offers/${encodeURIComponent(cid)}/${what}`;
export const instructionPath = (cid: string, what: "accept" | "reject" | "withdraw") =>
  `/v0/wallet/token-standard/transfers/${encodeURIComponent(cid)}/${what}`;

export const reasonOf = (i: InstructionContract) => i.payload.transfer.meta?.values?.["splice.lfdecentralizedtrust.org/reason"] ?? "";
