/**
 * Backpressure of a WebSocket stream session, with a socket stand-in whose unsent bytes the test
 * controls: past the high-water mark the session stops pulling from the stream until the last
 * frame has been written out.
 */
import { EventEmitter } from "node:events";
import { createHandlerContext } from "@connectrpc/connect";
import pino from "pino";
import { describe, expect, it } from "vitest";
import type { WebSocket } from "ws";
import { CommandCompletionService, CompletionStreamResponseSchema } from "../../../gen/com/daml/ledger/api/v2/command_completion_service_pb.js";
import { serveStreamSession } from "../../../src/api/http/websocket-session.js";

/** A socket that never flushes on its own: `flush()` writes out what was sent. */
class SlowSocket extends EventEmitter {
  readonly OPEN = 1;
  readyState = 1;
  bufferedAmount = 0;
  sent: string[] = [];
  private callbacks: (() => void)[] = [];
  send(text: string, cb: () => void): void {
    this.sent.push(text);
    this.bufferedAmount += text.length;
    this.callbacks.push(cb);
  }
  flush(): void {
    this.bufferedAmount = 0;
    for (const cb of this.callbacks.splice(0)) cb();
  }
  close(): void {
    this.readyState = 3;
    this.emit("close", 1000, Buffer.alloc(0));
  }
}

const tick = () => new Promise((r) => setTimeout(r, 10));

describe("WebSocket stream session: backpressure", () => {
  it("pulls no further item while the socket holds more than the high-water mark", async () => {
    const ws = new SlowSocket();
    let pulled = 0;
    async function* items() {
      for (;;) {
        pulled++;
        yield { completionResponse: { case: "offsetCheckpoint" as const, value: { offset: BigInt(pulled), synchronizerTimes: [] } } };
      }
    }
    const abort = new AbortController();
    const method = CommandCompletionService.method.completionStream;
    const ctx = createHandlerContext({ service: CommandCompletionService, method, protocolName: "test", requestMethod: "GET", url: "ws://x/", requestSignal: abort.signal });
    const done = serveStreamSession(ws as unknown as WebSocket, {
      call: () => items(),
      decode: (json) => json,
      output: CompletionStreamResponseSchema,
      ctx,
      abort,
      highWaterBytes: 100,
      log: pino({ level: "silent" }),
    });
    ws.emit("message", Buffer.from("{}"), false);
    await tick();
    const held = ws.sent.length;
    expect(ws.bufferedAmount).toBeGreaterThan(100);
    expect(held).toBeLessThan(10); // ~60 bytes a frame: stopped right past 100 bytes
    await tick();
    expect(ws.sent.length).toBe(held);
    expect(pulled).toBe(held);
    ws.flush();
    await tick();
    expect(ws.sent.length).toBeGreaterThan(held);
    expect(JSON.parse(ws.sent[0])).toEqual({ completionResponse: { OffsetCheckpoint: { value: { offset: 1, synchronizerTimes: [] } } } });
    ws.close();
    await done;
    expect(abort.signal.aborted).toBe(true);
  });
});
