/** The type of `{ ...base, ...fields }`, kept apart for each member of a union `base`. */
export type Extended<T, U> = T extends unknown ? Omit<T, keyof U> & U : never;

/**
 * `{ ...base, ...fields }`, written without an object literal that starts with a spread.
 *
 * On Node 20 (V8 11.3), an object literal whose first element is a spread and which has more
 * elements after it (`{ ...record, offset }`) gives every object it makes a hidden class of its
 * own once the code is warm. Each object then costs a new map and descriptor array, and these
 * are promoted by every scavenge until the next full GC. Every property read of such objects
 * meets a new shape. Measured on a bare loop: ~9x slower and ~3 MB promoted per scavenge, against
 * nothing for `Object.assign({}, base, fields)` (docs/decisions.md, session 21).
 *
 * Any input is safe: an own `__proto__` key (JSON.parse makes them) is copied as a field, as a
 * spread copies it, where `Object.assign` would set the copy's prototype; a null or undefined
 * source is skipped, as in a spread. For changes to fields `base` already has, use `updated`.
 */
export function extend<T extends object, U extends object>(base: T, fields: U): Extended<T, U>;
export function extend<T extends object, U extends object, V extends object>(base: T, more: U, fields: V): Extended<Extended<T, U>, V>;
export function extend<T extends object, U extends object, V extends object, W extends object>(base: T, more: U, evenMore: V, fields: W): Extended<Extended<Extended<T, U>, V>, W>;
export function extend(base: object, ...fields: object[]): object {
  return assigned(base, fields);
}

/**
 * `{ ...base, ...changes }` where `changes` sets only fields `base`'s type has. A literal checks
 * that (a misspelt key is an error); a separate argument to `extend` is not checked, so updates
 * of a record's own fields use this.
 */
export function updated<T extends object>(base: T, changes: NoInfer<Partial<T>>): T {
  return assigned(base, [changes]) as T;
}

function assigned(base: object, fields: readonly object[]): object {
  if (!hasOwnProto(base, fields)) return Object.assign({}, base, ...fields);
  const out = {};
  for (const source of [base, ...fields]) {
    if (source == null) continue; // skipped, as a spread of null or undefined is
    for (const key of Reflect.ownKeys(source)) {
      const own = Object.getOwnPropertyDescriptor(source, key);
      if (own?.enumerable) Object.defineProperty(out, key, { value: (source as Record<PropertyKey, unknown>)[key], writable: true, enumerable: true, configurable: true });
    }
  }
  return out;
}

function hasOwnProto(base: object, fields: readonly object[]): boolean {
  if (base != null && Object.hasOwn(base, "__proto__")) return true;
  for (const f of fields) if (f != null && Object.hasOwn(f, "__proto__")) return true;
  return false;
}
