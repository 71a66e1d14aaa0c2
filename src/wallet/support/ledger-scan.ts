/**
 * Reads of the ledger's transaction log that the wallet's history and status endpoints derive
 * their answers from (the node keeps no separate wallet transaction log): the transaction that
 * consumed a contract, and typed views of a node's argument and result.
 */
import { fromDamlJson } from "../../ledger/daml-type.js";
import type { ExerciseNodeRecord, NodeRecord, TransactionRecord } from "../../ledger/records.js";
import { qualifiedId, type Choice, type Template } from "../../ledger/template.js";
import type { LedgerStore } from "../../ledger/store-port.js";

const PAGE = 500;

export interface Consumption {
  readonly transaction: TransactionRecord;
  readonly node: ExerciseNodeRecord;
}

/**
 * The transaction after `afterOffset` that consumed `contractId`, scanning forward from there
 * to the ledger end (cost: the transactions in between; callers start at the contract's creation).
 */
export async function findConsumption(store: LedgerStore, afterOffset: bigint, contractId: string): Promise<Consumption | undefined> {
  const end = await store.ledgerEnd();
  let from = afterOffset;
  while (from < end) {
    const page = await store.transactions(from, end, PAGE);
    for (const transaction of page) {
      const node = transaction.nodes.find((n): n is ExerciseNodeRecord => n.kind === "exercise" && n.consuming && n.contractId === contractId);
      if (node) return { transaction, node };
    }
    if (page.length < PAGE) return undefined;
    from = page[page.length - 1].offset;
  }
  return undefined;
}

/** Whether a node is of this template (package-id form, as stored). */
export const isOf = <P>(node: NodeRecord, template: Template<P>): boolean => node.templateId === qualifiedId(template.id);

/** Whether an exercise node ran this choice (callers check the template with `isOf` first). */
export const ran = (node: ExerciseNodeRecord, choice: { readonly name: string }): boolean => node.choice === choice.name;

/** The argument and result of an exercise node that ran `choice`, typed by the choice. */
export function exerciseOf<P, A, R>(choice: Choice<P, A, R>, node: ExerciseNodeRecord): { argument: A; result: R } {
  if (!ran(node, choice)) throw new Error(`${node.templateId} node ${node.nodeId} ran ${node.choice}, not ${choice.name}`);
  return { argument: fromDamlJson(choice.argument, node.argument) as A, result: fromDamlJson(choice.result, node.result) as R };
}
