/**
 * Verbose hashing (PrepareSubmissionResponse.hashing_details): a HashWriter that also writes every
 * encoded piece as a line of Canton's StringHashTracer format, `'<hex>' # <what>`, comment lines
 * `# <context>`, and the encodings of nested nodes and input contracts indented by two spaces
 * above the line of their hash. The lines that are not indented are exactly the bytes of the
 * top-level encoding: their SHA-256 is the prepared transaction hash (what a client checks).
 *
 * Only the leaf writes (byte, int32, int64, raw, string) are traced; the composite ones (bytes,
 * list, optional, bool) go through them, so each byte is written to the trace once.
 */
import { toHex } from "./canton-hash.js";
import { HashWriter } from "./hash-writer.js";

const hex = toHex;
const pad = (n: bigint | number, digits: number) => n.toString(16).padStart(digits, "0");

export class TracingHashWriter extends HashWriter {
  constructor(
    private readonly lines: string[] = [],
    private readonly level = 0,
  ) {
    super();
  }

  private line(text: string): void {
    this.lines.push("  ".repeat(this.level) + text);
  }

  override byte(b: number, label?: string): this {
    this.line(`'${pad(b & 0xff, 2)}' # ${label ?? pad(b & 0xff, 2)}`);
    return super.byte(b);
  }

  override int32(n: number): this {
    this.line(`'${pad(n >>> 0, 8)}' # ${n | 0} (int)`);
    return super.int32(n);
  }

  override int64(n: bigint): this {
    this.line(`'${pad(BigInt.asUintN(64, n), 16)}' # ${BigInt.asIntN(64, n)} (long)`);
    return super.int64(n);
  }

  /** `label` "contractId" shows the id itself, as Canton's trace does. */
  override raw(b: Uint8Array, label?: string): this {
    const h = hex(b);
    this.line(`'${h}' # ${label === "contractId" ? `${h} (contractId)` : (label ?? "")}`);
    return super.raw(b);
  }

  override string(s: string, kind = "string"): this {
    const bytes = Buffer.from(s, "utf8");
    this.line(`'${pad(bytes.length, 8)}' # ${bytes.length} (int)`);
    this.line(`'${hex(bytes)}' # ${s} (${kind})`);
    return super.string(s);
  }

  override context(text: string): void {
    this.line(`# ${text}`);
  }

  override sub(): HashWriter {
    return new TracingHashWriter(this.lines, this.level + 1);
  }

  /** The trace so far, one line per piece, ending with a newline. */
  trace(): string {
    return this.lines.length === 0 ? "" : `${this.lines.join("\n")}\n`;
  }
}

/** The trace and a closing comment naming the hash it gives (not a byte line: it is not encoded). */
export function traceWithResult(w: TracingHashWriter, hash: Uint8Array): string {
  return `${w.trace()}# Prepared Transaction Hash: ${toHex(hash)}\n`;
}
