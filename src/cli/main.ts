/**
 * `emsim` command line: dispatches to one module per command group.
 * Exit codes: 0 ok, 1 other failure, 2 usage, 3 authentication, 4 not found, 5 conflict (409),
 * 6 invalid request, 7 server not reachable, 8 checksum mismatch, 9 server error or rate
 * limit, 10 the job (or every job of a batch) FAILED, 11 design rules violated, 130
 * interrupted (docs/cli.md).
 */
import { readFileSync } from "node:fs";
import { UsageError } from "./usage.js";

const HELP = `emsim — 3D FDTD simulation job service

Service:
  emsim server [--port N] [--host H] [--data-dir DIR]   API, storage and an in-process worker
  emsim worker [--data-dir DIR]                        a worker process sharing the data dir
  emsim keys create --email E --name N [--admin]       prints only the new key on stdout
  emsim keys list [--email E] [--json]
  emsim keys revoke <key id or display prefix>

Client (server address and key from EMSIM_BASE_URL / EMSIM_API_KEY or 'emsim login'):
  emsim login [--key K] [--base-url URL]               check a key and store it (mode 0600)
  emsim logout                                         delete the stored profile
  emsim submit sim.json [--wait] [--out F] [--queue] [--quiet] [--skip-validation]
                                                       validate locally, submit; --wait follows
                                                       the run and downloads the verified result
  emsim sweep sim.json --param /structures/1/size/0=0.4e-6:0.6e-6:11 [--param P=V1,V2,…]
             [--name N …] [--zip] [--wait] [--out F] [--queue] [--quiet] [--skip-validation]
                                                       one simulation over parameters, one job
                                                       per variant; --wait shows the batch's
                                                       progress, then downloads its one file
  emsim batch ID [--wait] [--out F] [--cancel] [--quiet]
                                                       a batch's status and jobs; its file
  emsim status ID [--wait]                             a job's status and progress
  emsim list [--limit N] [--status S] [--cursor C]     your jobs, newest first
  emsim cancel ID                                      cancel a queued or running job
  emsim estimate sim.json                              grid, memory and run time, without running
                                                       (a batch request file: the whole sweep's)
  emsim preview sim.json [--out setup.png] [--plane z=0]
                                                       the set-up as the solver sees it: ε on
                                                       cross-sections, every object outlined,
                                                       warnings (drawn here; emsim preview --help)
  emsim download ID [--out F] [--quiet]                verified (SHA-256), resumable download
  emsim plot result.h5 [--monitor M] [--component C] [--wavelength W] [--part abs|real|imag]
             [--slice I] [--no-outline] [--out F.png]  heat map or line plot as PNG
  emsim plot result.h5 --spectrum [--out F.png]       the flux monitors' spectra
  emsim plot result.h5 --far-field [--monitor M] [--wavelength W] [--phi DEG ...] [--db]
                                                       radiation pattern as a polar plot (PNG)
  emsim inspect result.h5                              monitors, shapes, materials, solver report
  emsim sparams ID [--out device.s2p] [--format touchstone|json] [--plot s.png]
                                                       a ports job's S-parameters: a table of
                                                       |S|² in dB, a Touchstone file, a plot
  emsim modes sim.json --plane y=0[,x=LO:HI,z=LO:HI] [--wavelength W | --wavelengths A:B:N]
             [--modes N] [--target-neff N] [--pol te|tm] [--group-index] [--out F.json]
             [--png F.png] [--component E|H|Ex…]   waveguide modes of a cross-section: a table
                                                       and a heat map per mode (emsim modes --help)

Fabrication (docs/fabrication.md):
  emsim gds ID --map Si=1/0 [--map SiO2=2/0] [--grid NM] [--z-um Z] [--out chip.gds]
                                                       a job's layout as GDS II
  emsim drc chip.gds|GDS_URL --pdk NAME [--min-feature NM] [--min-spacing NM] [--min-radius NM]
                                                       design-rule check; exit 11 and a table
                                                       of violations when it fails
  emsim recipe chip.gds|GDS_URL|--job ID --pdk NAME    the process flow for a layout
  emsim pdks                                           process design kits
  Every client command takes --json; 'emsim --version' prints the version. Exit codes: 0 ok,
  1 other failure, 2 usage, 3 auth, 4 not found, 5 conflict (409), 6 invalid request,
  7 server unreachable, 8 checksum mismatch, 9 server error or rate limited, 10 job (or every
  job of a batch) failed, 11 design rules violated, 130 interrupted (docs/cli.md).

Configuration: environment variables EMSIM_* (see docs/configuration.md).
`;

/** After one command's lines: what every client command takes, and where the rest is. */
const OWN_HELP_FOOTER =
  "Client commands take --json (the result, or the error, as JSON on stdout).\n'emsim help' lists every command; docs/cli.md says what each option does.\n";

/** Commands whose own --help says more than their lines in HELP. */
const OWN_HELP = new Set(["modes", "sparams", "preview"]);

/**
 * The lines of HELP for one command (each line that starts `  emsim <command>` and the lines
 * that continue it), or null for a name that is not a command.
 */
export function commandHelp(command: string): string | null {
  const lines = HELP.split("\n");
  const out: string[] = [];
  let inside = false;
  for (const line of lines) {
    if (line.startsWith("  emsim ")) inside = line.startsWith(`  emsim ${command} `);
    else if (!line.startsWith("     ")) inside = false;
    if (inside) out.push(line);
  }
  return out.length > 0 ? `${out.join("\n")}\n` : null;
}

/** The version package.json gives (two folders up from src/cli/ and from dist/cli/ alike). */
function packageVersion(): string {
  const url = new URL("../../package.json", import.meta.url);
  return (JSON.parse(readFileSync(url, "utf8")) as { version: string }).version;
}

/** Runs one command (each module loaded only when its command runs). */
async function run(command: string | undefined, rest: string[]): Promise<number> {
  switch (command) {
    case "server":
      return (await import("./commands/server.js")).runServer(rest);
    case "worker":
      return (await import("./commands/server.js")).runWorker(rest);
    case "keys":
      return (await import("./commands/keys.js")).runKeys(rest);
    case "login":
      return (await import("./commands/login.js")).runLogin(rest);
    case "logout":
      return (await import("./commands/login.js")).runLogout(rest);
    case "submit":
      return (await import("./commands/submit.js")).runSubmit(rest);
    case "sweep":
      return (await import("./commands/sweep.js")).runSweep(rest);
    case "batch":
      return (await import("./commands/batch.js")).runBatch(rest);
    case "status":
      return (await import("./commands/status.js")).runStatus(rest);
    case "list":
      return (await import("./commands/list.js")).runList(rest);
    case "cancel":
      return (await import("./commands/cancel.js")).runCancel(rest);
    case "estimate":
      return (await import("./commands/estimate.js")).runEstimate(rest);
    case "preview":
      return (await import("./commands/preview.js")).runPreview(rest);
    case "download":
      return (await import("./commands/download.js")).runDownload(rest);
    case "plot":
      return (await import("./commands/plot.js")).runPlot(rest);
    case "modes":
      return (await import("./commands/modes.js")).runModes(rest);
    case "sparams":
      return (await import("./commands/sparams.js")).runSparams(rest);
    case "inspect":
      return (await import("./commands/inspect.js")).runInspect(rest);
    case "gds":
      return (await import("./commands/fabrication.js")).runGds(rest);
    case "drc":
      return (await import("./commands/fabrication.js")).runDrc(rest);
    case "recipe":
      return (await import("./commands/fabrication.js")).runRecipe(rest);
    case "pdks":
      return (await import("./commands/fabrication.js")).runPdks(rest);
    case "--version":
    case "version":
      process.stdout.write(`emsim ${packageVersion()}\n`);
      return 0;
    case undefined:
    case "help":
    case "--help":
    case "-h":
      process.stdout.write(HELP);
      return command === undefined ? 2 : 0;
    default:
      throw new UsageError(`unknown command '${command}'`);
  }
}

/**
 * A usage mistake: the reason and the command's own lines (the whole list only for an unknown
 * command) on stderr, and under --json the error on stdout as every other error is. Exit 2.
 */
function reportUsage(err: UsageError, own: string | null, rest: string[]): number {
  const help = own ? `${own}\n${OWN_HELP_FOOTER}` : HELP;
  process.stderr.write(`emsim: ${err.message}\n\n${help}`);
  if (rest.includes("--json")) {
    const error = { error_code: "usage", detail: err.message };
    process.stdout.write(`${JSON.stringify({ error, exit_code: 2 }, null, 2)}\n`);
  }
  return 2;
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const own = command !== undefined ? commandHelp(command) : null;
  if (own && !OWN_HELP.has(command!) && rest.some((a) => a === "--help" || a === "-h")) {
    process.stdout.write(`${own}\n${OWN_HELP_FOOTER}`);
    return 0;
  }
  try {
    return await run(command, rest);
  } catch (err) {
    if (err instanceof UsageError) return reportUsage(err, own, rest);
    process.stderr.write(`emsim: ${(err as Error).message}\n`);
    return 1;
  }
}

// `emsim list --json | head`: the reader has gone, and what is left has nowhere to go. End
// quietly, as other tools do, rather than with an unhandled EPIPE's stack trace.
process.stdout.on("error", (err: NodeJS.ErrnoException) => {
  if (err.code !== "EPIPE") throw err;
  process.exit(0);
});

const code = await main(process.argv.slice(2));
if (code !== 0 || !["server", "worker"].includes(process.argv[2] ?? "")) process.exitCode = code;
