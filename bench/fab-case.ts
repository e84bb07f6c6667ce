/**
 * One fabrication benchmark case in its own process (so its peak RSS is its own), run by
 * bench/fab.ts with a JSON argument. It uses the compiled library in dist/ (what the service
 * runs), typed from src/.
 *
 * - {kind: "drc", file, widthNm, spaceNm}: read the GDS file and check layers 1/0 and 2/0.
 * - {kind: "export", structures}: export that many generated structures.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

import type * as ReaderModule from "../src/fabrication/gds/reader.js";
import type * as DrcModule from "../src/fabrication/drc/run.js";
import type * as ExportModule from "../src/fabrication/export.js";

type Reader = typeof ReaderModule;
type Drc = typeof DrcModule;
type Exporter = typeof ExportModule;

const dist = (p: string) => pathToFileURL(join(process.cwd(), "dist", p)).href;
const arg = JSON.parse(process.argv[2] ?? "{}") as {
  kind: "drc" | "export";
  file?: string;
  widthNm?: number;
  spaceNm?: number;
  structures?: number;
};

if (arg.kind === "drc") {
  const { readGds } = (await import(dist("fabrication/gds/reader.js"))) as Reader;
  const { runDrc } = (await import(dist("fabrication/drc/run.js"))) as Drc;
  const t0 = performance.now();
  const layout = readGds(readFileSync(arg.file!));
  const t1 = performance.now();
  const rules = { min_feature_nm: arg.widthNm!, min_spacing_nm: arg.spaceNm! };
  const result = runDrc(layout.layers, { "1/0": rules, "2/0": rules }, { maxViolations: 0 });
  const t2 = performance.now();
  console.log(
    JSON.stringify({
      readSeconds: (t1 - t0) / 1000,
      drcSeconds: (t2 - t1) / 1000,
      totalSeconds: (t2 - t0) / 1000,
      maxRssBytes: process.resourceUsage().maxRSS * 1024,
      layers: result.summary.layers.map((l) => ({
        layer: l.layer,
        ...l.violations,
        merged: l.merged_polygons,
      })),
    }),
  );
} else {
  const { exportGds } = (await import(dist("fabrication/export.js"))) as Exporter;
  const UM = 1e-6;
  const n = arg.structures!;
  const structures: Parameters<Exporter["exportGds"]>[0]["structures"][number][] = [];
  for (let i = 0; i < n; i += 1) {
    const x = (i % 40) * 3;
    const y = Math.floor(i / 40) * 3;
    const kind = i % 3;
    structures.push(
      kind === 0
        ? { type: "sphere", center: [x * UM, y * UM, 0], radius: 1.2 * UM, material: "Si" }
        : kind === 1
          ? {
              type: "cylinder",
              center: [x * UM, y * UM, 0],
              radius: 1 * UM,
              height: 0.22 * UM,
              axis: "z",
              material: "SiO2",
            }
          : {
              type: "box",
              center: [x * UM, y * UM, 0],
              size: [2 * UM, 0.5 * UM, 0.22 * UM],
              material: "Si",
            },
    );
  }
  const options = {
    structures,
    layerMapping: { Si: { layer: 1, datatype: 0 }, SiO2: { layer: 2, datatype: 0 } },
    gridResolutionNm: 1,
    cellName: "BENCH",
  };
  const times: number[] = [];
  let polygons = 0;
  let bytes = 0;
  for (let k = 0; k < 6; k += 1) {
    const t0 = performance.now();
    const r = exportGds(options);
    times.push((performance.now() - t0) / 1000);
    polygons = r.polygon_count;
    bytes = r.bytes.length;
  }
  const warm = times.slice(1).sort((a, b) => a - b);
  console.log(
    JSON.stringify({
      firstSeconds: times[0],
      medianWarmSeconds: warm[warm.length >> 1],
      polygons,
      bytes,
      maxRssBytes: process.resourceUsage().maxRSS * 1024,
    }),
  );
}
