/**
 * Times every service method call, whatever the transport that made it (native gRPC, Connect,
 * gRPC-Web, or a JSON path of the gateway): the observer gets `Service/Method`, the final status
 * code's name (`ok`, `invalid_argument`, ...) and the seconds it took; a stream counts until it ends.
 */
import type { DescService } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";

export type CallObserver = (method: string, code: string, seconds: number) => void;

interface Binding {
  readonly service: DescService;
  readonly impl: object;
}

type Fn = (...args: unknown[]) => unknown;

/** The same bindings whose implementations report to `observe`. */
export function instrumentServices<B extends Binding>(bindings: readonly B[], observe: CallObserver): B[] {
  return bindings.map((b) => {
    const impl: Record<string, unknown> = { ...b.impl };
    for (const method of b.service.methods) {
      const fn = (b.impl as Record<string, unknown>)[method.localName];
      if (typeof fn !== "function") continue;
      const name = `${b.service.name}/${method.name}`;
      const timed = method.methodKind === "server_streaming" ? timedStream(fn as Fn, b.impl, name, observe) : timedUnary(fn as Fn, b.impl, name, observe);
      impl[method.localName] = Object.assign(timed, refusals(fn as Fn, name, observe));
    }
    return Object.assign({}, b, { impl });
  });
}

/**
 * What a method carries besides being callable (the /v0 methods' `authorize`, which the gateway
 * runs before decoding), kept, with a call it refuses counted as a call of the method.
 */
function refusals(fn: Fn, name: string, observe: CallObserver): Record<string, unknown> {
  const steps: Record<string, unknown> = {};
  for (const [key, step] of Object.entries(fn)) {
    if (typeof step !== "function") {
      steps[key] = step;
      continue;
    }
    steps[key] = async (...args: unknown[]) => {
      const started = performance.now();
      try {
        return await (step as Fn)(...args);
      } catch (e) {
        observe(name, codeName(e), (performance.now() - started) / 1000);
        throw e;
      }
    };
  }
  return steps;
}

function codeName(e: unknown): string {
  const code = e instanceof ConnectError ? e.code : Code.Unknown;
  return Code[code].replace(/([a-z])([A-Z])/g, "$1_$2").toLowerCase();
}

function timedUnary(fn: Fn, self: object, name: string, observe: CallObserver): Fn {
  return async (...args) => {
    const started = performance.now();
    try {
      const result = await fn.apply(self, args);
      observe(name, "ok", (performance.now() - started) / 1000);
      return result;
    } catch (e) {
      observe(name, codeName(e), (performance.now() - started) / 1000);
      throw e;
    }
  };
}

function timedStream(fn: Fn, self: object, name: string, observe: CallObserver): Fn {
  return async function* (...args) {
    const started = performance.now();
    let code = "ok";
    try {
      yield* fn.apply(self, args) as AsyncIterable<unknown>;
    } catch (e) {
      code = codeName(e);
      throw e;
    } finally {
      // A stream the client cancelled ends here too, with the code it had so far.
      observe(name, code, (performance.now() - started) / 1000);
    }
  };
}
