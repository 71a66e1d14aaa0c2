/**
 * Uploaded Daml-LF packages in MongoDB: one document per package id, the payload as BSON binary
 * (a 16 MB document caps a package; Canton's own DARs are far smaller). The insert is an upsert
 * that only sets on insert, so two instances uploading the same DAR both succeed, once.
 */
import { Binary, type Collection } from "mongodb";
import type { PackageRecord, PackageStore, PackageSummary } from "../../ledger/store-port.js";
import type { InSession } from "./causal-clock.js";
import type { PackageDoc } from "./documents.js";
import type { SingleWrites } from "./single-writes.js";

export class MongoPackages implements PackageStore {
  /**
   * @param inSession runs each operation in the store's causally consistent session.
   * @param writes runs the upload's upsert there, answering REQUEST_TIME_OUT if its outcome is unknown.
   */
  constructor(
    private readonly packagesCol: Collection<PackageDoc>,
    private readonly inSession: InSession,
    private readonly writes: Pick<SingleWrites, "idempotent">,
  ) {}

  async addPackage(pkg: PackageRecord): Promise<boolean> {
    const doc = { name: pkg.name, version: pkg.version, knownSince: pkg.knownSince, size: pkg.payload.length, payload: new Binary(pkg.payload) };
    const result = await this.writes.idempotent(`package ${pkg.packageId}`, (session) =>
      this.packagesCol.updateOne({ _id: pkg.packageId }, { $setOnInsert: doc }, { upsert: true, session }),
    );
    return result.upsertedCount === 1;
  }

  async package(packageId: string): Promise<PackageRecord | undefined> {
    const doc = await this.inSession((session) => this.packagesCol.findOne({ _id: packageId }, { session }));
    if (!doc) return undefined;
    return { packageId: doc._id, name: doc.name, version: doc.version, knownSince: BigInt(doc.knownSince), payload: new Uint8Array(doc.payload.buffer) };
  }

  async packages(): Promise<PackageSummary[]> {
    const docs = await this.inSession((session) => this.packagesCol.find({}, { projection: { payload: 0 }, session }).sort({ _id: 1 }).toArray());
    return docs.map((d) => ({ packageId: d._id, name: d.name, version: d.version, knownSince: BigInt(d.knownSince), size: d.size }));
  }
}
