/**
 * The offer and history use cases' results as `/v0` messages: statuses as the `status` oneofs,
 * history items as `ListTransactionsResponseItem`s (amounts as decimal strings, dates as
 * timestamps). The Splice JSON codec turns them into the OpenAPI's discriminated shapes.
 */
import type { MessageInitShape } from "@bufbuild/protobuf";
import {
  BuyTrafficRequestFailureReason,
  TransferOfferFailureKind,
  type GetBuyTrafficRequestStatusResponseSchema,
  type GetTransferOfferStatusResponseSchema,
} from "../../../../../gen/ccwallet/wallet/v0/wallet_external_pb.js";
import type { ListTransactionsResponseItemSchema, PartyAndAmountSchema } from "../../../../../gen/ccwallet/wallet/v0/wallet_internal_pb.js";
import type { BuyTrafficRequestStatus, HistoryItem, PartyAmount, TransferOfferFailure, TransferOfferStatus } from "../../../../wallet/index.js";
import { timestampOf } from "../../../convert/ledger-proto.js";
import { extend } from "../../../../util/extend.js";

const failureKinds: Record<TransferOfferFailure, TransferOfferFailureKind> = {
  expired: TransferOfferFailureKind.EXPIRED,
  rejected: TransferOfferFailureKind.REJECTED,
  withdrawn: TransferOfferFailureKind.WITHDRAWN,
};

export function transferOfferStatusToProto(s: TransferOfferStatus): MessageInitShape<typeof GetTransferOfferStatusResponseSchema> {
  if (s.status === "failed") {
    return { status: { case: "failed", value: { failureKind: failureKinds[s.failureKind], withdrawnReason: s.withdrawnReason } } };
  }
  return { status: { case: s.status, value: { transactionId: s.transactionId, contractId: s.contractId } } };
}

export function buyTrafficRequestStatusToProto(s: BuyTrafficRequestStatus): MessageInitShape<typeof GetBuyTrafficRequestStatusResponseSchema> {
  switch (s.status) {
    case "created":
      return { status: { case: "created", value: {} } };
    case "completed":
      return { status: { case: "completed", value: { transactionId: s.transactionId } } };
    case "failed": {
      const failureReason = s.failureReason === "expired" ? BuyTrafficRequestFailureReason.EXPIRED : BuyTrafficRequestFailureReason.REJECTED;
      return { status: { case: "failed", value: { failureReason, rejectionReason: s.rejectionReason } } };
    }
  }
}

const partyAmount = (p: PartyAmount): MessageInitShape<typeof PartyAndAmountSchema> => ({ party: p.party, amount: p.amount.toString() });

export function historyItemToProto(item: HistoryItem): MessageInitShape<typeof ListTransactionsResponseItemSchema> {
  const base = {
    transactionSubtype: { templateId: item.subtype.templateId, choice: item.subtype.choice },
    eventId: item.eventId,
    date: timestampOf(item.date),
    amuletPrice: item.amuletPrice?.toString(),
  };
  switch (item.type) {
    case "transfer":
      return extend(base, {
        transactionType: {
          case: "transfer",
          value: {
            sender: partyAmount(item.sender),
            receivers: item.receivers.map(partyAmount),
            holdingFees: item.holdingFees.toString(),
            appRewardsUsed: item.appRewardsUsed.toString(),
            validatorRewardsUsed: item.validatorRewardsUsed.toString(),
            svRewardsUsed: item.svRewardsUsed.toString(),
            developmentFundCouponsUsed: "0.0000000000",
            description: item.description,
          },
        },
      });
    case "balance_change":
      return extend(base, { transactionType: { case: "balanceChange", value: { receivers: item.receivers.map(partyAmount) } } });
    case "notification":
      return extend(base, { transactionType: { case: "notification", value: { details: item.details } } });
  }
}
