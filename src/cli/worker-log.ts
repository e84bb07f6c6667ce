/**
 * The log of a lone `emsim worker` (the server logs through pino instead): one line per
 * entry, `warn: message {json}`. Errors in an entry are written as their name, message and
 * code (and, at error level, their stack): JSON.stringify writes an Error as `{}`, or as
 * whatever a library hung on it (the PostgreSQL driver's error carried its whole client).
 */
import type { WorkerLogger } from "../worker/logger.js";

/** Where the lines go (a LogSink). */
export interface LineSink {
  write(line: string): void;
}

export function workerLog(sink: LineSink): WorkerLogger {
  const line = (prefix: string, obj: object, msg: string | undefined, stack: boolean) =>
    sink.write(`${prefix}${msg ?? ""} ${JSON.stringify(obj, errorsAsText(stack))}\n`);
  return {
    info: (obj, msg) => line("", obj, msg, false),
    warn: (obj, msg) => line("warn: ", obj, msg, false),
    error: (obj, msg) => line("error: ", obj, msg, true),
  };
}

function errorsAsText(stack: boolean): (key: string, value: unknown) => unknown {
  return (_key, value) => (value instanceof Error ? errorFields(value, stack) : value);
}

function errorFields(err: Error, stack: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { name: err.name, message: err.message };
  const code = (err as { code?: unknown }).code;
  if (typeof code === "string" || typeof code === "number") out.code = code;
  if (stack && err.stack) out.stack = err.stack;
  if (err.cause instanceof Error) out.cause = errorFields(err.cause, stack);
  return out;
}
