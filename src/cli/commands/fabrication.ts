/**
 * The fabrication hand-off (docs/fabrication.md):
 *   `emsim gds JOB --map Si=1/0 [--map …] [--grid NM] [--z-um Z] [--out F]` exports a job's
 *     layout as GDS II and saves it;
 *   `emsim drc FILE.gds|GDS_URL --pdk NAME [--min-feature NM] [--min-spacing NM]
 *     [--min-radius NM]` checks a layout (a local file is uploaded first) and exits
 *     EXIT.drcFailed with a table of violations when it does not pass;
 *   `emsim recipe FILE.gds|GDS_URL|--job JOB --pdk NAME` prints the process flow;
 *   `emsim pdks` lists the process design kits.
 */
import type { DrcResult, DrcRules, GdsExport, LayerMapping, Recipe } from "../../client/index.js";
import {
  defaultIo,
  EXIT,
  fields,
  printJson,
  runClientCommand,
  table,
  withInterrupt,
  type CommandIo,
} from "../output.js";
import { gdsUrlFor } from "../local-gds.js";
import { connect } from "../profile.js";
import { parse, UsageError } from "../usage.js";
import { checkOutputPath } from "../output-path.js";

export const GDS_USAGE =
  "emsim gds <job id> --map MATERIAL=LAYER[/DATATYPE] [--map …] [--grid NM] [--z-um Z] [--out FILE] [--json]";
export const DRC_USAGE =
  "emsim drc <file.gds | gds_url> --pdk NAME [--min-feature NM] [--min-spacing NM] [--min-radius NM] [--json]";
export const RECIPE_USAGE =
  "emsim recipe (<file.gds | gds_url> | --job ID [--map MATERIAL=LAYER/DATATYPE …]) --pdk NAME [--no-cladding] [--no-planarise] [--json]";

/** Rows of the violation table shown at most; `--json` has them all. */
const MAX_TABLE_ROWS = 50;

/** `Si=1/0` or `Si=1` (datatype 0) → a layer mapping; repeated materials are an error. */
export function parseLayerMapping(specs: readonly string[]): LayerMapping {
  const mapping: LayerMapping = {};
  for (const spec of specs) {
    const m = /^([^=]+)=(\d{1,5})(?:\/(\d{1,5}))?$/.exec(spec.trim());
    const layer = Number(m?.[2]);
    const datatype = Number(m?.[3] ?? 0);
    if (!m || layer > 32767 || datatype > 32767) {
      throw new UsageError(
        `--map takes MATERIAL=LAYER/DATATYPE with numbers 0–32767 (e.g. Si=1/0), got '${spec}'`,
      );
    }
    const material = m[1]!.trim();
    if (material in mapping) throw new UsageError(`--map gives ${material} twice`);
    mapping[material] = { layer, datatype };
  }
  return mapping;
}

function positiveNumber(value: string | undefined, option: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) {
    throw new UsageError(`${option} must be a positive number, got '${value}'`);
  }
  return n;
}

const um = (v: number) => `${Number(v.toFixed(4))}`;

function exportSummary(e: GdsExport, path: string): string {
  const bbox = e.bbox_um
    ? `[${e.bbox_um.map(um).join(", ")}] µm (${um(e.bounding_box_um[0]!)} × ${um(e.bounding_box_um[1]!)} µm)`
    : "empty layout";
  const lines = [
    fields([
      ["file", path],
      [
        "layers",
        e.layer_details
          .map((l) => `${l.key} (${l.materials.join(", ")}: ${l.polygon_count})`)
          .join(", ") || "none",
      ],
      ["polygons", `${e.polygon_count} (${e.merged_polygon_count} after merging)`],
      ["bounding box", bbox],
      ["grid", `${e.grid_resolution_nm} nm`],
      [
        "cut plane",
        e.cut_plane_um === null ? "centre of each structure" : `z = ${e.cut_plane_um} µm`,
      ],
      ["unmapped", e.unmapped_materials.join(", ") || "none"],
      ["gds_url", e.gds_url],
    ]),
  ];
  for (const s of e.skipped) lines.push(`skipped structures[${s.index}]: ${s.reason}`);
  for (const c of e.clipped ?? []) lines.push(`clipped structures[${c.index}]: ${c.reason}`);
  return lines.join("\n");
}

export async function runGds(args: string[], io: CommandIo = defaultIo()): Promise<number> {
  const { values, positionals } = parse(
    args,
    {
      map: { type: "string", multiple: true, short: "m" },
      grid: { type: "string" },
      "z-um": { type: "string" },
      out: { type: "string", short: "o" },
      json: { type: "boolean" },
    },
    true,
  );
  if (positionals.length !== 1) throw new UsageError(`gds takes one job id\nusage: ${GDS_USAGE}`);
  if (!values.map || values.map.length === 0) {
    throw new UsageError(`gds needs at least one --map (e.g. --map Si=1/0)\nusage: ${GDS_USAGE}`);
  }
  const mapping = parseLayerMapping(values.map);
  const grid = positiveNumber(values.grid, "--grid") ?? 1;
  if (!Number.isInteger(grid)) throw new UsageError(`--grid must be whole nanometres`);
  let zUm: number | undefined;
  if (values["z-um"] !== undefined) {
    zUm = Number(values["z-um"]);
    if (!Number.isFinite(zUm)) throw new UsageError(`--z-um must be a number (µm)`);
  }
  io = { ...io, json: values.json === true };
  const jobId = positionals[0]!;
  checkOutputPath(values.out);
  const path = values.out ?? `emsim-${jobId}.gds`;
  return runClientCommand(io, async () => {
    const { client } = await connect();
    return withInterrupt(async (signal) => {
      const exported = await client.exportGds(
        {
          job_id: jobId,
          layer_mapping: mapping,
          grid_resolution_nm: grid,
          ...(zUm !== undefined ? { z_um: zUm } : {}),
        },
        { signal },
      );
      const file = await client.downloadGds(exported.gds_url, path, { signal });
      if (io.json) printJson(io, { ...exported, path: file.path, bytes: file.bytes });
      else io.stdout.write(`${exportSummary(exported, file.path)}\n`);
      return EXIT.ok;
    });
  });
}

/** The violation table: rule, layer, location, actual and required distances. */
export function violationTable(drc: DrcResult, max = MAX_TABLE_ROWS): string {
  const rows = drc.violations
    .slice(0, max)
    .map((v) => [
      v.rule,
      v.layer,
      `(${v.location.map(um).join(", ")})`,
      String(v.actual_nm),
      String(v.required_nm),
      v.severity,
    ]);
  const out = [
    table([
      ["RULE", "LAYER", "LOCATION (µm)", "ACTUAL (nm)", "REQUIRED (nm)", "SEVERITY"],
      ...rows,
    ]),
  ];
  const more = drc.violations.length - rows.length;
  if (more > 0) out.push(`… and ${more} more (--json lists them all)`);
  return out.join("\n");
}

export async function runDrc(args: string[], io: CommandIo = defaultIo()): Promise<number> {
  const { values, positionals } = parse(
    args,
    {
      pdk: { type: "string" },
      "min-feature": { type: "string" },
      "min-spacing": { type: "string" },
      "min-radius": { type: "string" },
      json: { type: "boolean" },
    },
    true,
  );
  if (positionals.length !== 1) {
    throw new UsageError(`drc takes one GDS file or gds_url\nusage: ${DRC_USAGE}`);
  }
  if (!values.pdk) throw new UsageError(`drc needs --pdk (see 'emsim pdks')\nusage: ${DRC_USAGE}`);
  const rules: DrcRules = {};
  const feature = positiveNumber(values["min-feature"], "--min-feature");
  const spacing = positiveNumber(values["min-spacing"], "--min-spacing");
  const radius = positiveNumber(values["min-radius"], "--min-radius");
  if (feature !== undefined) rules.min_feature_nm = feature;
  if (spacing !== undefined) rules.min_spacing_nm = spacing;
  if (radius !== undefined) rules.min_radius_nm = radius;
  io = { ...io, json: values.json === true };
  const pdk = values.pdk;
  return runClientCommand(io, async () => {
    const { client } = await connect();
    return withInterrupt(async (signal) => {
      const gdsUrl = await gdsUrlFor(client, positionals[0]!, io, signal);
      const drc = await client.drc(
        { gds_url: gdsUrl, pdk, ...(Object.keys(rules).length > 0 ? { rules } : {}) },
        { signal },
      );
      if (io.json) {
        printJson(io, { gds_url: gdsUrl, ...drc });
      } else {
        if (drc.violations.length > 0) io.stdout.write(`${violationTable(drc)}\n\n`);
        io.stdout.write(`${drc.summary}\n`);
      }
      return drc.passed ? EXIT.ok : EXIT.drcFailed;
    });
  });
}

function stepLine(step: Recipe["steps"][number]): string {
  const details: string[] = [];
  if (step.mask_layers) details.push(`mask ${step.mask_layers.join("+")}`);
  if (step.mask_tone) details.push(step.mask_tone.replace("_", " "));
  if (step.resist)
    details.push(`${step.resist}${step.resist_tone ? ` (${step.resist_tone})` : ""}`);
  if (step.depth_nm !== undefined) details.push(`depth ${step.depth_nm} nm`);
  if (step.thickness_nm !== undefined && step.depth_nm === undefined) {
    details.push(`${step.material ? `${step.material} ` : ""}${step.thickness_nm} nm`);
  }
  const index = `${step.index}.`.padStart(4);
  return `${index} ${step.step.padEnd(16)} ${step.description}${details.length ? ` [${details.join("; ")}]` : ""}`;
}

export async function runRecipe(args: string[], io: CommandIo = defaultIo()): Promise<number> {
  const { values, positionals } = parse(
    args,
    {
      pdk: { type: "string" },
      job: { type: "string" },
      map: { type: "string", multiple: true, short: "m" },
      "no-cladding": { type: "boolean" },
      "no-planarise": { type: "boolean" },
      json: { type: "boolean" },
    },
    true,
  );
  if ((values.job === undefined) === (positionals.length !== 1) || positionals.length > 1) {
    throw new UsageError(`recipe takes one GDS file, gds_url or --job\nusage: ${RECIPE_USAGE}`);
  }
  if (!values.pdk) {
    throw new UsageError(`recipe needs --pdk (see 'emsim pdks')\nusage: ${RECIPE_USAGE}`);
  }
  if (values.map && values.job === undefined) {
    throw new UsageError("--map applies to --job only (a GDS file has its own layers)");
  }
  const mapping = values.map ? parseLayerMapping(values.map) : undefined;
  const options = {
    ...(values["no-cladding"] ? { cladding: false } : {}),
    ...(values["no-planarise"] ? { planarise: false } : {}),
  };
  io = { ...io, json: values.json === true };
  const pdk = values.pdk;
  return runClientCommand(io, async () => {
    const { client } = await connect();
    return withInterrupt(async (signal) => {
      const source =
        values.job !== undefined
          ? { job_id: values.job, ...(mapping ? { layer_mapping: mapping } : {}) }
          : { gds_url: await gdsUrlFor(client, positionals[0]!, io, signal) };
      const recipe = await client.recipe(
        { ...source, pdk, ...(Object.keys(options).length > 0 ? { options } : {}) },
        { signal },
      );
      if (io.json) {
        printJson(io, recipe);
        return EXIT.ok;
      }
      const lines = [
        `${recipe.pdk_title} — layers ${recipe.layers_used.join(", ") || "none"}${recipe.illustrative ? " (some numbers are illustrative)" : ""}`,
        ...recipe.steps.map(stepLine),
      ];
      io.stdout.write(`${lines.join("\n")}\n`);
      for (const w of recipe.warnings) io.stderr.write(`warning: ${w}\n`);
      return EXIT.ok;
    });
  });
}

export async function runPdks(args: string[], io: CommandIo = defaultIo()): Promise<number> {
  const { values, positionals } = parse(args, { json: { type: "boolean" } }, true);
  if (positionals.length > 0) throw new UsageError("usage: emsim pdks [--json]");
  io = { ...io, json: values.json === true };
  return runClientCommand(io, async () => {
    const { client } = await connect();
    const pdks = await client.listPdks();
    if (io.json) {
      printJson(io, { pdks });
      return EXIT.ok;
    }
    const rows = pdks.map((p) => [
      p.name,
      p.layers
        .filter((l) => l.fabricated)
        .map((l) => `${l.name} ${l.key}`)
        .join(", "),
      p.illustrative ? "yes" : "no",
      p.title,
    ]);
    io.stdout.write(`${table([["NAME", "LAYERS", "ILLUSTRATIVE", "TITLE"], ...rows])}\n`);
    return EXIT.ok;
  });
}
