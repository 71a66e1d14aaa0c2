/** Reading request bodies and writing responses on node:http, shared by both JSON dialects. */
import type { IncomingMessage, ServerResponse } from "node:http";
import { CallContext } from "../context/index.js";
import type { Route } from "./route-table.js";
import { endThisTurn } from "./turn-writes.js";

/** A body over its limit; `limit` says which (the JSON one, or the larger one of binary uploads). */
export class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`the body exceeds ${limit} bytes`);
  }
}

/**
 * How much of an oversized body is read and dropped after the limit, so the client (still sending)
 * reads the 413 instead of a reset; past this the connection is cut.
 */
const DRAIN_BYTES = 64 * 1024 * 1024;

/**
 * The body as text, or BodyTooLarge past `limit` — declared by Content-Length or counted while a
 * chunked body arrives. Either way the rest is drained (up to DRAIN_BYTES) and the caller answers
 * 413: destroying the request would reset the connection before the client sees the answer.
 */
export async function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return (await readBodyBytes(req, limit)).toString("utf8");
}

/** The body as bytes, with readBody's limit handling (DAR uploads). */
export function readBodyBytes(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    const refuse = () => {
      tooLarge = true;
      chunks.length = 0;
      reject(new BodyTooLarge(limit));
    };
    if (Number(req.headers["content-length"] ?? "0") > limit) refuse();
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (tooLarge) {
        if (size > limit + DRAIN_BYTES) req.destroy();
      } else if (size > limit) refuse();
      else chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

export function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  endThisTurn(res, text);
}

export function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

/** The handler context a routed JSON request hands to the service implementation the gRPC port serves. */
export function handlerContextOf(route: Route, protocolName: string, href: string, req: IncomingMessage): CallContext {
  return new CallContext(route.service, route.method, href, req.headers, { protocolName, requestMethod: req.method ?? "GET" });
}
