/**
 * A call's listener for its stream waiting on the node's page budget (stream-page-budget.ts). The
 * JSON gateway sets it on a streaming call it collects into an array: it ends the array when the
 * stream goes idle, and a stream waiting for room is slow, not idle (the array was answered short,
 * with a 200, while a snapshot waited).
 */
import { createContextKey } from "@connectrpc/connect";
import type { PageWaitListener } from "../../../ledger/stream-page-budget.js";

export const PAGE_WAIT = createContextKey<PageWaitListener | undefined>(undefined, { description: "told while the stream waits for room on the page budget" });
