/**
 * Shared helpers of the wallet-template tests: exercising with the network's disclosed contracts,
 * payment contexts, holdings snapshots, and refusal assertions that also check nothing moved.
 */
import { expect } from "vitest";
import { choiceOf } from "../../../support/choice-of.js";
import { LedgerError } from "../../../../src/ledger/errors.js";
import type { ContractRecord } from "../../../../src/ledger/records.js";
import type { Template } from "../../../../src/ledger/template.js";
import { simpleTransferContext, type PaymentTransferContext, type TransferInput } from "../../../../src/templates/splice/index.js";
import type { CcFixture } from "../../../support/cc-fixture.js";

/** Holding-fee rate of a holding created on the default network: 0.0000190259 USD / 0.005 USD/CC. */
export const RATE = "0.0038051800";
export const SECOND = 1_000_000n;
export const DAY = 86_400n * SECOND;

export async function act<P, R = Record<string, unknown>>(
  fx: CcFixture,
  actAs: readonly string[],
  template: Template<P>,
  cid: string,
  choice: string,
  arg: unknown,
  disclose: readonly ContractRecord[] = [],
): Promise<R> {
  const { result } = await fx.client.exercise(actAs, template, cid, choiceOf<P, unknown, R>(template, choice), arg, {
    disclosed: [...(await fx.disclosed()), ...disclose],
  });
  return result;
}

/** The record of an active contract, to disclose it to a party that is not a stakeholder. */
export async function recordOf<P>(fx: CcFixture, template: Template<P>, cid: string): Promise<ContractRecord> {
  const c = await fx.client.contract(template, cid);
  if (!c) throw new Error(`${cid} is not active`);
  return c.record;
}

export async function paymentContext(fx: CcFixture, featuredAppRight: string | null = null): Promise<PaymentTransferContext> {
  const s = await fx.network();
  return { amuletRules: s.rules.contractId, context: simpleTransferContext((await fx.openRound()).contractId, featuredAppRight) };
}

export const amuletInputs = (cids: readonly string[]): TransferInput[] => cids.map((value) => ({ tag: "InputAmulet", value }));

/** Every holding of the parties as "owner-hint cid amount", sorted: equal snapshots mean nothing moved. */
export async function snapshot(fx: CcFixture, parties: readonly string[]): Promise<string[]> {
  const rows: string[] = [];
  for (const p of parties) for (const h of await fx.holdings(p)) rows.push(`${p} ${h.contractId} ${h.payload.amount.initialAmount}`);
  return rows.sort();
}

/** Amounts of a party's holdings, sorted ascending as strings at scale 10. */
export async function amounts(fx: CcFixture, party: string): Promise<string[]> {
  return (await fx.holdings(party)).map((h) => h.payload.amount.initialAmount.toString()).sort((a, b) => Number(a) - Number(b));
}

/** Expects the submission to be refused with `code` and a message containing `message`, and no holding of `parties` to change. */
export async function expectRefused(fx: CcFixture, parties: readonly string[], code: string, message: string, submit: () => Promise<unknown>): Promise<void> {
  const before = await snapshot(fx, parties);
  const error = await submit().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, `expected ${code}`).toBeInstanceOf(LedgerError);
  expect((error as LedgerError).code).toBe(code);
  expect((error as LedgerError).message).toContain(message);
  expect(await snapshot(fx, parties)).toEqual(before);
}
