/**
 * A separate process holding N idle completion streams open on a node (grpc-js, one channel), so
 * that what they cost the node is measured apart from what reading them costs a client. Prints
 * "ready <n>" once every stream is open, counts what arrives, exits when stdin closes.
 *
 *   tsx bench/streams/idle-streams-client.ts <grpc host:port> <token> <party> <n>
 */
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";

const [address, token, party, count] = process.argv.slice(2);
const def = protoLoader.loadSync(["com/daml/ledger/api/v2/command_completion_service.proto"], { includeDirs: ["proto"], longs: String, enums: String, defaults: true, oneofs: true });
const v2 = (grpc.loadPackageDefinition(def) as unknown as { com: { daml: { ledger: { api: { v2: { CommandCompletionService: grpc.ServiceClientConstructor } } } } } }).com.daml.ledger.api.v2;
const client = new v2.CommandCompletionService(address, grpc.credentials.createInsecure(), { "grpc.max_concurrent_streams": 100_000 });
const meta = new grpc.Metadata();
meta.set("authorization", `Bearer ${token}`);

let received = 0;
let failed = 0;
const streams: grpc.ClientReadableStream<unknown>[] = [];
for (let i = 0; i < Number(count); i++) {
  const s = (client as unknown as { completionStream: (req: unknown, md: grpc.Metadata) => grpc.ClientReadableStream<unknown> }).completionStream({ parties: [party] }, meta);
  s.on("data", () => received++);
  s.on("error", (e: grpc.ServiceError) => {
    if (e.code !== grpc.status.CANCELLED) failed++;
  });
  streams.push(s);
}
// The server answers nothing on an idle stream until the ledger moves: give the calls time to start.
setTimeout(() => process.stdout.write(`ready ${streams.length} failed ${failed}\n`), 1500);
process.stdin.on("data", () => process.stdout.write(`received ${received} failed ${failed}\n`));
process.stdin.on("end", () => {
  for (const s of streams) s.cancel();
  client.close();
  process.exit(0);
});
