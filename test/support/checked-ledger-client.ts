/**
 * A LedgerClient that checks, on every exercise, that the typed result the interpreter hands back
 * is what decoding the root node's JSON gives (the client used to decode it; now it trusts the
 * interpreter's own value). Every fixture-driven test of Canton Coin and the wallet runs through it.
 */
import { expect } from "vitest";
import { fromDamlJson } from "../../src/ledger/daml-type.js";
import { LedgerClient, type SubmitOptions } from "../../src/ledger/ledger-client.js";
import type { ExerciseNodeRecord, TransactionRecord } from "../../src/ledger/records.js";
import type { Choice, InterfaceChoice, InterfaceDef, Template } from "../../src/ledger/template.js";

export class CheckedLedgerClient extends LedgerClient {
  override async exercise<P, A, R>(
    actAs: readonly string[],
    template: Template<P>,
    contractId: string,
    choice: Choice<P, A, R>,
    argument: A,
    options?: SubmitOptions,
  ): Promise<{ result: R; transaction: TransactionRecord }> {
    const out = await super.exercise(actAs, template, contractId, choice, argument, options);
    expect(out.result).toStrictEqual(fromDamlJson(choice.result, (out.transaction.nodes[0] as ExerciseNodeRecord).result));
    return out;
  }

  override async exerciseInterface<V, A, R>(
    actAs: readonly string[],
    iface: InterfaceDef<V>,
    contractId: string,
    choice: InterfaceChoice<V, A, R>,
    argument: A,
    options?: SubmitOptions,
  ): Promise<{ result: R; transaction: TransactionRecord }> {
    const out = await super.exerciseInterface(actAs, iface, contractId, choice, argument, options);
    expect(out.result).toStrictEqual(fromDamlJson(choice.result, (out.transaction.nodes[0] as ExerciseNodeRecord).result));
    return out;
  }
}
