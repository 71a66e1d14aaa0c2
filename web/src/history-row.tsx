/** One history row: type and subtype in words, counterparty, the user's signed balance change in CC and USD. */
import { Amount } from "./amount.js";
import { FreeText } from "./free-text.js";
import { addDecimal } from "./decimal.js";
import type { HistoryItem } from "./types.js";

const subtypes: Record<string, string> = {
  AmuletRules_DevNet_Tap: "Tap",
  AmuletRules_Transfer: "Transfer",
  AmuletRules_Mint: "Mint",
  AmuletRules_BuyMemberTraffic: "Extra Traffic Purchase",
  AmuletRules_CreateTransferPreapproval: "Transfer Preapproval Created",
  TransferPreapproval_Renew: "Transfer Preapproval Renewed",
  TransferPreapproval_Send: "Direct Transfer",
  AcceptedTransferOffer_Complete: "P2P Payment Completed",
  WalletAppInstall_ExecuteBatch: "Automation",
  TransferFactory_Transfer: "Token-Standard Transfer",
  TransferInstruction_Accept: "Token-Standard Transfer Accepted",
  TransferInstruction_Reject: "Token-Standard Transfer Rejected",
  TransferInstruction_Withdraw: "Token-Standard Transfer Withdrawn",
  Amulet_Expire: "Amulet Expired",
};

/** The user's own net change: every leg (sender or receiver) that is the user's party. */
export function changeFor(item: HistoryItem, party: string): string | undefined {
  const legs = [...(item.sender ? [item.sender] : []), ...(item.receivers ?? [])].filter((l) => l.party === party);
  return legs.length ? legs.reduce((sum, l) => addDecimal(sum, l.amount), "0") : undefined;
}

function counterparty(item: HistoryItem, party: string): string {
  if (item.transaction_type !== "transfer") return "";
  if (item.transfer_instruction_receiver) return item.transfer_instruction_receiver;
  if (item.sender?.party !== party) return item.sender?.party ?? "";
  const others = (item.receivers ?? []).filter((r) => r.party !== party);
  return others.length === 0 ? "Automation" : others.length > 1 ? "Multiple Recipients" : others[0]!.party;
}

function typeText(item: HistoryItem, party: string): string {
  if (item.transaction_type === "transfer") return item.sender?.party === party ? "Sent" : "Received";
  if (item.transaction_type === "balance_change") return "Balance Change";
  return item.transaction_type === "notification" ? "Notification" : "Unknown";
}

export function HistoryRow({ item, party, currentPrice }: { item: HistoryItem; party: string; currentPrice: string | undefined }) {
  const change = changeFor(item, party);
  const price = item.amulet_price ?? currentPrice;
  const signed = change !== undefined && !change.startsWith("-") && change !== "0" ? `+${change}` : change;
  return (
    <tr>
      <td>
        {typeText(item, party)}
        <br />
        <small>{subtypes[item.transaction_subtype.choice] ?? item.transaction_subtype.choice}</small>
        {item.description && (
          <small>
            {" "}
            · <FreeText text={item.description} fallback="" />
          </small>
        )}
      </td>
      <td>{item.date}</td>
      <td class="party">{counterparty(item, party)}</td>
      <td>{signed !== undefined ? <Amount cc={signed} price={price} priceNote={item.amulet_price ? undefined : "current price"} /> : "--.--"}</td>
      <td class="party">{item.transaction_type === "notification" ? "" : item.event_id}</td>
    </tr>
  );
}
