/**
 * Where the wallet's triggers say what they did: one line per action, naming the trigger. A port,
 * because the wallet layer imports no logging package; the composition root passes the node's
 * pino logger, whose methods take the same (fields, message) arguments.
 */
export type LogFields = Readonly<Record<string, unknown>>;

export interface AutomationLog {
  debug(fields: LogFields, message: string): void;
  info(fields: LogFields, message: string): void;
  warn(fields: LogFields, message: string): void;
  error(fields: LogFields, message: string): void;
}

const nothing = (): void => undefined;

/** For callers with nowhere to log (tests of a step alone). */
export const silentLog: AutomationLog = { debug: nothing, info: nothing, warn: nothing, error: nothing };
