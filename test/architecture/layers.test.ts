/**
 * The imports between src/'s folders point one way (docs/architecture.md): each module of
 * src/ (a folder, or a file at its top) sits in a layer and imports only from layers below
 * its own. A new import that points up or sideways fails here with the file and the line, so
 * the direction stays fixed. Tests (`*.test.ts`) are left out: they may build their inputs with
 * whatever helps (the solver's tests fill requests in with src/schema's defaults).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../../src");

/**
 * Lowest first. solver ← worker ← jobs ← http, with the dashboard and the CLI on top; the
 * stores, storage and schemas sit under the worker; the composition root wires them all.
 */
const LAYERS: readonly (readonly string[])[] = [
  ["solver"], // pure physics
  ["errors.ts", "config.ts"], // coded errors; configuration (names the solver's backends)
  ["schema", "results"], // request and response shapes and checks; the HDF5 result file
  ["store", "storage", "plot", "threads"], // SQLite/PostgreSQL; files/S3; drawing; task threads
  ["worker", "auth", "fabrication"], // runs jobs; keys and sessions; GDS II, DRC, recipes
  ["jobs", "accounts", "modes", "preview"], // lifecycle and admission; accounts and keys; mode solves; set-up previews
  ["batches"], // sweeps: a batch's variants, admitted and followed as jobs
  ["metrics"], // Prometheus metrics (reads the jobs' run-time model)
  ["http", "client"], // the API's routes; the typed SDK
  ["dashboard"], // the web dashboard (a Fastify plugin)
  ["service.ts"], // the composition root
  ["cli"], // the command line, which starts the service
];

function layerOf(module: string): number {
  const i = LAYERS.findIndex((layer) => layer.includes(module));
  if (i < 0) throw new Error(`src/${module} is in no layer: add it to LAYERS`);
  return i;
}

/** `solver` for src/solver/…, `config.ts` for src/config.ts (a .js specifier names the .ts). */
function moduleOf(path: string): string {
  const first = relative(SRC, path).split(sep)[0]!;
  return first.replace(/\.js$/, ".ts");
}

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (/\.(ts|js|mjs)$/.test(name) && !/\.(test|d)\.ts$/.test(name)) out.push(path);
  }
  return out;
}

interface Edge {
  file: string;
  line: number;
  from: string;
  to: string;
}

/** Every import of one src/ module by another: static, `export … from`, dynamic. */
function crossModuleImports(): Edge[] {
  const edges: Edge[] = [];
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, "utf8");
    const from = moduleOf(file);
    for (const ref of ts.preProcessFile(text, true, true).importedFiles) {
      if (!ref.fileName.startsWith(".")) continue; // packages and node: built-ins
      const target = resolve(dirname(file), ref.fileName);
      if (!target.startsWith(SRC + sep)) continue;
      const to = moduleOf(target);
      if (to === from) continue;
      const line = text.slice(0, ref.pos).split("\n").length;
      edges.push({ file: relative(SRC, file), line, from, to });
    }
  }
  return edges;
}

test("every module of src/ is in a layer, once", () => {
  const modules = readdirSync(SRC).filter(
    (name) => statSync(join(SRC, name)).isDirectory() || /\.ts$/.test(name),
  );
  for (const module of modules) layerOf(module);
  const listed = LAYERS.flat();
  assert.equal(new Set(listed).size, listed.length, "a module listed in two layers");
  for (const module of listed) assert.ok(modules.includes(module), `src/${module} does not exist`);
});

test("imports between src/'s modules only point down the layers", () => {
  const edges = crossModuleImports();
  assert.ok(edges.length > 100, `only ${edges.length} imports found: the scan is broken`);
  const wrong = edges
    .filter((e) => layerOf(e.to) >= layerOf(e.from))
    .map((e) => `src/${e.file}:${e.line} (${e.from}) imports ${e.to}`);
  assert.deepEqual(wrong, [], `imports that point up or sideways:\n${wrong.join("\n")}`);
});

test("the scan sees the kinds of import that would break the layering", () => {
  // A worker file importing src/jobs three ways: each must be found, or the test above
  // would pass on a wrong tree.
  const text = [
    `import { a } from "../jobs/lifecycle.js";`,
    `export { b } from "../jobs/service.js";`,
    `const c = await import("../jobs/timing.js");`,
    `type D = import("../jobs/records.js").JobRecord;`,
  ].join("\n");
  const found = ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
  assert.deepEqual(found.sort(), [
    "../jobs/lifecycle.js",
    "../jobs/records.js",
    "../jobs/service.js",
    "../jobs/timing.js",
  ]);
  assert.ok(layerOf("jobs") > layerOf("worker"));
});

const SOLVER = join(SRC, "solver");

/**
 * The imports among src/solver's modules, tests (`*.test.ts`) and their helpers (`testing/`)
 * aside: per file (relative to src/solver), the files it imports, `import type` included.
 */
function solverImports(): Map<string, string[]> {
  const files = sourceFiles(SOLVER).filter((f) => !relative(SOLVER, f).startsWith(`testing${sep}`));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets: string[] = [];
    for (const ref of ts.preProcessFile(readFileSync(file, "utf8"), true, true).importedFiles) {
      if (!ref.fileName.startsWith(".")) continue;
      const target = resolve(dirname(file), ref.fileName);
      const asTs = target.replace(/\.js$/, ".ts");
      targets.push(relative(SOLVER, existsSync(asTs) ? asTs : target));
    }
    graph.set(relative(SOLVER, file), targets);
  }
  for (const [file, targets] of graph)
    graph.set(
      file,
      targets.filter((t) => graph.has(t)),
    );
  return graph;
}

/**
 * One cycle per strongly connected component of more than one file (or a file importing
 * itself), as the files in import order with the first repeated at the end.
 */
function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || graph.get(v)?.includes(v)) components.push(component);
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return components.map((component) => cycleThrough(graph, new Set(component)));
}

/** The shortest cycle through the component's first file (in order), by breadth-first search. */
function cycleThrough(
  graph: ReadonlyMap<string, readonly string[]>,
  within: Set<string>,
): string[] {
  const start = [...within].sort()[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const v = queue[i]!;
    for (const w of graph.get(v) ?? []) {
      if (!within.has(w)) continue;
      if (w === start) {
        const path: string[] = [];
        for (let u = v; u !== start; u = previous.get(u)!) path.unshift(u);
        return [start, ...path, start];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  throw new Error(`no cycle through ${start}`);
}

test("no import cycle among src/solver's modules (type imports included)", () => {
  const graph = solverImports();
  assert.ok(graph.size > 50, `only ${graph.size} solver files found: the scan is broken`);
  const cycles = importCycles(graph).map((c) => c.map((f) => `src/solver/${f}`).join(" → "));
  assert.deepEqual(cycles, [], `import cycles in src/solver:\n${cycles.join("\n")}`);
});

test("the cycle search finds a cycle and names its files", () => {
  const graph = new Map([
    ["a.ts", ["b.ts"]],
    ["b.ts", ["c.ts", "d.ts"]],
    ["c.ts", ["a.ts"]],
    ["d.ts", []],
    ["e.ts", ["e.ts"]],
  ]);
  assert.deepEqual(importCycles(graph), [
    ["a.ts", "b.ts", "c.ts", "a.ts"],
    ["e.ts", "e.ts"],
  ]);
});

/** The folders of src/solver that hold one backend each; the core (the rest) imports none. */
const BACKEND_FOLDERS = ["reference", "wasm", "webgpu"] as const;
/** The one core file that may import the backends: it picks which one runs. */
const REGISTRY = "backends.ts";

const backendOf = (file: string): string | undefined =>
  BACKEND_FOLDERS.find((folder) => file.startsWith(`${folder}${sep}`));

/** Imports into a backend folder from the core (the registry aside) or from another backend. */
function backendBreaches(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const wrong: string[] = [];
  for (const [file, targets] of graph) {
    const from = backendOf(file);
    for (const target of targets) {
      const to = backendOf(target);
      if (to === undefined || to === from || (from === undefined && file === REGISTRY)) continue;
      wrong.push(`src/solver/${file} (${from ?? "core"}) imports src/solver/${target}`);
    }
  }
  return wrong;
}

test("each backend lives in a folder of its own, and only the registry imports the backends", () => {
  const graph = solverImports();
  for (const folder of BACKEND_FOLDERS) {
    const files = [...graph.keys()].filter((f) => backendOf(f) === folder);
    assert.ok(files.length > 0, `src/solver/${folder}/ holds no backend: the scan is broken`);
  }
  const wrong = backendBreaches(graph);
  assert.deepEqual(wrong, [], `imports of a backend outside the registry:\n${wrong.join("\n")}`);
  const caught = backendBreaches(new Map([["run.ts", [`wasm${sep}engine.ts`]]]));
  assert.equal(caught.length, 1, "a core file importing a backend must be caught");
});

test("outside src/solver, the solver is imported through its index", () => {
  const index = join(SOLVER, "index.ts");
  const wrong: string[] = [];
  for (const file of sourceFiles(SRC)) {
    if (file.startsWith(SOLVER + sep)) continue;
    const text = readFileSync(file, "utf8");
    for (const ref of ts.preProcessFile(text, true, true).importedFiles) {
      if (!ref.fileName.startsWith(".")) continue;
      const target = resolve(dirname(file), ref.fileName).replace(/\.js$/, ".ts");
      if (!target.startsWith(SOLVER + sep) || target === index) continue;
      const line = text.slice(0, ref.pos).split("\n").length;
      wrong.push(`src/${relative(SRC, file)}:${line} imports ${ref.fileName}`);
    }
  }
  assert.deepEqual(wrong, [], `solver files imported past its index:\n${wrong.join("\n")}`);
});
