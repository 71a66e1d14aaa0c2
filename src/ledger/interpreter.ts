/**
 * Runs a submission's commands against a snapshot of active contracts and produces the
 * transaction tree plus what the commit must check (inputs) and change (archives, creates).
 * It enforces Daml's authorization rules: creates need their signatories, exercises their
 * controllers, fetches a stakeholder; inside a choice the authorizers are the controllers and the
 * contract's signatories.
 */
import type { Command, Submission } from "./commands.js";
import { decodedPayload, rememberPayload } from "./decoded-payloads.js";
import { toDamlJson, ValueError } from "./daml-type.js";
import { errors, LedgerError } from "./errors.js";
import { contractSalt, newContractId, type ContractId } from "./ids.js";
import { union } from "./party-union.js";
import { NumericError, NumericOverflowError } from "./numeric.js";
import type { FetchRecord } from "./fetch-record.js";
import type { InterpretedTransaction } from "./interpreted-transaction.js";
import type { ContractRecord, ExerciseNodeRecord, NodeRecord } from "./records.js";
import type { TemplateRegistry } from "./registry.js";
import type { Choice, InterfaceChoice, InterfaceDef, Template, TemplateRef, UpdateContext } from "./template.js";
import { qualifiedId } from "./template.js";
import { compareLedgerTime, UNBOUNDED, type TimeBounds, type TimeComparison } from "./time-bounds.js";
import { isTemplate, updateContextOf } from "./update-context.js";
import { extend } from "../util/extend.js";

export interface ContractReader {
  activeContract(contractId: string): Promise<ContractRecord | undefined>;
  activeContractByKey(keyHash: string): Promise<ContractRecord | undefined>;
}

interface LiveContract {
  readonly record: Omit<ContractRecord, "createdOffset"> | ContractRecord;
  readonly template: Template<unknown>;
  readonly payload: unknown;
  readonly local: boolean;
  active: boolean;
}

export type { FetchRecord } from "./fetch-record.js";
export type { InterpretedTransaction } from "./interpreted-transaction.js";

export function keyHashOf(template: Template<unknown>, key: unknown): string {
  return `${qualifiedId(template.id)}|${JSON.stringify(toDamlJson(template.key!.type, key))}`;
}

export async function interpret(
  submission: Submission,
  registry: TemplateRegistry,
  reader: ContractReader,
  ledgerTime: bigint,
  updateSeed: string,
  updateId: string,
  recordFetches = false,
): Promise<InterpretedTransaction> {
  const run = new Interpretation(submission, registry, reader, ledgerTime, updateSeed, updateId, recordFetches);
  const results: unknown[] = [];
  try {
    for (const command of submission.commands) results.push(await run.command(command));
  } catch (e) {
    throw asLedgerError(e);
  }
  return extend(run.result(), { results });
}

function asLedgerError(e: unknown): LedgerError {
  if (e instanceof LedgerError) return e;
  if (e instanceof NumericOverflowError) return errors.arithmeticOverflow(e.message);
  if (e instanceof ValueError || e instanceof NumericError) return errors.interpretation(e.message);
  return errors.internal(e instanceof Error ? e.message : String(e));
}

class Interpretation {
  private readonly nodes: NodeRecord[] = [];
  private readonly contracts = new Map<string, LiveContract>();
  private readonly inputs = new Set<string>();
  private readonly archived = new Set<string>();
  private missedKeyLookup = false;
  private timeRead = false;
  private timeBounds: TimeBounds = UNBOUNDED;
  private readonly visibleTo: Set<string>;
  private readonly disclosed: Set<string>;
  /** Recorded fetches (when asked for) and the exercises whose bodies are running, innermost last. */
  private readonly fetches: FetchRecord[] | undefined;
  private readonly running: number[] = [];

  constructor(
    private readonly submission: Submission,
    private readonly registry: TemplateRegistry,
    private readonly reader: ContractReader,
    private readonly ledgerTime: bigint,
    private readonly updateSeed: string,
    private readonly updateId: string,
    recordFetches: boolean,
  ) {
    this.fetches = recordFetches ? [] : undefined;
    this.visibleTo = new Set([...submission.actAs, ...submission.readAs]);
    this.disclosed = new Set(submission.disclosed.map((c) => c.contractId));
  }

  result(): Omit<InterpretedTransaction, "results"> {
    const creates = [...this.contracts.values()]
      .filter((c) => c.local && c.active)
      .map((c) => c.record as Omit<ContractRecord, "createdOffset">);
    return {
      nodes: this.nodes,
      ...(this.fetches ? { fetches: this.fetches } : {}),
      inputs: [...this.inputs],
      archives: [...this.archived],
      creates,
      replayable: !this.missedKeyLookup,
      usesTime: this.timeRead,
      timeBounds: this.timeBounds,
    };
  }

  /** Runs one command; returns what its root returned (a create: the contract id). */
  async command(cmd: Command): Promise<unknown> {
    const top = new Set(this.submission.actAs);
    const witnesses: string[] = [];
    switch (cmd.kind) {
      case "create":
        return this.create(cmd.template, cmd.payload, top, witnesses);
      case "createAndExercise": {
        const cid = await this.create(cmd.template, cmd.payload, top, witnesses);
        return this.exerciseTemplate(cmd.template, cid, this.choiceOf(cmd.template, cmd.choice), cmd.argument, top, witnesses, true);
      }
      case "exercise": {
        if (cmd.target.kind === "template") {
          const tpl = cmd.target.template;
          return this.exerciseTemplate(tpl, cmd.contractId, this.choiceOf(tpl, cmd.choice), cmd.argument, top, witnesses, true);
        }
        const iface = cmd.target.iface;
        const ch = iface.choices.get(cmd.choice);
        if (!ch) throw errors.invalidArgument(`Couldn't find requested choice ${cmd.choice} of interface ${qualifiedId(iface.id)}`);
        return this.exerciseInterface(iface, cmd.contractId, ch, cmd.argument, top, witnesses, true);
      }
      case "exerciseByKey": {
        if (!cmd.template.key) throw errors.invalidArgument(`Template ${qualifiedId(cmd.template.id)} has no contract key`);
        const hash = keyHashOf(cmd.template, cmd.key);
        const cid = await this.findByKey(hash, "command");
        if (!cid) throw errors.contractKeyNotFound(JSON.stringify(toDamlJson(cmd.template.key.type, cmd.key)));
        return this.exerciseTemplate(cmd.template, cid, this.choiceOf(cmd.template, cmd.choice), cmd.argument, top, witnesses, true);
      }
    }
  }

  private choiceOf(template: Template<unknown>, name: string): Choice<unknown> {
    const c = template.choices.get(name);
    if (!c) throw errors.invalidArgument(`Couldn't find requested choice ${name} for template ${qualifiedId(template.id)}`);
    return c;
  }

  private async load(cid: string, topLevel: boolean): Promise<LiveContract> {
    let live = this.contracts.get(cid);
    if (!live) {
      const rec = await this.reader.activeContract(cid);
      if (!rec) throw errors.contractNotFound(cid);
      const template = this.registry.template(rec.templateId);
      live = { record: rec, template, payload: decodedPayload(template.payload, rec), local: false, active: true };
      this.contracts.set(cid, live);
      this.inputs.add(cid);
    }
    if (!live.active) throw errors.contractNotFound(cid);
    if (!live.local && !this.visible(live.record, topLevel)) throw errors.contractNotFound(cid);
    return live;
  }

  /**
   * The key's active contract: for a command or a choice body's lookup, only one the submission may
   * see (a key of a hidden contract is not found either); for a create's uniqueness check, any.
   */
  private async findByKey(hash: string, by: "command" | "body" | "uniqueness"): Promise<string | undefined> {
    for (const [cid, c] of this.contracts) if (c.active && c.record.keyHash === hash) return cid;
    const rec = await this.reader.activeContractByKey(hash);
    if (!rec || this.archived.has(rec.contractId)) return undefined;
    return by === "uniqueness" || this.visible(rec, by === "command") ? rec.contractId : undefined;
  }

  /**
   * As Canton looks contracts up for the submission's readers (actAs and readAs), in choice bodies
   * too unless the node's own application submits: one they cannot see (nor disclosed) is not
   * found, whatever its state.
   */
  private visible(rec: Pick<ContractRecord, "contractId" | "signatories" | "observers">, topLevel: boolean): boolean {
    if ((!topLevel && this.submission.visibility === "node") || this.disclosed.has(rec.contractId)) return true;
    return rec.signatories.some((p) => this.visibleTo.has(p)) || rec.observers.some((p) => this.visibleTo.has(p));
  }

  private checkAuthorized(required: readonly string[], authorizers: ReadonlySet<string>, what: string): void {
    const missing = required.filter((p) => !authorizers.has(p));
    if (missing.length > 0) {
      throw errors.authorization(`node ${what} requires authorizers ${required.join(", ")}, but only ${[...authorizers].join(", ")} were given`);
    }
  }

  private async create(template: Template<unknown>, payload: unknown, authorizers: ReadonlySet<string>, ancestors: readonly string[]): Promise<ContractId> {
    const problem = template.ensure?.(payload);
    if (problem) throw errors.interpretation(`Template precondition violated in ${qualifiedId(template.id)}: ${problem}`);
    const signatories = union(template.signatories(payload));
    const observers = union(template.observers(payload)).filter((p) => !signatories.includes(p));
    if (signatories.length === 0) throw errors.interpretation(`${qualifiedId(template.id)} has no signatories`);
    this.checkAuthorized(signatories, authorizers, `create ${qualifiedId(template.id)}`);
    const nodeId = this.nodes.length;
    const contractId = newContractId(this.updateSeed, nodeId);
    let key: unknown;
    let keyHash: string | undefined;
    if (template.key) {
      const k = template.key.of(payload);
      const maintainers = template.key.maintainers(k);
      if (!maintainers.every((m) => signatories.includes(m))) throw errors.interpretation("key maintainers must be signatories");
      keyHash = keyHashOf(template, k);
      if (await this.findByKey(keyHash, "uniqueness")) throw errors.duplicateContractKey(JSON.stringify(toDamlJson(template.key.type, k)));
      key = toDamlJson(template.key.type, k);
    }
    const json = toDamlJson(template.payload, payload);
    rememberPayload(template.payload, json, payload);
    const salt = contractSalt(this.updateSeed, nodeId);
    const record: Omit<ContractRecord, "createdOffset"> = {
      contractId,
      templateId: qualifiedId(template.id),
      packageName: template.id.packageName,
      payload: json,
      signatories,
      observers,
      ...(keyHash ? { key, keyHash } : {}),
      createdAt: this.ledgerTime,
      createUpdateId: this.updateId,
      nodeId,
      salt,
    };
    this.nodes.push({
      kind: "create",
      nodeId,
      contractId,
      templateId: record.templateId,
      packageName: record.packageName,
      payload: json,
      signatories,
      observers,
      ...(keyHash ? { key } : {}),
      salt,
      witnesses: union(ancestors, signatories, observers),
    });
    this.contracts.set(contractId, { record, template, payload, local: true, active: true });
    return contractId;
  }

  private async exerciseTemplate(
    template: TemplateRef<unknown>,
    cid: string,
    choice: Choice<unknown>,
    argument: unknown,
    authorizers: ReadonlySet<string>,
    ancestors: readonly string[],
    topLevel: boolean,
  ): Promise<unknown> {
    const live = await this.load(cid, topLevel);
    if (!isTemplate(live.template, template)) {
      throw errors.interpretation(`Contract ${cid} is of template ${live.record.templateId}, not ${qualifiedId(template.id)}`);
    }
    return this.runChoice(live, cid, choice, argument, authorizers, ancestors, undefined, (ctx) =>
      choice.body(ctx, { contractId: cid as ContractId, payload: live.payload }, argument),
    );
  }

  private async exerciseInterface(
    iface: InterfaceDef<unknown>,
    cid: string,
    choice: InterfaceChoice<unknown>,
    argument: unknown,
    authorizers: ReadonlySet<string>,
    ancestors: readonly string[],
    topLevel: boolean,
  ): Promise<unknown> {
    const live = await this.load(cid, topLevel);
    const impl = live.template.interfaces.find((i) => i.iface === iface);
    if (!impl) throw errors.interpretation(`Contract ${cid} does not implement interface ${qualifiedId(iface.id)}`);
    const body = impl.choices[choice.name];
    if (!body) throw errors.internal(`template ${live.record.templateId} lacks a body for ${choice.name}`);
    const view = impl.view(live.payload);
    const asTemplateChoice: Choice<unknown> = {
      name: choice.name,
      consuming: choice.consuming,
      argument: choice.argument,
      result: choice.result,
      controllers: (_p, a) => choice.controllers(view, a),
      body: () => undefined,
    };
    return this.runChoice(live, cid, asTemplateChoice, argument, authorizers, ancestors, iface, (ctx) =>
      body(ctx, { contractId: cid as ContractId, payload: live.payload }, argument as never),
    );
  }

  private async runChoice(
    live: LiveContract,
    cid: string,
    choice: Choice<unknown>,
    argument: unknown,
    authorizers: ReadonlySet<string>,
    ancestors: readonly string[],
    iface: InterfaceDef<unknown> | undefined,
    body: (ctx: UpdateContext) => Promise<unknown> | unknown,
  ): Promise<unknown> {
    const { template, record } = live;
    const controllers = union(choice.controllers(live.payload, argument));
    if (controllers.length === 0) throw errors.interpretation(`choice ${choice.name} has no controllers`);
    this.checkAuthorized(controllers, authorizers, `exercise ${choice.name} on ${cid}`);
    const choiceObservers = choice.choiceObservers?.(live.payload, argument) ?? [];
    const stakeholders = union(record.signatories, record.observers);
    const informees = choice.consuming
      ? union(stakeholders, controllers, choiceObservers)
      : union(record.signatories, controllers, choiceObservers);
    const witnesses = union(ancestors, informees);
    const nodeId = this.nodes.length;
    // Placeholder keeps pre-order numbering; the full node is written once the body has run.
    this.nodes.push(undefined as unknown as NodeRecord);
    if (choice.consuming) {
      live.active = false;
      if (!live.local) this.archived.add(cid);
    }
    const inner = new Set([...controllers, ...record.signatories]);
    if (this.fetches) this.running.push(nodeId);
    const result = await body(this.context(inner, witnesses));
    if (this.fetches) this.running.pop();
    const node: ExerciseNodeRecord = {
      kind: "exercise",
      nodeId,
      contractId: cid,
      templateId: record.templateId,
      packageName: record.packageName,
      ...(iface ? { interfaceId: qualifiedId(iface.id) } : {}),
      choice: choice.name,
      argument: toDamlJson(choice.argument, argument),
      result: toDamlJson(choice.result, result),
      actingParties: controllers,
      consuming: choice.consuming,
      lastDescendantNodeId: this.nodes.length - 1,
      witnesses,
      stakeholders,
      implementedInterfaces: template.interfaces.map((i) => qualifiedId(i.iface.id)),
      signatories: record.signatories,
      choiceObservers: union(choiceObservers),
    };
    this.nodes[nodeId] = node;
    return result;
  }

  private recordFetch(cid: string, live: LiveContract, stakeholders: readonly string[], authorizers: ReadonlySet<string>, iface: InterfaceDef<unknown> | undefined): void {
    const parent = this.running[this.running.length - 1];
    if (parent === undefined) return; // a fetch runs in a choice body; there is always one
    const { record } = live;
    this.fetches!.push({
      parent,
      before: this.nodes.length,
      contractId: cid,
      templateId: record.templateId,
      packageName: record.packageName,
      ...(iface ? { interfaceId: qualifiedId(iface.id) } : {}),
      signatories: record.signatories,
      stakeholders: union(stakeholders),
      actingParties: union(stakeholders).filter((p) => authorizers.has(p)),
    });
  }

  private compareTime(op: TimeComparison, time: bigint): boolean {
    const { answer, bounds } = compareLedgerTime(this.timeBounds, this.ledgerTime, op, time);
    this.timeBounds = bounds;
    return answer;
  }

  /** The context a choice body runs with: its effects bound to its authorizers and witnesses. */
  private context(authorizers: ReadonlySet<string>, witnesses: readonly string[]): UpdateContext {
    // Methods, not arrow properties: tsx (esbuild's keepNames) wraps each named arrow in a `name`
    // redefinition at creation, which cost a choice as much as its body's own work.
    const self = this;
    return updateContextOf({
      readTime() {
        self.timeRead = true;
        return self.ledgerTime;
      },
      compareTime(op, time) {
        return self.compareTime(op, time);
      },
      fetch(cid, iface) {
        return self.fetchInBody(cid, authorizers, iface);
      },
      create(template, payload) {
        return self.create(template, payload, authorizers, witnesses);
      },
      exercise(template, cid, choice, argument) {
        return self.exerciseTemplate(template, cid, choice, argument, authorizers, witnesses, false);
      },
      exerciseInterface(iface, cid, choice, argument) {
        return self.exerciseInterface(iface, cid, choice, argument, authorizers, witnesses, false);
      },
      lookupByKey(template, key) {
        return self.lookupByKey(template, key, authorizers);
      },
    });
  }

  /** A body's fetch: one of the contract's stakeholders must authorize it. */
  private async fetchInBody(cid: string, authorizers: ReadonlySet<string>, iface: InterfaceDef<unknown> | undefined): Promise<LiveContract> {
    const live = await this.load(cid, false);
    const stakeholders = [...live.record.signatories, ...live.record.observers];
    if (!stakeholders.some((p) => authorizers.has(p))) {
      throw errors.authorization(`fetch of ${cid} requires one of its stakeholders ${stakeholders.join(", ")} as authorizer`);
    }
    if (this.fetches) this.recordFetch(cid, live, stakeholders, authorizers, iface);
    return live;
  }

  /** A body's key lookup: its maintainers must authorize it; a key it cannot see is not found. */
  private async lookupByKey(template: Template<unknown>, key: unknown, authorizers: ReadonlySet<string>): Promise<ContractId | null> {
    this.checkAuthorized(template.key!.maintainers(key), authorizers, `lookupByKey ${qualifiedId(template.id)}`);
    const cid = await this.findByKey(keyHashOf(template, key), "body");
    if (cid && !this.contracts.has(cid)) await this.load(cid, false);
    if (!cid) this.missedKeyLookup = true;
    return (cid ?? null) as ContractId | null;
  }
}
