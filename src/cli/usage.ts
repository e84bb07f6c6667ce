import { parseArgs, type ParseArgsConfig } from "node:util";

/** A mistake in how a command was called (exit code 2). */
export class UsageError extends Error {}

export function parse<T extends NonNullable<ParseArgsConfig["options"]>>(
  args: string[],
  options: T,
  allowPositionals = false,
): ReturnType<
  typeof parseArgs<{ args: string[]; options: T; allowPositionals: boolean; strict: true }>
> {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}
