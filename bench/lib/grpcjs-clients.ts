/**
 * The @grpc/grpc-js client stack (protos loaded from proto/ at run time, as an independent client
 * in any language would use Canton's protos): one channel (one HTTP/2 connection) shared by all
 * concurrent callers, like the Connect transport in clients.ts.
 */
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const protoDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "proto");
const FILES = [
  "com/daml/ledger/api/v2/command_service.proto",
  "com/daml/ledger/api/v2/command_completion_service.proto",
  "com/daml/ledger/api/v2/version_service.proto",
];

type UnaryFn = (req: unknown, md: grpc.Metadata, cb: (err: grpc.ServiceError | null, res: Record<string, unknown>) => void) => void;
type StreamFn = (req: unknown, md: grpc.Metadata) => grpc.ClientReadableStream<Record<string, unknown>>;
interface V2 {
  CommandService: grpc.ServiceClientConstructor;
  CommandCompletionService: grpc.ServiceClientConstructor;
  VersionService: grpc.ServiceClientConstructor;
}

let v2: V2 | undefined;
function services(): V2 {
  if (v2) return v2;
  const def = protoLoader.loadSync(FILES, { includeDirs: [protoDir], longs: String, enums: String, defaults: false, oneofs: true });
  const pkg = grpc.loadPackageDefinition(def) as unknown as { com: { daml: { ledger: { api: { v2: V2 } } } } };
  v2 = pkg.com.daml.ledger.api.v2;
  return v2;
}

export interface GrpcJsClients {
  submitAndWaitForTransaction(party: string, commandId: string): Promise<Record<string, unknown>>;
  getLedgerApiVersion(): Promise<Record<string, unknown>>;
  completionStream(req: { userId: string; parties: string[]; beginExclusive: string }): grpc.ClientReadableStream<Record<string, unknown>>;
  close(): void;
}

/** `baseUrl` as for Connect (`http://host:port`). */
export function grpcJsClients(baseUrl: string, token?: string): GrpcJsClients {
  const s = services();
  const address = new URL(baseUrl).host;
  const creds = grpc.credentials.createInsecure();
  // One channel for all three clients: the same HTTP/2 connection.
  const commands = new s.CommandService(address, creds);
  const channelOverride = commands.getChannel();
  const completions = new s.CommandCompletionService(address, creds, { channelOverride });
  const version = new s.VersionService(address, creds, { channelOverride });
  const md = new grpc.Metadata();
  if (token) md.set("authorization", `Bearer ${token}`);
  const unary = (client: grpc.Client, method: string, req: unknown) =>
    new Promise<Record<string, unknown>>((resolve, reject) =>
      (client as unknown as Record<string, UnaryFn>)[method](req, md, (err, res) => (err ? reject(err) : resolve(res))),
    );
  return {
    submitAndWaitForTransaction: (party, commandId) => unary(commands, "submitAndWaitForTransaction", { commands: iouCommands(party, commandId) }),
    getLedgerApiVersion: () => unary(version, "getLedgerApiVersion", {}),
    completionStream: (req) => (completions as unknown as Record<string, StreamFn>).completionStream(req, md),
    close: () => commands.close(),
  };
}

/** The same one-create command as clients.ts `iouCommands`, in proto-loader's object form. */
function iouCommands(party: string, commandId: string) {
  return {
    commandId,
    actAs: [party],
    commands: [
      {
        create: {
          templateId: { packageId: "#ccwallet-demo", moduleName: "Ccwallet.Demo.Iou", entityName: "Iou" },
          createArguments: {
            fields: [
              { label: "issuer", value: { party } },
              { label: "owner", value: { party } },
              { label: "currency", value: { text: "CC" } },
              { label: "amount", value: { numeric: "10" } },
              { label: "observers", value: { list: { elements: [] } } },
            ],
          },
        },
      },
    ],
  };
}
