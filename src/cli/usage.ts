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
  let parsed;
  try {
    parsed = parseArgs({
      args: joinNegativeValues(args, options),
      options,
      allowPositionals,
      strict: true,
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  // An empty argument ("$JOB" unset) names nothing: no job id, file or folder is "".
  if (parsed.positionals.some((p) => p.trim() === "")) {
    throw new UsageError("an argument is empty (an unset shell variable?): give a value");
  }
  return parsed;
}

/**
 * `--bend-radius -5um` as `--bend-radius=-5um` (and `-n -1` as `-n-1`): parseArgs takes a
 * value that starts with "-" for an option and refuses it as ambiguous, though a negative number
 * after an option that takes a value can only be that value. Arguments after "--" are left as
 * they are.
 */
function joinNegativeValues(args: string[], options: NonNullable<ParseArgsConfig["options"]>) {
  const takesValue = (arg: string) => {
    if (arg.startsWith("--")) return options[arg.slice(2)]?.type === "string";
    return /^-[^-]$/.test(arg)
      ? Object.values(options).some((o) => o.short === arg[1] && o.type === "string")
      : false;
  };
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const [arg, next] = [args[i]!, args[i + 1]];
    if (arg === "--") return out.concat(args.slice(i));
    if (next !== undefined && /^-\.?\d/.test(next) && takesValue(arg)) {
      out.push(arg.startsWith("--") ? `${arg}=${next}` : `${arg}${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}
