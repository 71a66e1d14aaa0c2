/**
 * Builds a registry `ChoiceContext` as Splice's scan does: context entries (contract ids and
 * flags, as `AnyValue` in Daml-LF JSON) plus the contracts to disclose, each with the Ledger
 * API's created-event blob so a client can hand it back in `disclosed_contracts`.
 */
import { createdEventBlobOf } from "../ledger/created-event-blob.js";
import { formatIsoMicros, toDamlJson } from "../ledger/daml-type.js";
import type { ContractRecord } from "../ledger/records.js";
import { anyValue } from "../templates/splice/token-standard/choice-context.js";
import { ChoiceContext, type AnyValueV } from "../templates/splice/types.js";
import { extend } from "../util/extend.js";

export interface DisclosedContract {
  readonly templateId: string;
  readonly contractId: string;
  /** Base64 of the created-event blob. */
  readonly createdEventBlob: string;
  readonly synchronizerId: string;
  readonly debugPackageName?: string;
  readonly debugPayload?: unknown;
  readonly debugCreatedAt?: string;
}

export interface ChoiceContextWithDisclosures {
  /** `Splice.Api.Token.MetadataV1.ChoiceContext` in Daml-LF JSON: `{ values: { key: AnyValue } }`. */
  readonly choiceContextData: { readonly values: Readonly<Record<string, unknown>> };
  readonly disclosedContracts: readonly DisclosedContract[];
}

/**
 * Blobs by record: the stores hand out one immutable record per hot contract, and every transfer
 * context discloses the same AmuletRules (a large payload) and open round, whose blobs were
 * encoded again for each merge, offer and token-standard transfer.
 */
const blobs = new WeakMap<ContractRecord, string>();

function blobOf(record: ContractRecord): string {
  let blob = blobs.get(record);
  if (blob === undefined) blobs.set(record, (blob = Buffer.from(createdEventBlobOf(record)).toString("base64")));
  return blob;
}

export function toDisclosedContract(record: ContractRecord, synchronizerId: string, excludeDebugFields: boolean): DisclosedContract {
  const base = {
    templateId: record.templateId,
    contractId: record.contractId,
    createdEventBlob: blobOf(record),
    synchronizerId,
  };
  if (excludeDebugFields) return base;
  return extend(base, { debugPackageName: record.packageName, debugPayload: record.payload, debugCreatedAt: formatIsoMicros(record.createdAt) });
}

export class ChoiceContextBuilder {
  private readonly values = new Map<string, AnyValueV>();
  private readonly disclosed = new Map<string, DisclosedContract>();

  constructor(
    readonly synchronizerId: string,
    private readonly excludeDebugFields: boolean,
  ) {}

  disclose(record: ContractRecord): this {
    this.disclosed.set(record.contractId, toDisclosedContract(record, this.synchronizerId, this.excludeDebugFields));
    return this;
  }

  addContract(key: string, record: ContractRecord | undefined): this {
    if (!record) return this;
    this.values.set(key, anyValue.contractId(record.contractId));
    return this.disclose(record);
  }

  addBool(key: string, value: boolean): this {
    this.values.set(key, anyValue.bool(value));
    return this;
  }

  build(): ChoiceContextWithDisclosures {
    const data = toDamlJson(ChoiceContext, { values: this.values }) as ChoiceContextWithDisclosures["choiceContextData"];
    return { choiceContextData: data, disclosedContracts: [...this.disclosed.values()] };
  }
}
