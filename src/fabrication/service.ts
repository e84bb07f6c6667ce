/**
 * The fabrication interface's service layer (no HTTP): exports a job's geometry, stores GDS II
 * files through the storage backend behind signed addresses, resolves those addresses back to
 * the stored objects (never fetching a URL), and runs reads and design-rule checks in worker
 * threads (src/threads) with a time and heap limit and a cap on checks at once.
 *
 * Stored files: `gds/<account id>/<random id>.gds`. A `gds_url` is accepted when the storage
 * backend signed it (expired or not) and its key is under the caller's account: another
 * account's address, a tampered one or any other URL is refused alike.
 */

import { randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Config } from "../config.js";
import { errors, type ApiError } from "../errors.js";
import type { SimulationRequest } from "../schema/simulation.js";
import type { SimulationSpec } from "../solver/index.js";
import { layerKey } from "./gds-import.js";
import { resolveGds } from "./gds-resolve.js";
import type { StorageBackend } from "../storage/types.js";
import { TaskThreads, type TaskThreadErrors, type ThreadFailure } from "../threads/task-threads.js";
import type { DrcResult, LayerRules } from "./drc/run.js";
import { ExportInputError, exportGds, type ExportResult, type GdsLayerTarget } from "./export.js";
import { findPdk, pdkNames, PDKS, type Pdk } from "./pdks.js";
import { generateRecipe, type Recipe, type RecipeOptions } from "./recipe.js";
import type { ImportResult, InspectResult, ThreadTask } from "./thread.js";

const THREAD_URL = new URL(
  `./thread${import.meta.url.endsWith(".ts") ? ".ts" : ".js"}`,
  import.meta.url,
);

export interface StoredGds {
  gds_url: string;
  /** When the address stops working for downloads (it still works for /drc and /recipe). */
  expires_at: string;
}

export interface ExportResponse extends StoredGds {
  /** GDS layer numbers used (spec §4.5). */
  layers: number[];
  layer_details: ExportResult["layers"];
  bounding_box_um: [number, number];
  bbox_um: ExportResult["bbox_um"];
  polygon_count: number;
  merged_polygon_count: number;
  unmapped_materials: string[];
  skipped: ExportResult["skipped"];
  clipped: ExportResult["clipped"];
  grid_resolution_nm: number;
  max_sagitta_nm: number;
  cut_plane_um: number | null;
}

export interface UploadResponse extends StoredGds {
  layers: number[];
  layer_keys: string[];
  bounding_box_um: [number, number];
  bbox_um: [number, number, number, number] | null;
  polygon_count: number;
  cells: string[];
  top_cells: string[];
  warnings: string[];
}

export interface DrcResponse {
  passed: boolean;
  violations: DrcResult["violations"];
  /** One paragraph for people (spec §4.5: a string). */
  summary: string;
  summary_details: DrcResult["summary"] & { pdk: string; file_warnings: string[] };
}

/** A stored file's merged polygons per layer, for drawing (integer nm, rings as x, y pairs). */
export interface LayoutGeometry {
  /** Merged polygons per "layer/datatype": outlines and holes as flat [x0, y0, x1, y1, …]. */
  layers: Record<string, Array<{ outline: number[]; holes: number[][] }>>;
  /** [xmin, ymin, xmax, ymax] in nm, null for an empty layout. */
  bbox_nm: [number, number, number, number] | null;
  polygon_count: number;
  /** True when the file has more than the polygons asked for; `layers` is then empty. */
  too_large: boolean;
}

export class FabricationService {
  /** Reads and design-rule checks, under config.fabrication's time, heap and concurrency limits. */
  private readonly threads = new TaskThreads<ThreadTask, unknown>(
    THREAD_URL,
    () => this.config.fabrication,
    THREAD_ERRORS,
  );

  constructor(
    private readonly storage: StorageBackend,
    private readonly config: Config,
  ) {}

  pdks(): readonly Pdk[] {
    return PDKS;
  }

  /** Exports a job's structures (its validated spec) as GDS II and stores the file. */
  async exportJob(
    accountId: string,
    jobId: string,
    specJson: string,
    options: {
      layerMapping: Record<string, GdsLayerTarget>;
      gridResolutionNm: number;
      zUm?: number;
    },
  ): Promise<ExportResponse> {
    const spec = JSON.parse(specJson) as SimulationSpec;
    let result: ExportResult;
    try {
      result = exportGds({
        structures: spec.structures,
        layerMapping: options.layerMapping,
        gridResolutionNm: options.gridResolutionNm,
        zUm: options.zUm,
        cellName: `JOB_${jobId.replace(/[^A-Za-z0-9]/g, "").slice(0, 8)}`,
        // Half the domain's size across, in µm (the domain is centred on the origin).
        domainHalfUm: [(spec.domain.size[0] * 1e6) / 2, (spec.domain.size[1] * 1e6) / 2],
      });
    } catch (err) {
      if (err instanceof ExportInputError) {
        throw errors.validation([{ path: err.path, message: err.message }]);
      }
      throw err;
    }
    const stored = await this.store(accountId, result.bytes, `emsim-${jobId}.gds`);
    return {
      ...stored,
      layers: [...new Set(result.layers.map((l) => l.layer))].sort((a, b) => a - b),
      layer_details: result.layers,
      bounding_box_um: result.bounding_box_um,
      bbox_um: result.bbox_um,
      polygon_count: result.polygon_count,
      merged_polygon_count: result.merged_polygon_count,
      unmapped_materials: result.unmapped_materials,
      skipped: result.skipped,
      clipped: result.clipped,
      grid_resolution_nm: result.grid_resolution_nm,
      max_sagitta_nm: result.max_sagitta_nm,
      cut_plane_um: result.cut_plane === "structure_centre" ? null : result.cut_plane,
    };
  }

  /**
   * Reads an uploaded file (refusing what the reader refuses) and stores it. Here and in the
   * checks below, a `signal` that aborts (the caller hung up) stops the read or check at once,
   * its thread terminated, and the call rejects with the signal's reason.
   */
  async upload(
    accountId: string,
    bytes: Uint8Array,
    signal?: AbortSignal,
  ): Promise<UploadResponse> {
    const info = (await this.threads.run({ op: "inspect", bytes }, { signal })) as InspectResult;
    const stored = await this.store(accountId, bytes, "layout.gds");
    const b = info.bboxNm;
    return {
      ...stored,
      layers: [...new Set(info.layers.map((k) => Number(k.split("/")[0])))].sort((x, y) => x - y),
      layer_keys: info.layers,
      bounding_box_um: b ? [(b[2] - b[0]) / 1000, (b[3] - b[1]) / 1000] : [0, 0],
      bbox_um: b ? [b[0] / 1000, b[1] / 1000, b[2] / 1000, b[3] / 1000] : null,
      polygon_count: info.polygonCount,
      cells: info.cells,
      top_cells: info.topCells,
      warnings: info.warnings,
    };
  }

  /** Design-rule check of a stored file against a kit's rules, with the request's overriding. */
  async drc(
    accountId: string,
    gdsUrl: string,
    pdkName: string,
    overrides: { min_feature_nm?: number; min_spacing_nm?: number; min_radius_nm?: number } = {},
    signal?: AbortSignal,
  ): Promise<DrcResponse> {
    const pdk = this.pdk(pdkName);
    const bytes = await this.fetchOwn(accountId, gdsUrl);
    // Only the rules the request gives override the kit's (an absent one must not erase it).
    const fallback: LayerRules = {};
    if (overrides.min_feature_nm !== undefined) fallback.min_feature_nm = overrides.min_feature_nm;
    if (overrides.min_spacing_nm !== undefined) fallback.min_spacing_nm = overrides.min_spacing_nm;
    if (overrides.min_radius_nm !== undefined) fallback.min_radius_nm = overrides.min_radius_nm;
    const task: ThreadTask = {
      op: "drc",
      bytes,
      rules: pdk.rules,
      fallback: Object.keys(fallback).length > 0 ? fallback : undefined,
      markers: pdk.layers.filter((l) => !l.fabricated).map((l) => l.key),
    };
    const out = (await this.threads.run(task, { signal })) as {
      drc: DrcResult;
      warnings: string[];
    };
    const { drc } = out;
    return {
      passed: drc.passed,
      violations: drc.violations,
      summary: summarise(drc, pdk.name),
      summary_details: { ...drc.summary, pdk: pdk.name, file_warnings: out.warnings },
    };
  }

  /**
   * The request with every `type: "gds"` structure replaced by the polyslabs of its mapped
   * layers (gds-import.ts), read from the caller's own stored file; other structures and
   * their order are kept. A structure's `ports` adds the ports its labels give (gds-ports.ts)
   * after the request's own, and extends their guides through the domain's absorber
   * (gds-port-extension.ts). A request without gds structures is returned as it is. A
   * `signal` that aborts (the caller hung up) stops a layout's read at once, as in upload.
   */
  async resolveGdsStructures(
    accountId: string,
    request: SimulationRequest,
    signal?: AbortSignal,
  ): Promise<SimulationRequest> {
    return resolveGds(request, {
      importLayout: async (g, path, labels) => {
        const bytes = await this.fetchOwn(accountId, g.gds_url, `${path}.gds_url`);
        const task: ThreadTask = {
          op: "import",
          bytes,
          cell: g.cell,
          layers: g.layers.map((l) => layerKey(l.layer, l.datatype)),
          ...(labels ? { labels } : {}),
        };
        return (await this.threads.run(task, { signal })) as ImportResult;
      },
      fail: (fieldErrors) => {
        throw errors.validation(fieldErrors);
      },
    });
  }

  /** A process flow for the layers of a stored file, or of an explicit layer list. */
  async recipe(
    accountId: string,
    source: { gdsUrl: string } | { layers: string[] },
    pdkName: string,
    options: RecipeOptions = {},
    signal?: AbortSignal,
  ): Promise<Recipe & { pdk_title: string }> {
    const pdk = this.pdk(pdkName);
    let layers: string[];
    if ("gdsUrl" in source) {
      const bytes = await this.fetchOwn(accountId, source.gdsUrl);
      const info = (await this.threads.run({ op: "inspect", bytes }, { signal })) as InspectResult;
      layers = info.layers;
    } else {
      layers = source.layers;
    }
    return { ...generateRecipe(pdk, layers, options), pdk_title: pdk.title };
  }

  /**
   * The merged polygons of a stored file, per layer (for the dashboard's drawing): merged as
   * DRC merges them, so the drawing shows what the rules were checked on. Files with more than
   * `maxPolygons` polygons are not returned (`too_large`).
   */
  async layout(accountId: string, gdsUrl: string, maxPolygons = 20_000): Promise<LayoutGeometry> {
    const bytes = await this.fetchOwn(accountId, gdsUrl);
    const info = (await this.threads.run({ op: "inspect", bytes })) as InspectResult;
    const base = { bbox_nm: info.bboxNm, polygon_count: info.polygonCount };
    if (info.polygonCount > maxPolygons) return { ...base, layers: {}, too_large: true };
    const merged = (await this.threads.run({
      op: "import",
      bytes,
      layers: info.layers,
    })) as Extract<ImportResult, { ok: true }>;
    const layers: LayoutGeometry["layers"] = {};
    for (const [key, polygons] of Object.entries(merged.layers)) {
      layers[key] = polygons.map((p) => ({
        outline: Array.from(p.outline),
        holes: p.holes.map((h) => Array.from(h)),
      }));
    }
    return { ...base, layers, too_large: false };
  }

  private pdk(name: string): Pdk {
    const pdk = findPdk(name);
    if (!pdk) {
      throw errors.validation([
        { path: "pdk", message: `unknown process design kit; known: ${pdkNames().join(", ")}` },
      ]);
    }
    return pdk;
  }

  private async store(accountId: string, bytes: Uint8Array, name: string): Promise<StoredGds> {
    const key = `gds/${accountId}/${randomUUID().replace(/-/g, "")}.gds`;
    const dir = await mkdtemp(join(tmpdir(), "emsim-gds-"));
    try {
      const path = join(dir, "upload.gds");
      await writeFile(path, bytes);
      await this.storage.putFile(key, path);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    const ttl = this.config.downloadUrlTtlSeconds;
    return {
      gds_url: await this.storage.signedDownloadUrl(key, ttl, name),
      expires_at: new Date(Date.now() + ttl * 1000).toISOString(),
    };
  }

  /** The bytes behind a gds_url this service issued to this account. */
  private async fetchOwn(accountId: string, gdsUrl: string, path = "gds_url"): Promise<Uint8Array> {
    const resolved = await this.storage.resolveSignedUrl(gdsUrl);
    const ownKey = new RegExp(`^gds/${escapeRegExp(accountId)}/[0-9a-f]{32}\\.gds$`);
    if (!resolved || !ownKey.test(resolved.key)) {
      throw errors.validation([
        {
          path,
          message:
            "is not a GDS address this service issued to your account (use the gds_url from /v1/fabrication/export-gds or /v1/fabrication/gds)",
        },
      ]);
    }
    const object = await this.storage.stat(resolved.key);
    if (!object) throw errors.gdsNotFound();
    const chunks: Buffer[] = [];
    for await (const chunk of await this.storage.read(resolved.key)) chunks.push(chunk as Buffer);
    return new Uint8Array(Buffer.concat(chunks));
  }

  /** Stops the idle threads (server shutdown). */
  async close(): Promise<void> {
    await this.threads.close();
  }
}

/** Fabrication's words for the threads' failures: a layout past a limit is "too large". */
const THREAD_ERRORS: TaskThreadErrors = {
  busy: () => errors.fabricationBusy(5),
  timedOut: (limits) =>
    errors.fabricationTooLarge(
      `The check did not finish within ${limits.timeoutSeconds} s; the layout is too large for this service.`,
    ),
  outOfMemory: (limits) =>
    errors.fabricationTooLarge(
      `The check needed more than ${limits.maxMemoryMb} MiB; the layout is too large for this service.`,
    ),
  failed: toApiError,
};

function toApiError(e: ThreadFailure): ApiError | Error {
  if (e.name === "GdsError") return errors.gdsInvalid(e.reason ?? "invalid", e.message);
  return new Error(`fabrication thread failed: ${e.name}: ${e.message}`);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The human summary: counts per rule and layer, and the notes (e.g. no curved features). */
export function summarise(drc: DrcResult, pdk: string): string {
  const s = drc.summary;
  const parts: string[] = [];
  if (s.checked_layers.length === 0) {
    parts.push(`No layer of the layout has rules in ${pdk}: nothing was checked.`);
  } else if (s.violation_count === 0) {
    parts.push(`Passed: no violations on ${s.checked_layers.join(", ")} (${pdk}).`);
  } else {
    const perLayer = s.layers
      .filter(
        (l) => l.violations.min_feature + l.violations.min_spacing + l.violations.min_radius > 0,
      )
      .map((l) => {
        const v = l.violations;
        const bits = [
          v.min_feature ? `${v.min_feature} min_feature` : "",
          v.min_spacing ? `${v.min_spacing} min_spacing` : "",
          v.min_radius ? `${v.min_radius} min_radius` : "",
        ].filter(Boolean);
        return `${l.layer}: ${bits.join(", ")}`;
      });
    parts.push(
      `${drc.passed ? "Passed with warnings" : "Failed"}: ${s.violation_count} violation(s) (${s.errors} error(s), ${s.warnings} warning(s)) against ${pdk} — ${perLayer.join("; ")}.`,
    );
    if (s.truncated) parts.push(`The list holds the first ${drc.violations.length}.`);
  }
  parts.push(...s.notes);
  return parts.join(" ");
}
