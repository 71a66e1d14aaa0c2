/** What the store takes from a connection string, and what it requires of the deployment. */
import type { Document, MongoClient } from "mongodb";
import { DEFAULT_MAX_DOCUMENT_BYTES } from "./document-size.js";

const DEFAULT_DB_NAME = "ccwallet";

/**
 * Scheme, hosts (after any credentials) and path of a connection string. The spec requires
 * `/`, `?` and `@` inside credentials to be percent-encoded, so these separators are unambiguous;
 * the driver has validated the whole string before this runs.
 */
const URI_PARTS = /^(mongodb(?:\+srv)?):\/\/(?:[^@/?]*@)?([^/?]*)(?:\/([^?]*))?/;

export interface UriParts {
  readonly dbName: string;
  /** `scheme://hosts/db`, without credentials or options: safe for logs. */
  readonly description: string;
}

export function parseUri(uri: string, dbName?: string): UriParts {
  const match = URI_PARTS.exec(uri);
  const [, scheme = "mongodb", hosts = "", path = ""] = match ?? [];
  // The driver would default to "test"; the path is parsed here to tell "absent" from "test".
  const name = dbName ?? (path === "" ? DEFAULT_DB_NAME : decodeURIComponent(path));
  return { dbName: name, description: `${scheme}://${hosts}/${name}` };
}

export interface Deployment {
  /** A replica set member or a mongos: what transactions and change streams need. */
  readonly replicated: boolean;
  /** The largest document the server takes (`maxBsonObjectSize`). */
  readonly maxDocumentBytes: number;
}

/** What the store needs to know of a `hello` answer. */
export function deploymentOf(hello: Document): Deployment {
  const max = hello.maxBsonObjectSize;
  return {
    replicated: typeof hello.setName === "string" || hello.msg === "isdbgrid",
    maxDocumentBytes: typeof max === "number" && Number.isInteger(max) && max > 0 ? max : DEFAULT_MAX_DOCUMENT_BYTES,
  };
}

/**
 * Multi-document transactions and change streams need a replica set or a sharded cluster: say so
 * when connecting rather than at the first commit.
 */
export async function checkDeployment(client: MongoClient): Promise<Deployment> {
  const deployment = deploymentOf(await client.db("admin").command({ hello: 1 }));
  if (!deployment.replicated) {
    throw new Error("the MongoDB store needs a replica set or a sharded cluster (a standalone mongod has no transactions or change streams)");
  }
  return deployment;
}
