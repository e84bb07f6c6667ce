/**
 * The job page's Fabrication panel (src/dashboard/static/fabrication.js): what it needs to
 * offer (the job's materials and each kit's suggested layer for them), GDS export with the
 * merged polygons to draw, design-rule checks and recipes of the exported file. The JSON
 * answers are session-authenticated like the rest of /dashboard/api/; the POSTs are forms
 * (urlencoded, with the session's CSRF token) and go through the same CSRF and same-site
 * check as every other dashboard POST (plugin.ts). The work is the API's FabricationService,
 * so answers and errors match /v1/fabrication.
 */
import type { FastifyInstance } from "fastify";
import type { LayerMapping } from "../../schema/fabrication.js";
import { findMaterial } from "../../solver/index.js";
import { hangUpSignal } from "../../http/hang-up.js";
import type { Pdk } from "../../fabrication/pdks.js";
import { DashboardError, field, type Dashboard } from "../context.js";
import { jobIdOf } from "./jobs.js";

type JobParams = { Params: { id: string } };

/** Polygons drawn at most; larger layouts are exported and checked but not drawn. */
const MAX_DRAWN_POLYGONS = 20_000;

const canonical = (material: string) => findMaterial(material)?.name ?? material;

/** The kit's first fabricated layer that patterns `material` (as the recipe route maps jobs). */
export function kitLayerFor(pdk: Pdk, material: string): string | null {
  const wanted = canonical(material);
  const first = Object.entries(pdk.process)
    .filter(([, p]) => pdk.stack.find((l) => l.name === p.level)?.material === wanted)
    .sort((a, b) => a[1].order - b[1].order)[0];
  return first ? first[0] : null;
}

/** The distinct materials of a job's structures, in order of first use. */
export function jobMaterials(specJson: string): string[] {
  let structures: unknown;
  try {
    structures = (JSON.parse(specJson) as { structures?: unknown }).structures;
  } catch {
    return [];
  }
  if (!Array.isArray(structures)) return [];
  const seen = new Set<string>();
  for (const s of structures as Array<{ material?: unknown }>) {
    if (typeof s.material === "string") seen.add(s.material);
  }
  return [...seen];
}

function optionalNumber(body: unknown, name: string, min: number, max: number): number | undefined {
  const raw = field(body, name).trim();
  if (raw === undefined || raw === "") return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new DashboardError(400, `${name} must be a number from ${min} to ${max}.`);
  }
  return value;
}

/** `map.<material>` fields: "L/D" or "L" (datatype 0); empty leaves the material out. */
function layerMappingOf(body: unknown, materials: readonly string[]): LayerMapping {
  const mapping: LayerMapping = {};
  for (const material of materials) {
    const raw = field(body, `map.${material}`).trim();
    if (raw === "") continue;
    const m = /^(\d{1,5})(?:\/(\d{1,5}))?$/.exec(raw);
    const layer = Number(m?.[1]);
    const datatype = Number(m?.[2] ?? 0);
    if (!m || layer > 32767 || datatype > 32767) {
      throw new DashboardError(
        400,
        `The layer for ${material} must be LAYER/DATATYPE with numbers 0–32767 (e.g. 1/0), or empty to leave it out.`,
      );
    }
    mapping[material] = { layer, datatype };
  }
  if (Object.keys(mapping).length === 0) {
    throw new DashboardError(400, "Give a GDS layer for at least one material.");
  }
  return mapping;
}

function requiredText(body: unknown, name: string, max: number): string {
  const value = field(body, name).trim();
  if (value === "" || value.length > max) {
    throw new DashboardError(400, `The form needs a ${name}.`);
  }
  return value;
}

export function fabricationRoutes(app: FastifyInstance, d: Dashboard): void {
  const { jobs, fabrication } = d.deps;

  async function ownCompletedJob(accountId: string, id: string) {
    const row = await jobs.getOwnJob(accountId, jobIdOf(id));
    if (row.status !== "COMPLETED") {
      throw new DashboardError(
        409,
        `Job ${row.jobId} is ${row.status}; export needs a completed job.`,
      );
    }
    return row;
  }

  app.get<JobParams>("/api/jobs/:id/fabrication", async (req, reply) => {
    const { account } = d.requireAccount(req);
    const row = await jobs.getOwnJob(account.id, jobIdOf(req.params.id));
    const materials = jobMaterials(row.specJson);
    return reply.header("Cache-Control", "no-store").send({
      materials,
      pdks: fabrication.pdks().map((p) => ({
        name: p.name,
        title: p.title,
        illustrative: p.illustrative,
        layers: p.layers
          .filter((l) => l.fabricated)
          .map((l) => ({ key: l.key, name: l.name, description: l.description })),
        rules: p.rules,
        suggested_mapping: Object.fromEntries(materials.map((m) => [m, kitLayerFor(p, m)])),
      })),
    });
  });

  app.post<JobParams>("/api/jobs/:id/fabrication/export", async (req, reply) => {
    const { account } = d.requireAccount(req);
    const row = await ownCompletedJob(account.id, req.params.id);
    const grid = optionalNumber(req.body, "grid_nm", 1, 10_000) ?? 1;
    const zUm = optionalNumber(req.body, "z_um", -1e6, 1e6);
    const exported = await fabrication.exportJob(account.id, row.jobId, row.specJson, {
      layerMapping: layerMappingOf(req.body, jobMaterials(row.specJson)),
      gridResolutionNm: grid,
      ...(zUm !== undefined ? { zUm } : {}),
    });
    const layout = await fabrication.layout(account.id, exported.gds_url, MAX_DRAWN_POLYGONS);
    return reply.header("Cache-Control", "no-store").send({ export: exported, layout });
  });

  app.post<JobParams>("/api/jobs/:id/fabrication/drc", async (req, reply) => {
    const { account } = d.requireAccount(req);
    await ownCompletedJob(account.id, req.params.id);
    const rules: Record<string, number> = {};
    for (const rule of ["min_feature_nm", "min_spacing_nm", "min_radius_nm"]) {
      const value = optionalNumber(req.body, rule, 0.001, 1e7);
      if (value !== undefined) rules[rule] = value;
    }
    const result = await fabrication.drc(
      account.id,
      requiredText(req.body, "gds_url", 2048),
      requiredText(req.body, "pdk", 64),
      rules,
      hangUpSignal(reply),
    );
    return reply.header("Cache-Control", "no-store").send(result);
  });

  app.post<JobParams>("/api/jobs/:id/fabrication/recipe", async (req, reply) => {
    const { account } = d.requireAccount(req);
    await ownCompletedJob(account.id, req.params.id);
    const recipe = await fabrication.recipe(
      account.id,
      { gdsUrl: requiredText(req.body, "gds_url", 2048) },
      requiredText(req.body, "pdk", 64),
    );
    return reply.header("Cache-Control", "no-store").send(recipe);
  });
}
