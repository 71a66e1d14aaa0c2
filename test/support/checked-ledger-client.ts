/**
 * A LedgerClient that checks what the node now takes from the interpreter instead of decoding it
 * back from JSON: on every exercise, that the typed result is what decoding the root node's JSON
 * gives; on every transaction, that each created contract's registered typed payload is what
 * decoding its JSON gives. Every fixture-driven test of Canton Coin and the wallet runs through it.
 */
import { expect } from "vitest";
import { fromDamlJson, type DamlType } from "../../src/ledger/daml-type.js";
import { decodedPayload } from "../../src/ledger/decoded-payloads.js";
import { LedgerClient, type SubmitOptions } from "../../src/ledger/ledger-client.js";
import type { ExerciseNodeRecord, TransactionRecord } from "../../src/ledger/records.js";
import type { Command } from "../../src/ledger/commands.js";
import type { Choice, InterfaceChoice, InterfaceDef, Template } from "../../src/ledger/template.js";

export class CheckedLedgerClient extends LedgerClient {
  override async submit(actAs: readonly string[], commands: readonly Command[], options?: SubmitOptions): Promise<TransactionRecord> {
    return this.checked(await super.submit(actAs, commands, options));
  }

  private checked(tx: TransactionRecord): TransactionRecord {
    for (const node of tx.nodes) {
      if (node.kind !== "create") continue;
      const type = this.ledger.registry.template(node.templateId).payload;
      expect(decodedPayload(type, node)).toStrictEqual(fromDamlJson(type, node.payload));
    }
    return tx;
  }

  override async exercise<P, A, R>(
    actAs: readonly string[],
    template: Template<P>,
    contractId: string,
    choice: Choice<P, A, R>,
    argument: A,
    options?: SubmitOptions,
  ): Promise<{ result: R; transaction: TransactionRecord }> {
    return this.checkedExercise(choice.result, await super.exercise(actAs, template, contractId, choice, argument, options));
  }

  override async exerciseInterface<V, A, R>(
    actAs: readonly string[],
    iface: InterfaceDef<V>,
    contractId: string,
    choice: InterfaceChoice<V, A, R>,
    argument: A,
    options?: SubmitOptions,
  ): Promise<{ result: R; transaction: TransactionRecord }> {
    return this.checkedExercise(choice.result, await super.exerciseInterface(actAs, iface, contractId, choice, argument, options));
  }

  /** The exercise's creates, and its typed result against its root node's JSON decoded. */
  private checkedExercise<R>(resultType: DamlType, out: { result: R; transaction: TransactionRecord }): { result: R; transaction: TransactionRecord } {
    this.checked(out.transaction);
    expect(out.result).toStrictEqual(fromDamlJson(resultType, (out.transaction.nodes[0] as ExerciseNodeRecord).result));
    return out;
  }
}
