/**
 * ContractService (Canton 3.4, alpha): a contract's create event by contract id, active or
 * archived, for querying parties of which one is a stakeholder (no querying parties: any party,
 * which takes the right to read as any party). Unknown and not visible answer alike,
 * CONTRACT_PAYLOAD_NOT_FOUND. As Canton documents, offset and node id are not populated and the
 * witnesses are the querying parties that are stakeholders; the created-event blob is set (later
 * Canton releases populate it, and clients disclosing the contract need it).
 */
import type { ServiceImpl } from "@connectrpc/connect";
import { ContractService } from "../../../../gen/com/daml/ledger/api/v2/contract_service_pb.js";
import { isParticipantAdmin, requireReadAny, requireReadAs } from "../../../auth/index.js";
import { errors } from "../../../ledger/errors.js";
import { isContractId, isPartyId } from "../../../ledger/ids.js";
import { authenticate } from "./authenticate.js";
import { guard } from "./connect-error.js";
import type { LedgerApi } from "./ledger-api.js";
import { updated } from "../../../util/extend.js";

function checkedParties(parties: readonly string[]): readonly string[] {
  for (const p of parties) if (!isPartyId(p)) throw errors.invalidField("querying_parties", `Invalid party id ${JSON.stringify(p)}`);
  return parties;
}

export function contractService(api: LedgerApi): ServiceImpl<typeof ContractService> {
  return {
    getContract: (req, ctx) =>
      guard(api.log, async () => {
        const user = await authenticate(api, ctx);
        if (!req.contractId) throw errors.missingField("contract_id");
        if (!isContractId(req.contractId)) throw errors.invalidField("contract_id", `Invalid contract id ${JSON.stringify(req.contractId)}`);
        const querying = checkedParties(req.queryingParties);
        if (!isParticipantAdmin(user)) {
          if (querying.length === 0) requireReadAny(user);
          else requireReadAs(user, querying);
        }
        const c = (await api.store.contractHistory(req.contractId))?.contract;
        const stakeholders = c ? new Set([...c.signatories, ...c.observers]) : new Set<string>();
        const witnesses = querying.filter((p) => stakeholders.has(p));
        if (!c || (querying.length > 0 && witnesses.length === 0)) throw errors.contractPayloadNotFound(req.contractId);
        const event = api.encoder.activeContract(c, [...new Set(witnesses)], true, []);
        return { createdEvent: updated(event, { offset: 0n, nodeId: 0 }) };
      }),
  };
}
