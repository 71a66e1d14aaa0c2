import { describe, expect, it } from "vitest";
import { duplicateKeyOf } from "../../../src/api/http/duplicate-keys.js";

describe("duplicate JSON keys", () => {
  it.each([
    ['{"amount":"-1","amount":"0.5"}', "amount"],
    ['{"a":{"b":1,"c":{"d":1,"d":2}}}', "d"],
    ['{"a":1,"\\u0061":2}', "a"], // the same key, escaped
    ['{"q\\"":1,"q\\u0022":2}', 'q"'],
    ['[{"a":1},{"a":1,"b":[{"b":1},{"c":2,"c":3}]}]', "c"],
    [`{${Array.from({ length: 40 }, (_, i) => `"k${i}":${i}`).join(",")},"k3":0}`, "k3"], // past the list, in a set
  ])("finds the repeated key of %s", (text, key) => {
    JSON.parse(text); // valid JSON, as the function requires
    expect(duplicateKeyOf(text)).toBe(key);
  });

  it.each([
    '{"a":1,"b":{"a":2},"c":[{"a":3},{"a":4}]}', // one key per object
    '{"a":"\\"a\\":1,\\"a\\":2","b":"\\\\"}', // keys inside a string, and a string ending in a backslash
    '{"a":"x\\\\","b":"y\\\\\\"z","a\\\\":1}', // backslashes before closing quotes
    `{${Array.from({ length: 1000 }, (_, i) => `"k${i}":${i}`).join(",")}}`,
    '[1,"{\\"a\\":1,\\"a\\":2}",{}]',
  ])("finds none in %s", (text) => {
    JSON.parse(text);
    expect(duplicateKeyOf(text)).toBeUndefined();
  });

  it("stays linear in the number of keys", () => {
    const text = `{${Array.from({ length: 200_000 }, (_, i) => `"k${i}":1`).join(",")},"k7":2}`;
    const start = performance.now();
    expect(duplicateKeyOf(text)).toBe("k7");
    expect(performance.now() - start).toBeLessThan(2_000);
  });
});
