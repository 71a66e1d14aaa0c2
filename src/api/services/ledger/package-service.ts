/**
 * PackageService: the packages of the built-in templates (Splice's and the demo's), by the ids
 * their qualified names carry, and those uploaded in DARs (package-management-service.ts).
 * Built-in packages have no Daml-LF archive to hand out; uploaded ones answer with theirs.
 */
import type { ServiceImpl } from "@connectrpc/connect";
import { HashFunction, PackageService, PackageStatus } from "../../../../gen/com/daml/ledger/api/v2/package_service_pb.js";
import { errors } from "../../../ledger/errors.js";
import { authenticate } from "./authenticate.js";
import { guard } from "./connect-error.js";
import type { LedgerApi } from "./ledger-api.js";

const PACKAGE_ID = /^[0-9a-f]{64}$/;

export function packageService(api: LedgerApi): ServiceImpl<typeof PackageService> {
  const builtIn = (id: string) => api.registry.packageIds().includes(id);
  const known = async (id: string) => builtIn(id) || (await api.store.package(id)) !== undefined;
  const checkedId = (id: string) => {
    if (id === "") throw errors.missingField("package_id");
    if (!PACKAGE_ID.test(id)) throw errors.invalidField("package_id", `Invalid package id ${JSON.stringify(id)}`);
    return id;
  };
  return {
    listPackages: (_req, ctx) =>
      guard(api.log, async () => {
        await authenticate(api, ctx);
        const uploaded = (await api.store.packages()).map((p) => p.packageId);
        return { packageIds: [...new Set([...api.registry.packageIds(), ...uploaded])].sort() };
      }),
    getPackageStatus: (req, ctx) =>
      guard(api.log, async () => {
        await authenticate(api, ctx);
        // Canton answers an unknown package with UNSPECIFIED, not an error.
        return { packageStatus: (await known(checkedId(req.packageId))) ? PackageStatus.REGISTERED : PackageStatus.UNSPECIFIED };
      }),
    getPackage: (req, ctx) =>
      guard(api.log, async () => {
        await authenticate(api, ctx);
        const id = checkedId(req.packageId);
        const stored = await api.store.package(id);
        if (stored) return { archivePayload: stored.payload, hash: stored.packageId, hashFunction: HashFunction.SHA256 };
        if (!builtIn(id)) throw errors.packageNotFound(id);
        throw errors.unimplemented(`package ${id} is built into this participant and has no Daml-LF archive`);
      }),
  };
}
