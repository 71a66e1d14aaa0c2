/**
 * The Splice packages this node serves, by Daml package name, with the versions whose template
 * shapes we follow. Template ids are `#<package-name>:<Module>:<Entity>` for clients and
 * `<package-id>:<Module>:<Entity>` on events; package ids are derived from name and version.
 */
import { qualifiedName } from "../../ledger/registry.js";
import type { TypeRef } from "../../ledger/daml-type.js";
import type { QualifiedName } from "../../ledger/template.js";

export const PACKAGES = {
  amulet: { name: "splice-amulet", version: "0.1.14" },
  wallet: { name: "splice-wallet", version: "0.1.14" },
  walletPayments: { name: "splice-wallet-payments", version: "0.1.14" },
  metadataV1: { name: "splice-api-token-metadata-v1", version: "1.0.0" },
  holdingV1: { name: "splice-api-token-holding-v1", version: "1.0.0" },
  transferInstructionV1: { name: "splice-api-token-transfer-instruction-v1", version: "1.0.0" },
  allocationV1: { name: "splice-api-token-allocation-v1", version: "1.0.0" },
  allocationInstructionV1: { name: "splice-api-token-allocation-instruction-v1", version: "1.0.0" },
  allocationRequestV1: { name: "splice-api-token-allocation-request-v1", version: "1.0.0" },
  tokenStandardWallet: { name: "splice-util-token-standard-wallet", version: "1.0.0" },
} as const;

export type PackageKey = keyof typeof PACKAGES;

/** Identity of a template or interface in one of the Splice packages. */
export function spliceName(pkg: PackageKey, moduleName: string, entityName: string): QualifiedName {
  const { name, version } = PACKAGES[pkg];
  return qualifiedName(name, version, moduleName, entityName);
}

/** Type reference of a Daml data type (records and variants carry it in verbose output). */
export function spliceType(pkg: PackageKey, moduleName: string, entityName: string): TypeRef {
  return { packageName: PACKAGES[pkg].name, moduleName, entityName };
}
