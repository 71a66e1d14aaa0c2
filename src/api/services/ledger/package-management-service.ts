/**
 * PackageManagementService: DAR uploads and the packages known to the participant. Admin-only, as
 * in Canton. An uploaded DAR is read (src/dar), each package stored once by id (uploading again
 * is a no-op), and from then on listed and served by PackageService. Its templates are not run:
 * the interpreter only knows the built-in ones, so commands on them fail as for unknown templates.
 */
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import {
  PackageManagementService,
  type PackageDetailsSchema,
  type UploadDarFileRequest,
} from "../../../../gen/com/daml/ledger/api/v2/admin/package_management_service_pb.js";
import { requireAdmin } from "../../../auth/index.js";
import { readDar } from "../../../dar/index.js";
import { errors } from "../../../ledger/errors.js";
import { timestampOf } from "../../convert/ledger-proto.js";
import { authenticate } from "./authenticate.js";
import { guard } from "./connect-error.js";
import type { LedgerApi } from "./ledger-api.js";

type PackageDetails = MessageInitShape<typeof PackageDetailsSchema>;

/** Reads the DAR and stores each of its packages not stored yet. */
export async function uploadDar(api: LedgerApi, req: UploadDarFileRequest): Promise<void> {
  if (req.darFile.length === 0) throw errors.missingField("dar_file");
  if (req.darFile.length > api.maxDarBytes) throw errors.invalidRequest(`the DAR has ${req.darFile.length} bytes, more than the limit of ${api.maxDarBytes}`);
  if (req.synchronizerId !== "" && req.synchronizerId !== api.identity.synchronizerId) throw errors.invalidPrescribedSynchronizer(req.synchronizerId);
  const dar = readDar(req.darFile);
  const knownSince = api.clock.now();
  for (const p of dar.packages) {
    await api.store.addPackage({ packageId: p.packageId, payload: p.payload, name: p.name, version: p.version, knownSince });
  }
}

/** Built-in packages (no archive, no upload time) and uploaded ones, in package id order. */
export async function knownPackages(api: LedgerApi): Promise<PackageDetails[]> {
  const uploaded = await api.store.packages();
  const ids = new Set(uploaded.map((p) => p.packageId));
  const builtIn: PackageDetails[] = api.registry.packageIds().filter((id) => !ids.has(id)).map((packageId) => ({ packageId }));
  const stored: PackageDetails[] = uploaded.map((p) => ({
    packageId: p.packageId,
    packageSize: BigInt(p.size),
    knownSince: timestampOf(p.knownSince),
    name: p.name,
    version: p.version,
  }));
  return [...builtIn, ...stored].sort((a, b) => (a.packageId! < b.packageId! ? -1 : a.packageId! > b.packageId! ? 1 : 0));
}

export function packageManagementService(api: LedgerApi): ServiceImpl<typeof PackageManagementService> {
  return {
    listKnownPackages: (_req, ctx) =>
      guard(api.log, async () => {
        requireAdmin(await authenticate(api, ctx));
        return { packageDetails: await knownPackages(api) };
      }),
    uploadDarFile: (req, ctx) =>
      guard(api.log, async () => {
        requireAdmin(await authenticate(api, ctx));
        await uploadDar(api, req);
        return {};
      }),
  };
}
