/**
 * `npm run bench:fab`: design-rule checks side by side with KLayout, and the GDS export.
 *
 *  1. Generated layouts of 10 000 and 100 000 shapes on two layers (1/0 and 2/0): rectangles,
 *     L shapes, circles (1 nm sagitta) and thin lines at about one shape per 4 µm², written by
 *     our writer.
 *  2. Ours: read the file and run min_feature (width, projection) and min_spacing (space,
 *     Euclidean) at 150 nm on both layers, with the compiled library (dist/), each run in its
 *     own process (bench/fab-case.ts) for its peak RSS.
 *  3. KLayout 0.28 on the same files: a DRC deck (`source`, `input(l, d).merged`,
 *     `width(150.nm, projection)`, `space(150.nm, euclidian)`), under `/usr/bin/time` for
 *     wall time and peak RSS; the deck also prints its own time from `source` to the end
 *     (start-up excluded).
 *  4. Export of 1 000 simulation structures (spheres, z-cylinders, boxes): first call and the
 *     median of five more.
 *
 * Each DRC figure is the median of BENCH_REPEATS runs (default 3). Violation counts of both
 * tools are printed: they must agree.
 */

import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { writeGds } from "../src/fabrication/gds/writer.js";
import { denseLayout } from "../src/fabrication/testing/random-layouts.js";

const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
const SIZES = [10_000, 100_000];
const RULE_NM = 150;

const median = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1]!;
const mib = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`;

interface OursCase {
  readSeconds: number;
  drcSeconds: number;
  totalSeconds: number;
  maxRssBytes: number;
  layers: Array<{ layer: string; min_feature: number; min_spacing: number; merged: number }>;
}

function runOurs(arg: object): OursCase {
  const r = spawnSync(
    process.execPath,
    ["--import", "tsx", "bench/fab-case.ts", JSON.stringify(arg)],
    {
      encoding: "utf8",
      maxBuffer: 1 << 24,
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  if (r.status !== 0) throw new Error(`case ${JSON.stringify(arg)} failed (exit ${r.status})`);
  return JSON.parse(r.stdout.trim().split("\n").pop() ?? "") as OursCase;
}

const DECK = `
t0 = Time.now
source($input)
[[1, 0], [2, 0]].each do |l, d|
  layer = input(l, d).merged
  w = layer.width($rule.to_f.nm, projection)
  s = layer.space($rule.to_f.nm, euclidian)
  puts "layer #{l}/#{d} #{w.count} #{s.count} #{layer.count}"
end
puts "seconds #{Time.now - t0}"
`;

interface KlayoutCase {
  wallSeconds: number;
  deckSeconds: number;
  maxRssBytes: number;
  layers: Array<{ layer: string; min_feature: number; min_spacing: number; merged: number }>;
}

function runKlayout(deck: string, file: string): KlayoutCase {
  const r = spawnSync(
    "/usr/bin/time",
    [
      "-f",
      "TIME %e %M",
      "klayout",
      "-b",
      "-r",
      deck,
      "-rd",
      `input=${file}`,
      "-rd",
      `rule=${RULE_NM}`,
    ],
    { encoding: "utf8", maxBuffer: 1 << 24 },
  );
  if (r.status !== 0) throw new Error(`KLayout failed: ${r.stderr}`);
  const time = /TIME ([\d.]+) (\d+)/.exec(r.stderr)!;
  const layers = [...r.stdout.matchAll(/layer (\S+) (\d+) (\d+) (\d+)/g)].map((m) => ({
    layer: m[1]!,
    min_feature: Number(m[2]),
    min_spacing: Number(m[3]),
    merged: Number(m[4]),
  }));
  return {
    wallSeconds: Number(time[1]),
    deckSeconds: Number(/seconds ([\d.]+)/.exec(r.stdout)![1]),
    maxRssBytes: Number(time[2]) * 1024,
    layers,
  };
}

const dir = mkdtempSync(join(tmpdir(), "emsim-bench-fab-"));
const deck = join(dir, "deck.drc");
writeFileSync(deck, DECK);
console.log(
  `# bench:fab — ${new Date().toISOString()}, ${cpus()[0]?.model ?? "unknown CPU"}, ` +
    `${availableParallelism()} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}\n`,
);
const klayoutVersion = spawnSync("klayout", ["-v"], { encoding: "utf8" }).stdout.trim();

console.log(
  `## DRC, ${RULE_NM} nm width and space on two layers (${klayoutVersion}), median of ${REPEATS}\n`,
);
console.log(
  "| shapes | vertices | ours: read + DRC s | ours: DRC s | ours peak RSS | KLayout wall s | KLayout deck s | KLayout peak RSS | ours ÷ KLayout wall | ours ÷ KLayout deck | violations (ours / KLayout) |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|---|");
const totals: number[] = [];
for (const n of SIZES) {
  const layers = denseLayout(n, 42 + n);
  const vertices = layers.flat().reduce((a, r) => a + r.length / 2, 0);
  const file = join(dir, `layout-${n}.gds`);
  writeFileSync(
    file,
    writeGds({
      cellName: "BENCH",
      layers: layers.map((polygons, i) => ({ layer: i + 1, datatype: 0, polygons })),
    }).bytes,
  );
  const ours: OursCase[] = [];
  const theirs: KlayoutCase[] = [];
  for (let k = 0; k < REPEATS; k += 1) {
    ours.push(runOurs({ kind: "drc", file, widthNm: RULE_NM, spaceNm: RULE_NM }));
    theirs.push(runKlayout(deck, file));
  }
  const total = median(ours.map((o) => o.totalSeconds));
  const drc = median(ours.map((o) => o.drcSeconds));
  const wall = median(theirs.map((t) => t.wallSeconds));
  const deckS = median(theirs.map((t) => t.deckSeconds));
  totals.push(total);
  const count = (ls: OursCase["layers"]) =>
    ls.map((l) => `${l.min_feature}+${l.min_spacing}`).join(", ");
  console.log(
    `| ${n.toLocaleString("en")} | ${vertices.toLocaleString("en")} | ${total.toFixed(2)} | ${drc.toFixed(2)} | ` +
      `${mib(Math.max(...ours.map((o) => o.maxRssBytes)))} | ${wall.toFixed(2)} | ${deckS.toFixed(2)} | ` +
      `${mib(Math.max(...theirs.map((t) => t.maxRssBytes)))} | ${(total / wall).toFixed(2)} | ${(total / deckS).toFixed(2)} | ` +
      `${count(ours[0]!.layers)} / ${count(theirs[0]!.layers)} |`,
  );
}
const growth = totals[1]! / totals[0]!;
const nlogn = (SIZES[1]! * Math.log(SIZES[1]!)) / (SIZES[0]! * Math.log(SIZES[0]!));
console.log(
  `\nGrowth 10⁴ → 10⁵ shapes: ours ×${growth.toFixed(1)} (n log n would be ×${nlogn.toFixed(1)}, n² ×100).\n`,
);

console.log("## Export of 1 000 structures (spheres, z-cylinders, boxes; 1 nm grid)\n");
const exp = JSON.parse(
  spawnSync(
    process.execPath,
    ["--import", "tsx", "bench/fab-case.ts", JSON.stringify({ kind: "export", structures: 1000 })],
    {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    },
  ).stdout.trim(),
) as {
  firstSeconds: number;
  medianWarmSeconds: number;
  polygons: number;
  bytes: number;
  maxRssBytes: number;
};
console.log(
  "| structures | polygons | file | first call s | warm median s | peak RSS |\n|---|---|---|---|---|---|",
);
console.log(
  `| 1,000 | ${exp.polygons} | ${(exp.bytes / 1024).toFixed(0)} KiB | ${exp.firstSeconds.toFixed(3)} | ${exp.medianWarmSeconds.toFixed(3)} | ${mib(exp.maxRssBytes)} |`,
);
