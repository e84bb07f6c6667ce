/**
 * `emsim preview sim.json [--out setup.png] [--plane z=0 …]`: the set-up as the solver sees it
 * — the permittivity the run steps on three cross-sections (or the planes named), every object
 * outlined and labelled, the grid's cells where they are legible, the warnings in the margin
 * (src/plot/setup-plot.ts) — and a summary of the planes and warnings on stdout.
 *
 * It is drawn here, from the file, by the server's own code (src/preview/: the painting is the
 * solver's, validated with a default server's limits as `submit` validates before sending), so
 * it needs no server or key. `gds` structures are the exception: their layout is stored on the
 * server, which resolves them; POST /v1/simulations/preview previews such a file.
 */
import { writeFile } from "node:fs/promises";
import { loadConfig } from "../../config.js";
import { ApiError, type FieldError } from "../../errors.js";
import { setupPlotPng } from "../../plot/setup-plot.js";
import { setupPreview } from "../../preview/response.js";
import { parseLengthText, PlaneSpecError } from "../../schema/plane-spec.js";
import {
  MAX_PREVIEW_PLANES,
  type PreviewRequest,
  type PreviewResponse,
} from "../../schema/preview.js";
import { validateSimulationRequest } from "../../schema/validate.js";
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
import { readSimulationJson } from "../simulation-file.js";
import { parse, UsageError } from "../usage.js";

export const PREVIEW_USAGE =
  "emsim preview <sim.json> [--out setup.png] [--plane AXIS=POS …] [--max-samples N] [--size PX] [--json]";

export const PREVIEW_HELP = `usage: ${PREVIEW_USAGE}

The set-up of a simulation file as the solver sees it: on each plane the permittivity the run
will step at the source wavelength (after its sub-cell averaging), metals and perfect
conductors marked, and the outlines of every structure, source, monitor, port, mesh override,
the absorber and the mirror planes. Drawn on this machine by the server's own code, with a
default server's limits; no server or key is needed (a file with gds structures needs the
server: POST /v1/simulations/preview).

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
    return { normal, position: parseLengthText(m[2]!) };
  } catch (err) {
    if (err instanceof PlaneSpecError) throw new UsageError(`--plane: ${err.message}`);
    throw err;
  }
}

/** A whole number option in [lo, hi], or undefined when not given. */
function wholeNumber(name: string, text: string | undefined, lo: number, hi: number) {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < lo || n > hi) {
    throw new UsageError(`--${name} must be a whole number from ${lo} to ${hi}, not '${text}'`);
  }
  return n;
}

/** The file's simulation, checked as `submit` checks it; a gds structure needs the server. */
async function loadSpec(file: string): Promise<SimulationSpec> {
  const body = await readSimulationJson(file);
  const outcome = validateSimulationRequest(body, loadConfig({}).limits);
  if (outcome.ok) return outcome.spec;
  const gds = outcome.errors.find((e) => /resolved by the server/.test(e.message));
  if (gds) {
    throw new CliError(
      `${file}: ${gds.path} is a gds structure, whose layout the server stores and resolves; ` +
        "preview this file with POST /v1/simulations/preview",
      EXIT.invalid,
    );
  }
  throw new InvalidRequestError(file, outcome.errors);
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
  return runClientCommand(io, async () => {
    const spec = await loadSpec(file);
    let answer: Omit<PreviewResponse, "estimate">;
    try {
      answer = setupPreview(spec, { planes, max_samples: maxSamples });
    } catch (err) {
      if (err instanceof ApiError && err.code === "validation_error") {
        throw new InvalidRequestError("--plane", err.extra.errors as FieldError[], "plane");
      }
      throw err;
    }
    if (values.out) {
      const wavelength = Number((spec.source.wavelength * 1e6).toPrecision(6));
      const png = setupPlotPng(answer, {
        subtitle: `Re ε at λ = ${wavelength} µm, ${file.split("/").pop()}`,
        ...(size !== undefined ? { size } : {}),
      });
      await writeFile(values.out, png);
    }
    if (io.json) printJson(io, { ...answer, ...(values.out ? { png: values.out } : {}) });
    else io.stdout.write(summary(answer, values.out));
    return EXIT.ok;
  });
}
