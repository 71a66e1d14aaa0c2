/**
 * Commands as the engine sees them: already resolved against the registry and with arguments
 * parsed into in-memory Daml values. The API edges build these from protobuf or JSON.
 */
import type { ContractRecord } from "./records.js";
import type { Choice, InterfaceChoice, InterfaceDef, Template } from "./template.js";

export type Command =
  | { readonly kind: "create"; readonly template: Template<unknown>; readonly payload: unknown }
  | {
      readonly kind: "exercise";
      readonly target: { readonly kind: "template"; readonly template: Template<unknown> } | { readonly kind: "interface"; readonly iface: InterfaceDef<unknown> };
      readonly contractId: string;
      readonly choice: string;
      readonly argument: unknown;
    }
  | {
      readonly kind: "exerciseByKey";
      readonly template: Template<unknown>;
      readonly key: unknown;
      readonly choice: string;
      readonly argument: unknown;
    }
  | {
      readonly kind: "createAndExercise";
      readonly template: Template<unknown>;
      readonly payload: unknown;
      readonly choice: string;
      readonly argument: unknown;
    };

/** A create command, its payload typed by the template. */
export const createCommand = <P>(template: Template<P>, payload: P): Command => ({ kind: "create", template: template as Template<unknown>, payload });

/** An exercise command from a choice constant: the argument is typed by the choice, the choice by the template. */
export const exerciseCommand = <P, A>(template: Template<P>, contractId: string, choice: Choice<P, A, unknown>, argument: A): Command => ({
  kind: "exercise",
  target: { kind: "template", template: template as Template<unknown> },
  contractId,
  choice: choice.name,
  argument,
});

/** An exercise of an interface choice, typed like `exerciseCommand`. */
export const exerciseInterfaceCommand = <V, A>(iface: InterfaceDef<V>, contractId: string, choice: InterfaceChoice<V, A, unknown>, argument: A): Command => ({
  kind: "exercise",
  target: { kind: "interface", iface: iface as InterfaceDef<unknown> },
  contractId,
  choice: choice.name,
  argument,
});

export type DeduplicationPeriod =
  | { readonly kind: "none" }
  | { readonly kind: "duration"; readonly seconds: bigint; readonly nanos: number }
  | { readonly kind: "offset"; readonly offset: bigint };

export interface Submission {
  readonly userId: string;
  readonly commandId: string;
  readonly submissionId: string;
  readonly workflowId: string;
  readonly actAs: readonly string[];
  readonly readAs: readonly string[];
  readonly commands: readonly Command[];
  readonly deduplication: DeduplicationPeriod;
  /** Contracts the submitter may use without being a stakeholder (from created-event blobs). */
  readonly disclosed: readonly ContractRecord[];
  readonly minLedgerTimeAbs?: bigint;
  /**
   * Which contracts choice bodies may use. `readers` (the default): those the submission's actAs
   * and readAs parties are stakeholders of, or disclosed, as Canton looks contracts up for a
   * Ledger API submission; any other is not found, so a body cannot probe contracts its submitter
   * cannot see. `node`: every contract the node holds, for the node's own applications (wallet,
   * automation, the simulated DSO), which in Splice read them from the validator's store and
   * disclose them. A top-level command's contract is always checked against the readers.
   */
  readonly visibility?: "readers" | "node";
}
