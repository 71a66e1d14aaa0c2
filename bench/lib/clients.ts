/**
 * Clients the load generator uses: a Connect gRPC client (HTTP/2, one session shared by all
 * concurrent callers, as a gRPC client channel does) and a keep-alive HTTP/1.1 JSON client
 * (one socket per concurrent caller).
 */
import { create } from "@bufbuild/protobuf";
import { createClient, type Client, type Transport } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import http from "node:http";
import { CommandService, SubmitAndWaitForTransactionRequestSchema, SubmitAndWaitRequestSchema } from "../../gen/com/daml/ledger/api/v2/command_service_pb.js";
import { CommandSubmissionService, SubmitRequestSchema } from "../../gen/com/daml/ledger/api/v2/command_submission_service_pb.js";
import { CommandsSchema, type Commands } from "../../gen/com/daml/ledger/api/v2/commands_pb.js";
import { CommandCompletionService } from "../../gen/com/daml/ledger/api/v2/command_completion_service_pb.js";
import { VersionService } from "../../gen/com/daml/ledger/api/v2/version_service_pb.js";
import type { Value } from "../../gen/com/daml/ledger/api/v2/value_pb.js";

export const IOU_JSON_ID = "#ccwallet-demo:Ccwallet.Demo.Iou:Iou";

/** gRPC over HTTP/2 (h2c): createGrpcTransport is always HTTP/2, it has no httpVersion option. */
export function grpcTransport(baseUrl: string, token?: string): Transport {
  return createGrpcTransport({
    baseUrl,
    interceptors: token
      ? [
          (next) => (req) => {
            req.header.set("authorization", `Bearer ${token}`);
            return next(req);
          },
        ]
      : [],
  });
}

export interface GrpcClients {
  readonly commands: Client<typeof CommandService>;
  readonly submission: Client<typeof CommandSubmissionService>;
  readonly completions: Client<typeof CommandCompletionService>;
  readonly version: Client<typeof VersionService>;
}

export function grpcClients(transport: Transport): GrpcClients {
  return {
    commands: createClient(CommandService, transport),
    submission: createClient(CommandSubmissionService, transport),
    completions: createClient(CommandCompletionService, transport),
    version: createClient(VersionService, transport),
  };
}

const party = (p: string): Value => ({ $typeName: "com.daml.ledger.api.v2.Value", sum: { case: "party", value: p } });

/** One CreateCommand of the demo Iou (issuer = owner = party, 10 CC), as a proto `Commands`. */
export function iouCommands(p: string, commandId: string): Commands {
  return create(CommandsSchema, {
    commandId,
    actAs: [p],
    commands: [
      {
        command: {
          case: "create",
          value: {
            templateId: { packageId: "#ccwallet-demo", moduleName: "Ccwallet.Demo.Iou", entityName: "Iou" },
            createArguments: {
              fields: [
                { label: "issuer", value: party(p) },
                { label: "owner", value: party(p) },
                { label: "currency", value: { sum: { case: "text", value: "CC" } } },
                { label: "amount", value: { sum: { case: "numeric", value: "10" } } },
                { label: "observers", value: { sum: { case: "list", value: { elements: [] } } } },
              ],
            },
          },
        },
      },
    ],
  });
}

export const grpcRequests = {
  submitAndWaitForTransaction: (p: string, commandId: string) =>
    create(SubmitAndWaitForTransactionRequestSchema, { commands: iouCommands(p, commandId) }),
  submitAndWait: (p: string, commandId: string) => create(SubmitAndWaitRequestSchema, { commands: iouCommands(p, commandId) }),
  submit: (p: string, commandId: string) => create(SubmitRequestSchema, { commands: iouCommands(p, commandId) }),
};

/** The same command in the JSON Ledger API's shape. */
export function iouJson(p: string, commandId: string): string {
  return JSON.stringify({
    commands: {
      commands: [{ CreateCommand: { templateId: IOU_JSON_ID, createArguments: { issuer: p, owner: p, currency: "CC", amount: "10", observers: [] } } }],
      commandId,
      actAs: [p],
    },
  });
}

export interface HttpClient {
  request(method: string, path: string, token: string | undefined, body?: string): Promise<{ status: number; body: string }>;
  close(): void;
}

/** Keep-alive HTTP/1.1 client; `sockets` bounds the pool (one per concurrent caller). */
export function httpClient(baseUrl: string, sockets: number): HttpClient {
  const url = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets });
  return {
    request(method, path, token, body) {
      return new Promise((resolve, reject) => {
        const headers: Record<string, string | number> = token ? { authorization: `Bearer ${token}` } : {};
        if (body !== undefined) Object.assign(headers, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
        const req = http.request({ agent, host: url.hostname, port: url.port, method, path, headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
          res.on("error", reject);
        });
        req.on("error", reject);
        req.end(body);
      });
    },
    close: () => agent.destroy(),
  };
}

export interface JsonClient {
  post(path: string, body: string): Promise<{ status: number; body: string }>;
  close(): void;
}

/** JSON POSTs as one user (`token`) over a keep-alive pool of `sockets`. */
export function jsonClient(baseUrl: string, token: string | undefined, sockets: number): JsonClient {
  const client = httpClient(baseUrl, sockets);
  return { post: (path, body) => client.request("POST", path, token, body), close: () => client.close() };
}
