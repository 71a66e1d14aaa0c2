/** The shape error of the Canton JSON codec, and the two checks every decoder part starts from. */
import { expected } from "./json-shape.js";

export type JsonObject = { [key: string]: unknown };

/** A JSON shape error: `path` like `commands.commands[0].CreateCommand.templateId`, `problem` what is wrong there. */
export class CantonJsonError extends Error {
  constructor(
    readonly path: string,
    readonly problem: string,
    options?: { cause?: unknown },
  ) {
    super(`${path || "(root)"}: ${problem}`, options);
    this.name = "CantonJsonError";
  }
}

export function fail(path: string, problem: string): never {
  throw new CantonJsonError(path, problem);
}

export function expectObject(v: unknown, path: string): JsonObject {
  if (typeof v !== "object" || v === null || Array.isArray(v)) fail(path, expected("an object", v));
  return v as JsonObject;
}
