/**
 * `emsim preview sim.json [--out setup.png] [--plane z=0 …]`: the set-up as the solver sees it
 * — the permittivity the run steps on three cross-sections (or the planes named), every object
 * outlined and labelled, the grid's cells where they are legible, the warnings in the margin
 * (src/plot/setup-plot.ts) — and a summary of the planes and warnings on stdout.
 *
 * It is drawn here, from the file, by the server's own code (src/preview/: the painting is the
 * solver's, validated with a default server's limits as `submit` validates before sending), so
 * it needs no server or key. A `gds` structure whose `gds_url` is a local file, as `submit`
 * takes one, is resolved here by the server's fabrication code (../local-gds-resolve.ts); one
 * with an address names a layout stored on a server, which only POST
 * /v1/simulations/preview can show. A batch request file shows its base simulation, which
 * its jobs differ from only in the parameters' values (`emsim sweep` checks those).
 */
import { writeFile } from "node:fs/promises";
import { loadConfig } from "../../config.js";
import { ApiError, type FieldError } from "../../errors.js";
import { setupPlotPng } from "../../plot/setup-plot.js";
import { setupPreview } from "../../preview/response.js";
import { namedAsSent } from "../../preview/service.js";
import { fieldErrorsAsSent } from "../../fabrication/gds-resolve.js";
import { parseLengthText, PlaneSpecError } from "../../schema/plane-spec.js";
import {
  MAX_PREVIEW_PLANES,
  type PreviewRequest,
  type PreviewResponse,
} from "../../schema/preview.js";
import { formatAjvErrors } from "../../schema/ajv-errors.js";
import type { SimulationRequest } from "../../schema/simulation.js";
import { checkRequest, validateRequestSchema } from "../../schema/validate.js";
import { MAX_PREVIEW_SAMPLES, type SimulationSpec } from "../../solver/index.js";
import {
  CliError,
  defaultIo,
  EXIT,
  InvalidRequestError,
  printJson,
  runClientCommand,
  table,
  type CommandIo,
} from "../output.js";
import { withLocalGdsResolved } from "../local-gds-resolve.js";
import { isLocalGds } from "../local-gds.js";
import { readSimulationJson } from "../simulation-file.js";
import { isBatchRequestBody } from "../sweep-request.js";
import { checkOutputPath } from "../output-path.js";
import { parse, UsageError } from "../usage.js";

export const PREVIEW_USAGE =
  "emsim preview <sim.json> [--out setup.png] [--plane AXIS=POS …] [--max-samples N] [--size PX] [--json]";

export const PREVIEW_HELP = `usage: ${PREVIEW_USAGE}

The set-up of a simulation file as the solver sees it: on each plane the permittivity the run
will step at the source wavelength (after its sub-cell averaging), metals and perfect
conductors marked, and the outlines of every structure, source, monitor, port, mesh override,
the absorber and the mirror planes. Drawn on this machine by the server's own code, with a
default server's limits; no server or key is needed. A gds structure's local layout (gds_url
a path, as submit takes it) is read here; one stored on a server (gds_url an address) needs
POST /v1/simulations/preview. A batch request file shows its base simulation.

  --out FILE.png      the picture: the planes side by side, a colour scale of Re ε, the
                      grid's cell edges where they are legible, the warnings in the margin
  --plane AXIS=POS    a plane to show, e.g. z=0 or x=1.2um (lengths take nm, um or µm);
                      repeat for several (at most ${MAX_PREVIEW_PLANES}); default the three planes through
                      the origin
  --max-samples N     at most N samples along each axis of a plane (2–${MAX_PREVIEW_SAMPLES}, default
                      400): a larger plane shows evenly spaced cells of it
  --size PX           longest side of each plane's plot in pixels (default 520 for one
                      plane, 340 for more)
  --json              the whole answer (ε, materials, outlines, warnings) as JSON

Example: emsim preview examples/si-strip-waveguide.json --out setup.png --plane y=0
`;

const OPTIONS = {
  out: { type: "string", short: "o" },
  plane: { type: "string", short: "p", multiple: true },
  "max-samples": { type: "string" },
  size: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** `--plane z=0` → the request's plane; a mistake is a usage error naming the option. */
export function parsePreviewPlane(text: string): NonNullable<PreviewRequest["planes"]>[number] {
  const m = /^\s*([xyz])\s*=(.+)$/i.exec(text);
  if (!m)
    throw new UsageError(`--plane: cannot read '${text}'; write AXIS=POS, e.g. z=0 or x=1.2um`);
  try {
    const normal = m[1]!.toLowerCase() as "x" | "y" | "z";
    const position = parseLengthText(m[2]!);
    if (!Number.isFinite(position)) {
      throw new UsageError(`--plane: '${m[2]!.trim()}' is not a finite length`);
    }
    return { normal, position };
  } catch (err) {
    if (err instanceof PlaneSpecError) throw new UsageError(`--plane: ${err.message}`);
    throw err;
  }
}

/** A whole number option in [lo, hi], or undefined when not given. */
function wholeNumber(name: string, text: string | undefined, lo: number, hi: number) {
  if (text === undefined) return undefined;
  const n = /^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(n) || n < lo || n > hi) {
    throw new UsageError(`--${name} must be a whole number from ${lo} to ${hi}, not '${text}'`);
  }
  return n;
}

/** What `emsim preview` shows of a file: the checked simulation and what it is of the file. */
interface PreviewedFile {
  spec: SimulationSpec;
  /** The simulation with its gds structures resolved (what names its structures as sent). */
  resolved: SimulationRequest;
  /** Set for a batch request file, whose base simulation is shown. */
  batch?: { parameters: string[] };
}

/**
 * A batch request file's base simulation, which the preview shows (the variants differ from it
 * only in the parameters' values; `emsim sweep` checks those), with the parameters' paths for
 * the note; a simulation file as it is.
 */
function simulationOf(body: unknown): { simulation: unknown; batch?: { parameters: string[] } } {
  if (!isBatchRequestBody(body)) return { simulation: body };
  const given: unknown[] = Array.isArray(body.parameters) ? body.parameters : [];
  const parameters = given.map((p) => {
    const { name, path } = (p ?? {}) as { name?: unknown; path?: unknown };
    return `${String(name)} (${String(path)})`;
  });
  return { simulation: body.simulation, batch: { parameters } };
}

/**
 * The file's simulation checked as `submit` checks it, its gds structures with a local
 * `gds_url` resolved here as the server resolves an uploaded file (local-gds-resolve.ts); a
 * gds structure with an address names a layout only the server has. `at` is where the
 * simulation sits in the file ("simulation." in a batch request), for the messages.
 */
async function checkedSimulation(
  simulation: unknown,
  file: string,
  at: "" | "simulation.",
): Promise<{ spec: SimulationSpec; resolved: SimulationRequest }> {
  const invalid = (errors: FieldError[]) =>
    new InvalidRequestError(
      file,
      errors.map((e) => ({ ...e, path: `${at}${e.path}` })),
      at ? "batch request" : undefined,
    );
  if (!validateRequestSchema(simulation)) {
    throw invalid(formatAjvErrors(validateRequestSchema.errors));
  }
  const structures = simulation.structures ?? [];
  const stored = structures.findIndex((s) => s.type === "gds" && !isLocalGds(s));
  if (stored >= 0) {
    throw new CliError(
      `${file}: ${at}structures[${stored}] is a gds structure whose gds_url is an address: its ` +
        "layout is stored on the server, which resolves it; preview this file with " +
        "POST /v1/simulations/preview, or give gds_url as the path of a local .gds file",
      EXIT.invalid,
    );
  }
  let resolved: SimulationRequest;
  try {
    resolved = await withLocalGdsResolved(simulation, file);
  } catch (err) {
    throw err instanceof InvalidRequestError ? invalid(err.fieldErrors) : err;
  }
  const outcome = checkRequest(resolved, loadConfig({}).limits);
  if (outcome.ok) return { spec: outcome.spec, resolved };
  throw invalid(fieldErrorsAsSent(outcome.errors, resolved));
}

/** The file's simulation, or a batch request file's base simulation, checked. */
async function loadPreviewed(file: string): Promise<PreviewedFile> {
  const { simulation, batch } = simulationOf(await readSimulationJson(file));
  const checked = await checkedSimulation(simulation, file, batch ? "simulation." : "");
  return batch ? { ...checked, batch } : checked;
}

/** The summary on stdout: each plane's position and cells, the materials, the warnings. */
function summary(answer: Omit<PreviewResponse, "estimate">, out: string | undefined): string {
  const um = (m: number) => `${Number((m * 1e6).toPrecision(6))} µm`;
  const rows = answer.planes.map((p) => [
    `${p.normal} = ${um(p.position)}`,
    `${p.cells[0]} × ${p.cells[1]}`,
    `${p.coords[p.axes[0]]!.length} × ${p.coords[p.axes[1]]!.length}`,
    String(p.objects.length),
  ]);
  const lines = [table([["plane", "cells", "samples", "objects"], ...rows])];
  lines.push(`materials: ${answer.materials.map((m) => `${m.name} (${m.kind})`).join(", ")}`);
  for (const w of answer.warnings) lines.push(`warning: ${w.path}: ${w.message}`);
  if (out) lines.push(`wrote ${out}`);
  return `${lines.join("\n")}\n`;
}

export async function runPreview(args: string[], io: CommandIo = defaultIo()): Promise<number> {
  const { values, positionals } = parse(args, OPTIONS, true);
  if (values.help) {
    io.stdout.write(PREVIEW_HELP);
    return EXIT.ok;
  }
  if (positionals.length !== 1) {
    throw new UsageError(`preview takes one simulation file\nusage: ${PREVIEW_USAGE}`);
  }
  const planes = values.plane?.map(parsePreviewPlane);
  if (planes && planes.length > MAX_PREVIEW_PLANES) {
    throw new UsageError(`--plane: at most ${MAX_PREVIEW_PLANES} planes`);
  }
  const maxSamples = wholeNumber("max-samples", values["max-samples"], 2, MAX_PREVIEW_SAMPLES);
  const size = wholeNumber("size", values.size, 80, 4000);
  io = { ...io, json: values.json === true };
  const file = positionals[0]!;
  checkOutputPath(values.out);
  return runClientCommand(io, async () => {
    const { spec, resolved, batch } = await loadPreviewed(file);
    if (batch && !io.json) {
      io.stderr.write(
        `${file} is a batch request: this is its base simulation; each job changes ${batch.parameters.join(", ")} (emsim sweep runs them)\n`,
      );
    }
    let answer: Omit<PreviewResponse, "estimate">;
    try {
      answer = namedAsSent(setupPreview(spec, { planes, max_samples: maxSamples }), resolved);
    } catch (err) {
      if (err instanceof ApiError && err.code === "validation_error") {
        const fieldErrors = err.extra.errors as FieldError[];
        const samples = fieldErrors.find((e) => e.path.startsWith("max_samples"));
        if (samples) throw new UsageError(`--max-samples: ${samples.message}`);
        throw new InvalidRequestError("--plane", fieldErrors, "plane");
      }
      throw err;
    }
    if (values.out) {
      const wavelength = Number((spec.source.wavelength * 1e6).toPrecision(6));
      const png = setupPlotPng(answer, {
        subtitle: `Re ε at λ = ${wavelength} µm, ${file.split("/").pop()}${batch ? " (the batch's base simulation)" : ""}`,
        ...(size !== undefined ? { size } : {}),
      });
      await writeFile(values.out, png);
    }
    if (io.json) printJson(io, { ...answer, ...(values.out ? { png: values.out } : {}) });
    else io.stdout.write(summary(answer, values.out));
    return EXIT.ok;
  });
}
