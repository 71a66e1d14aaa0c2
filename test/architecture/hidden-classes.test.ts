/**
 * Two object-literal forms that V8 (Node 20) makes slow once the code is warm:
 * - a literal that starts with a spread and goes on (`{ ...a, b }`, `{ ...a, ...b }`) gives every
 *   object a hidden class of its own;
 * - a literal with a getter or setter makes every object a dictionary of its own.
 * Either way each object brings structures that scavenges promote, with whatever they hold: the
 * getter of the interpreter's choice context kept its whole interpretation alive past two
 * scavenges, and interpreting a transfer ran at half its speed (docs/decisions.md, session 21).
 * `extend` (src/util/extend.ts) writes the spread; a class holds accessors on its prototype. This
 * test keeps both forms out of src/, and asks V8 itself which forms are fast, so the day a Node
 * upgrade fixes them shows in its output.
 */
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ROOT, sourceFiles } from "../support/source-files.js";
import { extend, updated } from "../../src/util/extend.js";

/** `file:line: text` of every literal of either form in `file`. */
function offending(file: string): string[] {
  const sf = ts.createSourceFile(file, fs.readFileSync(path.join(ROOT, file), "utf8"), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isObjectLiteralExpression(node)) {
      const [first] = node.properties;
      const spreadFirst = node.properties.length > 1 && first !== undefined && ts.isSpreadAssignment(first);
      const accessor = node.properties.some((p) => ts.isGetAccessorDeclaration(p) || ts.isSetAccessorDeclaration(p));
      if (spreadFirst || accessor) {
        const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
        found.push(`${file}:${line}: ${node.getText(sf).replace(/\s+/g, " ").slice(0, 80)}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/**
 * Whether 1,000 warm objects made by each form share one hidden class with fast properties, asked
 * of V8 itself (`%HaveSameMap`, `%HasFastProperties`: natives syntax, in a child process). A
 * literal getter shares its class but makes each object a dictionary of its own.
 */
function sharedClasses(): Record<"spreadThenField" | "literalGetter" | "assign" | "classGetter", boolean> {
  const script = `
    const same = (make) => { for (let i = 0; i < 20000; i++) make(i); const first = make(0); if (!%HasFastProperties(first)) return false; for (let i = 1; i < 1000; i++) if (!%HaveSameMap(first, make(i))) return false; return true; };
    class Getter { constructor(i) { this.i = i; } get v() { return this.i; } }
    console.log(JSON.stringify({
      spreadThenField: same((i) => { const o = { a: i, b: [] }; return { ...o, c: i }; }),
      literalGetter: same((i) => ({ get v() { return i; } })),
      assign: same((i) => Object.assign({}, { a: i, b: [] }, { c: i })),
      classGetter: same((i) => new Getter(i)),
    }));`;
  const out = spawnSync(process.execPath, ["--allow-natives-syntax", "-e", script], { encoding: "utf8" });
  return JSON.parse(out.stdout);
}

describe("hidden classes", () => {
  it("extend gives what the spread it replaces gives", () => {
    const base = { a: 1, b: "x", c: [1] };
    const extended = extend(base, { b: "y", d: true });
    expect(extended).toEqual({ ...base, b: "y", d: true });
    expect(Object.keys(extended)).toEqual(["a", "b", "c", "d"]);
    expect(extended).not.toBe(base);
    expect(base.b).toBe("x");
    expect(extend({ a: 1 }, { b: 2 }, { a: 3 })).toEqual({ a: 3, b: 2 });
    // A key `__proto__` from JSON is a field, as in a spread; it sets no prototype.
    const hostile = JSON.parse('{"__proto__": {"admin": true}, "x": 1}') as object;
    const merged = extend(hostile, { y: 2 }) as Record<string, unknown>;
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(merged.admin).toBeUndefined();
    expect(Object.keys(merged)).toEqual(["__proto__", "x", "y"]);
    expect(Object.getOwnPropertyDescriptor(merged, "__proto__")?.value).toEqual({ admin: true });
    // Null and undefined sources are skipped, as in a spread, on both paths.
    expect(extend({ a: 1 }, undefined as unknown as object)).toEqual({ a: 1 });
    expect(extend(hostile, null as unknown as object)).toEqual(JSON.parse('{"__proto__": {"admin": true}, "x": 1}'));
  });

  it("updated changes only fields the record has, as a literal would check", () => {
    const record = { amount: 1, owner: "a" };
    expect(updated(record, { owner: "b" })).toEqual({ amount: 1, owner: "b" });
    // @ts-expect-error: a misspelt field is a type error (tsc checks this file), as in `{ ...record, ownr: "b" }`
    expect(updated(record, { ownr: "b" })).toEqual({ amount: 1, owner: "a", ownr: "b" });
  });

  it("the forms extend and a class use keep one fast hidden class in this V8", () => {
    const shared = sharedClasses();
    expect(shared.assign).toBe(true);
    expect(shared.classGetter).toBe(true);
    // What this test guards against; when a Node upgrade makes these true, the rule can go.
    console.log(`Node ${process.version}: a spread then a field keeps one fast class: ${shared.spreadThenField}; a literal getter: ${shared.literalGetter}`);
  });

  it("src/ has no literal that starts with a spread and goes on, and no literal with an accessor", () => {
    expect(sourceFiles("src").flatMap(offending)).toEqual([]);
  });
});
