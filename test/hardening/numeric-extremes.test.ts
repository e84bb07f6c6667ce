/**
 * Issue #26, item 1: every finite number in a request gets a 200 or a 422 whose `detail`
 * names the field — never a 500, a hang or a crash. A sphere of radius 1e308 made the
 * estimate's surface-cell count NaN (4π·r² overflowed, times a fraction of 0), and a mesh
 * override step of 5e-324 made the grid planner loop until V8 died. Here each numeric field
 * of a request that uses every part of the schema is set in turn to the extremes of a double,
 * against a real server process.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { startServerProcess, type ServerProcess, createKeyWithCli } from "../helpers/process.js";
import { freePort, smallSimulation, tempDir } from "../helpers/service.js";

let server: ServerProcess;
let key: string;

before(async () => {
  const dataDir = tempDir();
  key = createKeyWithCli("extremes@example.com", dataDir);
  server = await startServerProcess(await freePort(), dataDir, {
    // Nothing runs: submissions stay QUEUED, and enough may be active at once.
    EMSIM_EMBEDDED_WORKER: "false",
    EMSIM_MAX_ACTIVE_JOBS: "1000",
    EMSIM_RATE_LIMIT_PER_MINUTE: "0",
  });
});
after(async () => server?.kill("SIGKILL"));

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Path = (string | number)[];

const square = (h: number): Json => [
  [-h, -h],
  [h, -h],
  [h, h],
  [-h, h],
];

/** One structure of each type with numbers (gds needs an uploaded file: not here). */
const STRUCTURES: Json[] = [
  { type: "box", center: [0, 0, 0.5e-6], size: [0.4e-6, 0.4e-6, 0.2e-6], material: "SiO2" },
  { type: "sphere", center: [0, 0, 0.3e-6], radius: 0.1e-6, material: "SiO2" },
  {
    type: "cylinder",
    center: [0, 0, -0.3e-6],
    radius: 0.1e-6,
    height: 0.2e-6,
    axis: "z",
    material: "glass",
  },
  {
    type: "polyslab",
    vertices: square(0.15e-6),
    holes: [square(0.05e-6)],
    z_min: -0.8e-6,
    z_max: -0.6e-6,
    sidewall_angle_deg: 10,
    material: "metal",
  },
];

/** A constant material and one with a Lorentz and a Drude pole. */
const MATERIALS: Json = {
  glass: { permittivity: 2.1, conductivity: 0 },
  metal: {
    permittivity: 1.5,
    conductivity: 10,
    poles: [
      { type: "lorentz", delta_eps: 0.5, omega0: 3e15, gamma: 1e13 },
      { type: "drude", omega_p: 1e15, gamma: 1e14 },
    ],
  },
};

/** A field monitor with a list of wavelengths, a flux plane with a range. */
const MONITORS: Json[] = [
  {
    name: "line",
    monitor_type: "field",
    center: [0, 0, 0],
    size: [0, 0, 1e-6],
    components: ["Ex", "Hy"],
    wavelengths: [1.5e-6, 1.55e-6, 1.6e-6],
  },
  {
    name: "t",
    monitor_type: "flux",
    center: [0, 0, 0.8e-6],
    size: [0.4e-6, 0.4e-6, 0],
    wavelengths: { start: 1.4e-6, stop: 1.7e-6, points: 5 },
  },
];

/** A valid request with every kind of numeric field: graded grid, all structures, poles. */
function richRequest(): { [k: string]: Json } {
  return structuredClone({
    solver: "fdtd",
    domain: {
      size: [0.4e-6, 0.4e-6, 2e-6],
      resolution: 0.05e-6,
      boundary_conditions: ["periodic", "periodic", "pml"],
      pml_layers: 8,
      mesh_overrides: [
        { center: [0, 0, 0.3e-6], size: [0.2e-6, 0.2e-6, 0.2e-6], resolution: 0.025e-6 },
        // A plane (zero extent along z) refined along z only.
        {
          center: [0, 0, -0.3e-6],
          size: [0.1e-6, 0.1e-6, 0],
          resolution: [0.05e-6, 0.05e-6, 0.025e-6],
        },
      ],
      max_step_ratio: 1.5,
    },
    source: {
      source_type: "plane_wave",
      wavelength: 1.55e-6,
      polarization: "tm",
      direction: [0, 0, 1],
      amplitude: 2,
    },
    structures: STRUCTURES,
    materials: MATERIALS,
    monitors: MONITORS,
    fdtd_settings: {
      time_steps: 3000,
      courant_factor: 0.9,
      convergence_threshold: 1e-4,
      check_every_n: 200,
    },
    metadata: { project: "extremes", run: 1 },
  });
}

/** The extremes of a double, and zero of both signs. */
const EXTREMES = [
  1e308, -1e308, 1.7976931348623157e308, -1.7976931348623157e308, 5e-324, -5e-324, -0, 0,
];

/** Paths to every number in `doc`, metadata (free-form, not a number the service reads) aside. */
function numericPaths(doc: Json, prefix: Path = []): Path[] {
  if (typeof doc === "number") return [prefix];
  if (Array.isArray(doc)) return doc.flatMap((v, i) => numericPaths(v, [...prefix, i]));
  if (doc && typeof doc === "object") {
    return Object.entries(doc)
      .filter(([k]) => !(prefix.length === 0 && k === "metadata"))
      .flatMap(([k, v]) => numericPaths(v, [...prefix, k]));
  }
  return [];
}

/** `doc` with the value at `path` replaced (a copy). */
function withValue(doc: Json, path: Path, value: number): Json {
  const copy = structuredClone(doc);
  let node = copy as Record<string | number, Json>;
  for (const p of path.slice(0, -1)) node = node[p] as Record<string | number, Json>;
  node[path[path.length - 1]!] = value;
  return copy;
}

/** The service's name for a path: `structures[1].radius`, `domain.size[0]`. */
function fieldName(path: Path): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? p : `.${p}`)).join("");
}

/**
 * The names a 422 may give the field at `path`: the field itself, or anything that holds it
 * below the request's top-level sections: the list it is an entry of (`domain.size` for
 * `domain.size[2]`, `structures[3].vertices` for a vertex's coordinate) or the entry that holds
 * it (`structures[3]` for a hole that crosses the polyslab's outline, `materials.metal` for a
 * pole), but not `domain` or `source` alone.
 */
function acceptableNames(path: Path): string[] {
  const names: string[] = [];
  for (let end = path.length; end >= 2; end--) names.push(fieldName(path.slice(0, end)));
  return names;
}

/** JSON text of `doc`, with -0 written as -0 (JSON.stringify writes 0). */
function toJson(doc: Json): string {
  const NEGATIVE_ZERO = "\u0000negative zero\u0000";
  const text = JSON.stringify(doc, (_k, v: unknown) =>
    typeof v === "number" && Object.is(v, -0) ? NEGATIVE_ZERO : v,
  );
  return text.split(JSON.stringify(NEGATIVE_ZERO)).join("-0");
}

/** POSTs `body`; a request that takes more than 10 s (a hang) fails the test. */
async function post(path: string, body: Json) {
  const res = await fetch(server.baseUrl + path, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: toJson(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // Not JSON: the assertions below report the text.
  }
  return { status: res.status, body: parsed, text };
}

/** The request after which the server stopped answering (hung or died), if any. */
let unanswered: string | null = null;
/** How many answers of each status `judge` saw. */
const statuses = new Map<number, number>();

/**
 * What is wrong with the answer to a request whose field `at` was made extreme: not a 200 or
 * 202 with finite figures, nor a 422 whose detail names the field. Null when it is right.
 */
async function judge(endpoint: string, body: Json, at: Path): Promise<string | null> {
  if (unanswered) return `not sent: the server stopped answering at ${unanswered}`;
  let res;
  try {
    res = await post(endpoint, body);
  } catch (err) {
    unanswered = `${endpoint} ${toJson(body).slice(0, 80)}…`;
    return `no answer (${(err as Error).message}); server stderr: ${server.stderr().slice(-500)}`;
  }
  statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  if (res.status === 200 || res.status === 202) {
    const figures = ["cells", "memory_bytes", "estimated_seconds", "expected_seconds"];
    const bad = res.status === 200 ? figures.filter((f) => !Number.isFinite(res.body[f])) : [];
    return bad.length > 0 ? `200 with non-finite ${bad.join(", ")}: ${res.text}` : null;
  }
  if (res.status !== 422) return `${res.status}: ${res.text.slice(0, 300)}`;
  const detail = String(res.body.detail);
  if (!acceptableNames(at).some((name) => detail.includes(name))) {
    return `422 whose detail does not name ${fieldName(at)}: ${detail}`;
  }
  return null;
}

const SPHERE = { type: "sphere", center: [0, 0, 0], material: "SiO2" };
const CYLINDER = {
  type: "cylinder",
  center: [0, 0, 0],
  height: 0.5e-6,
  axis: "z",
  material: "SiO2",
};

test("a sphere or cylinder of radius 1e308 gets a 200 or a 422 naming the radius, never a 500", async () => {
  const failures: string[] = [];
  for (const radius of [1e308, 1.7976931348623157e308]) {
    for (const shape of [SPHERE, CYLINDER]) {
      const body = smallSimulation({ structures: [{ ...shape, radius }] }) as Json;
      for (const endpoint of ["/v1/simulations/estimate", "/v1/simulations"]) {
        const wrong = await judge(endpoint, body, ["structures", 0, "radius"]);
        if (wrong) failures.push(`${endpoint} ${shape.type} radius ${radius}: ${wrong}`);
      }
    }
  }
  assert.deepEqual(failures, []);
});

test("every numeric field at the extremes of a double gets a 200 or a 422 naming it", async () => {
  const base = richRequest();
  const ok = await post("/v1/simulations/estimate", base);
  assert.equal(ok.status, 200, `the base request must be valid: ${ok.text}`);
  const paths = numericPaths(base);
  assert.ok(paths.length > 60, `only ${paths.length} numeric fields`);
  const failures: string[] = [];
  for (const at of paths) {
    if (unanswered) break;
    for (const value of EXTREMES) {
      const wrong = await judge("/v1/simulations/estimate", withValue(base, at, value), at);
      if (wrong)
        failures.push(`${fieldName(at)} = ${Object.is(value, -0) ? "-0" : value}: ${wrong}`);
    }
  }
  assert.deepEqual(failures, []);
  // Both outcomes are reached: extremes that are harmless (a coordinate of 5e-324) are accepted.
  assert.ok((statuses.get(200) ?? 0) > 50, JSON.stringify([...statuses]));
  assert.ok((statuses.get(422) ?? 0) > 200, JSON.stringify([...statuses]));
  const health = await fetch(`${server.baseUrl}/health`);
  assert.equal(health.status, 200);
});

test("submission runs the same checks: lengths, steps and directions at the extremes", async () => {
  // A subset through POST /v1/simulations (the estimate covers every field): one field of each
  // kind, each at both ends.
  const base = richRequest();
  const fields: Path[] = [
    ["domain", "size", 2],
    ["domain", "resolution"],
    ["domain", "mesh_overrides", 1, "resolution", 2],
    ["source", "wavelength"],
    ["source", "amplitude"],
    ["structures", 0, "size", 0],
    ["structures", 1, "radius"],
    ["structures", 2, "height"],
    ["structures", 3, "vertices", 0, 0],
    ["structures", 3, "z_max"],
    ["materials", "metal", "poles", 0, "omega0"],
    ["monitors", 1, "wavelengths", "stop"],
    ["fdtd_settings", "courant_factor"],
  ];
  const failures: string[] = [];
  for (const at of fields) {
    for (const value of [1.7976931348623157e308, 5e-324]) {
      const wrong = await judge("/v1/simulations", withValue(base, at, value), at);
      if (wrong) failures.push(`${fieldName(at)} = ${value}: ${wrong}`);
    }
  }
  assert.deepEqual(failures, []);
});

test("numbers that are each in range but overflow together get a 200 or a 422", async () => {
  const huge = 1.7976931348623157e308;
  // Each with the field a 422 must name.
  const cases: [string, Json, Path][] = [
    // |direction| overflows although each component is finite.
    [
      "a direction of three maximal components",
      smallSimulation({
        source: { source_type: "plane_wave", wavelength: 1.55e-6, direction: [huge, huge, huge] },
      }) as Json,
      ["source", "direction"],
    ],
    // Everything scaled up: a 1e300 m domain of a material defined in the request.
    [
      "a domain of 1e300 m",
      smallSimulation({
        domain: {
          size: [1e300, 1e300, 6e301],
          resolution: 1e300,
          boundary_conditions: ["periodic", "periodic", "pml"],
        },
        source: { source_type: "plane_wave", wavelength: 3e301, direction: [0, 0, 1] },
        materials: { big: { permittivity: 2 } },
        structures: [{ type: "sphere", center: [0, 0, 0], radius: 1e301, material: "big" }],
        monitors: [],
      }) as Json,
      ["domain", "resolution"],
    ],
    // …and down: every length 1e-300 m.
    [
      "a domain of 1e-300 m",
      smallSimulation({
        domain: {
          size: [1e-300, 1e-300, 6e-299],
          resolution: 1e-300,
          boundary_conditions: ["periodic", "periodic", "pml"],
        },
        source: { source_type: "plane_wave", wavelength: 3e-299, direction: [0, 0, 1] },
        materials: { small: { permittivity: 2 } },
        structures: [{ type: "sphere", center: [0, 0, 0], radius: 1e-299, material: "small" }],
        monitors: [],
      }) as Json,
      ["domain", "resolution"],
    ],
    // A refined plane whose step is far below the coordinates' precision.
    [
      "a mesh override step of 1e-25 m on a plane",
      smallSimulation({
        domain: {
          size: [0.05e-6, 0.05e-6, 3e-6],
          resolution: 0.05e-6,
          boundary_conditions: ["periodic", "periodic", "pml"],
          mesh_overrides: [
            { center: [0, 0, 1e-6], size: [0, 0, 0], resolution: [0.05e-6, 0.05e-6, 1e-25] },
          ],
        },
      }) as Json,
      ["domain", "mesh_overrides", 0, "resolution"],
    ],
  ];
  const failures: string[] = [];
  for (const [name, body, at] of cases) {
    for (const endpoint of ["/v1/simulations/estimate", "/v1/simulations"]) {
      const wrong = await judge(endpoint, body, at);
      if (wrong) failures.push(`${endpoint} ${name}: ${wrong}`);
    }
  }
  assert.deepEqual(failures, []);
});
