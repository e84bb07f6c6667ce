/**
 * Semantic checks of a schema-valid request: everything that would make a run fail or be
 * meaningless and that can be known before running (DESIGN §2: a job that is accepted must
 * not fail for a reason that could have been checked at submission).
 */
import { courantLimit } from "./dispersion/stability.js";
import type { PoleModel } from "./dispersion/model.js";
import { interiorCellsFor } from "./grid.js";
import { findMaterial } from "./materials.js";
import type { MaterialResolver } from "./simulation.js";
import { MAX_RELATIVE_DETUNING, TFSF_OFFSET_CELLS, planeWaveGeometry, pulseFor } from "./source.js";
import { fluxShape } from "./flux.js";
import { MAX_REQUEST_POLYGON_VERTICES, polySlabBounds, polySlabProblems } from "./polyslab.js";
import type { MonitorSpec, SimulationSpec, SpecProblem, StructureSpec, Vec3 } from "./types.js";

/** Fewest grid cells per wavelength in the densest material we accept. */
export const MIN_CELLS_PER_WAVELENGTH = 10;
/** Most wavelengths one field monitor may record. */
export const MAX_MONITOR_WAVELENGTHS = 64;
/** Most wavelengths one flux monitor may record (a spectrum; its data is one value each). */
export const MAX_FLUX_WAVELENGTHS = 200;
/** Largest angle from the sheet normal at a monitor wavelength for oblique incidence. */
export const MAX_OBLIQUE_ANGLE_DEG = 85;

const AXES = "xyz";
const fmt = (v: number) => String(Number(v.toPrecision(6)));

function structureBounds(s: StructureSpec): { lo: Vec3; hi: Vec3 } {
  if (s.type === "polyslab") return polySlabBounds(s);
  const half: Vec3 =
    s.type === "box"
      ? [s.size[0] / 2, s.size[1] / 2, s.size[2] / 2]
      : s.type === "sphere"
        ? [s.radius, s.radius, s.radius]
        : ([0, 1, 2].map((a) => (AXES[a] === s.axis ? s.height / 2 : s.radius)) as Vec3);
  return {
    lo: [s.center[0] - half[0], s.center[1] - half[1], s.center[2] - half[2]],
    hi: [s.center[0] + half[0], s.center[1] + half[1], s.center[2] + half[2]],
  };
}

const finite = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

/**
 * The wavelengths of a monitor that bound what it records, with the path suffix that names
 * each: every entry of a list, the two ends of a range (the band checks are monotonic in
 * the wavelength, so the points between pass when the ends do).
 */
function wavelengthsToCheck(m: MonitorSpec): { w: number; at: string }[] {
  const ws = m.wavelengths;
  if (!ws) return [];
  if (Array.isArray(ws)) return ws.map((w, j) => ({ w, at: `[${j}]` }));
  return [
    { w: ws.start, at: ".start" },
    { w: ws.stop, at: ".stop" },
  ];
}

/**
 * A multi-pole material's problems: the update's stability at the requested Courant factor
 * (stability.ts), and, over a band, monitor wavelengths outside the range its model holds.
 */
function poleProblems(
  model: PoleModel,
  name: string,
  spec: SimulationSpec,
  broadband: boolean,
  validRangeM: [number, number],
): string[] {
  const out: string[] = [];
  const S = spec.fdtd_settings.courant_factor;
  const dx = spec.domain.resolution;
  if (finite(S) && S > 0 && finite(dx) && dx > 0) {
    const limit = courantLimit(model, dx, S);
    if (!limit.stable) {
      out.push(
        limit.largestStable > 0
          ? `${name}'s poles make the time stepping unstable at courant_factor ${fmt(S)} ` +
              `with a ${fmt(dx)} m grid; the largest stable courant_factor is ` +
              `${fmt(limit.largestStable)}: set fdtd_settings.courant_factor to at most that`
          : `${name}'s poles make the time stepping unstable at any courant_factor above 0.01 ` +
              `with a ${fmt(dx)} m grid; check the poles (a gain pole, Δε < 0, grows)`,
      );
    }
  }
  if (broadband) {
    const [lo, hi] = validRangeM;
    for (const m of spec.monitors) {
      for (const { w, at } of wavelengthsToCheck(m)) {
        if (finite(w) && (w < lo * (1 - 1e-9) || w > hi * (1 + 1e-9))) {
          out.push(
            `${name} is modelled from ${fmt(lo)} m to ${fmt(hi)} m; monitor "${m.name}" ` +
              `records ${fmt(w)} m (wavelengths${at}), outside that range`,
          );
        }
      }
    }
  }
  return out;
}

/** Problems of the request's own `materials`: a name that hides a library material. */
function userMaterialProblems(spec: SimulationSpec): SpecProblem[] {
  const out: SpecProblem[] = [];
  for (const name of Object.keys(spec.materials ?? {})) {
    const library = findMaterial(name);
    if (library) {
      out.push({
        path: `materials.${name}`,
        message: `"${name}" is the library's ${library.name}; give the material another name`,
      });
    }
  }
  return out;
}

/** Every problem found; an empty list means the request can run. */
export function checkSimulationWith(
  spec: SimulationSpec,
  materials: MaterialResolver,
): SpecProblem[] {
  const problems: SpecProblem[] = [];
  const add = (path: string, message: string) => problems.push({ path, message });
  const { domain, source, fdtd_settings: fdtd } = spec;
  const dx = domain.resolution;
  const size = domain.size;
  const halfSize = size.map((v) => v / 2);

  // Domain and settings.
  if (!(finite(dx) && dx > 0)) add("domain.resolution", "must be a positive number of metres");
  for (let a = 0; a < 3; a++) {
    if (!(finite(size[a]) && size[a] > 0)) {
      add(`domain.size[${a}]`, "must be a positive number of metres");
    } else if (finite(dx) && dx > size[a] * (1 + 1e-9)) {
      add(
        "domain.resolution",
        `grid step ${fmt(dx)} m is larger than the domain extent along ${AXES[a]} ` +
          `(${fmt(size[a])} m); it must be at most the smallest extent`,
      );
    }
  }
  const hasPml = domain.boundary_conditions.includes("pml");
  if (hasPml && !(Number.isInteger(domain.pml_layers) && domain.pml_layers >= 1)) {
    add("domain.pml_layers", "must be an integer of at least 1 when a boundary is pml");
  }
  const S = fdtd.courant_factor;
  if (!(finite(S) && S > 0 && S <= 1)) {
    add("fdtd_settings.courant_factor", "must be in (0, 1] (dt = S·dx/(c·√3))");
  }
  if (!(Number.isInteger(fdtd.time_steps) && fdtd.time_steps >= 1)) {
    add("fdtd_settings.time_steps", "must be an integer of at least 1");
  }
  if (!(Number.isInteger(fdtd.check_every_n) && fdtd.check_every_n >= 1)) {
    add("fdtd_settings.check_every_n", "must be an integer of at least 1");
  }
  if (!(finite(fdtd.convergence_threshold) && fdtd.convergence_threshold >= 0)) {
    add("fdtd_settings.convergence_threshold", "must be at least 0 (0 turns early stopping off)");
  }

  // Source.
  const lambda0 = source.wavelength;
  const lambdaOk = finite(lambda0) && lambda0 > 0;
  if (!lambdaOk) add("source.wavelength", "must be a positive number of metres");
  if (!finite(source.amplitude)) add("source.amplitude", "must be a finite number of V/m");
  const dir = source.direction;
  const dirOk = dir.every(finite) && Math.hypot(dir[0], dir[1], dir[2]) > 0;
  let geometry: ReturnType<typeof planeWaveGeometry> | null = null;
  if (!dirOk) add("source.direction", "must be a finite, non-zero vector");
  else geometry = planeWaveGeometry(source);
  if (geometry) {
    const a = geometry.axis;
    const b = domain.boundary_conditions[a];
    if (b !== "pml") {
      add(
        `domain.boundary_conditions[${a}]`,
        `the plane wave propagates along ${AXES[a]}, so this boundary must be pml ` +
          `(a ${b} boundary along the propagation axis would reflect it back into the source)`,
      );
    }
    if (finite(size[a]) && finite(dx) && dx > 0) {
      const cells = interiorCellsFor(size[a], dx);
      const need = 2 * TFSF_OFFSET_CELLS + 2;
      if (cells < need) {
        add(
          `domain.size[${a}]`,
          `along the propagation axis ${AXES[a]} the domain needs at least ${need} cells ` +
            `(${fmt(need * dx)} m) to hold the source plane; it has ${cells}`,
        );
      }
    }
    for (let t = 0; t < 3; t++) {
      if (t === a) continue;
      const bt = domain.boundary_conditions[t];
      const u = 3 - a - t; // the other transverse axis
      const e = geometry.polarization;
      if (geometry.direction[t] !== 0 && bt !== "periodic") {
        add(
          "source.direction",
          `oblique incidence (direction has a ${AXES[t]} component) needs a periodic ` +
            `boundary along ${AXES[t]}; boundary_conditions[${t}] is ${bt}`,
        );
      } else if (bt === "pec" && Math.abs(e[u]) > 1e-9) {
        add(
          `domain.boundary_conditions[${t}]`,
          `pec walls normal to ${AXES[t]} short out the plane wave's E along ${AXES[u]} ` +
            `(${source.polarization} polarisation has E = (${e.map(fmt).join(", ")})); use ` +
            "pmc, periodic or pml here, or the other polarisation",
        );
      } else if (bt === "pmc" && Math.abs(e[t]) > 1e-9) {
        add(
          `domain.boundary_conditions[${t}]`,
          `pmc walls normal to ${AXES[t]} short out the plane wave's H (its E along ` +
            `${AXES[t]} is ${fmt(e[t])}); use pec, periodic or pml here, or the other polarisation`,
        );
      }
    }
  }

  const outsideDomain = (s: StructureSpec, path: string) => {
    const { lo, hi } = structureBounds(s);
    for (let a = 0; a < 3; a++) {
      if (hi[a] <= -halfSize[a] || lo[a] >= halfSize[a]) {
        add(
          s.type === "polyslab"
            ? a === 2
              ? `${path}.z_min`
              : `${path}.vertices`
            : `${path}.center`,
          `the ${s.type} lies entirely outside the domain: along ${AXES[a]} it spans ` +
            `[${fmt(lo[a])}, ${fmt(hi[a])}] m, the domain [${fmt(-halfSize[a])}, ${fmt(halfSize[a])}] m`,
        );
        break;
      }
    }
  };

  // Materials defined in the request may not hide library ones.
  for (const problem of userMaterialProblems(spec)) add(problem.path, problem.message);

  // Materials at the source wavelength.
  let polygonVertices = 0;
  const broadband = spec.monitors.some((m) =>
    wavelengthsToCheck(m).some(({ w }) => finite(w) && Math.abs(w - lambda0) > 1e-12 * w),
  );
  let densest = { n: 1, name: "vacuum" };
  const seen = new Map<string, boolean>();
  spec.structures.forEach((s, i) => {
    const path = `structures[${i}]`;
    const info = materials.describe(s.material);
    if (!info) {
      add(`${path}.material`, `unknown material "${s.material}"`);
    } else if (lambdaOk) {
      const [lo, hi] = info.validRangeM;
      if (lambda0 < lo * (1 - 1e-9) || lambda0 > hi * (1 + 1e-9)) {
        add(
          `${path}.material`,
          `${info.name} is valid from ${fmt(lo)} m to ${fmt(hi)} m; the source wavelength ` +
            `${fmt(lambda0)} m is outside that range`,
        );
      } else if (!seen.has(info.name)) {
        const eps = materials.permittivity(s.material, lambda0);
        seen.set(info.name, true);
        const dispersion = materials.dispersion?.(s.material);
        const poles = dispersion && (dispersion.always || broadband) ? dispersion.model : null;
        if (poles) {
          for (const problem of poleProblems(poles, info.name, spec, broadband, info.validRangeM)) {
            add(`${path}.material`, problem);
          }
        } else if (eps.re < 1) {
          add(
            `${path}.material`,
            `${info.name} has Re ε = ${fmt(eps.re)} < 1 at ${fmt(lambda0)} m and no ` +
              "multi-pole model to step it with; the solver needs Re ε ≥ 1 for a constant " +
              "material (define it with poles in `materials`)",
          );
        }
        // Metals (Re ε < 1) bound the grid through their skin depth, not the wavelength.
        if (eps.re >= 1 && Math.sqrt(eps.re) > densest.n) {
          densest = { n: Math.sqrt(eps.re), name: info.name };
        }
      }
    }
    // Geometry.
    if (s.type === "polyslab") {
      const found = polySlabProblems(s, path);
      problems.push(...found);
      polygonVertices += s.vertices.length + (s.holes ?? []).reduce((n, h) => n + h.length, 0);
      if (found.length === 0) outsideDomain(s, path);
      return;
    }
    const dims: [string, number][] =
      s.type === "box"
        ? s.size.map((v, a): [string, number] => [`size[${a}]`, v])
        : s.type === "sphere"
          ? [["radius", s.radius]]
          : [
              ["radius", s.radius],
              ["height", s.height],
            ];
    for (const [name, v] of dims) {
      if (!(finite(v) && v > 0)) add(`${path}.${name}`, "must be a positive number of metres");
    }
    if (!s.center.every(finite)) {
      add(`${path}.center`, "must be finite");
      return;
    }
    outsideDomain(s, path);
  });
  if (polygonVertices > MAX_REQUEST_POLYGON_VERTICES) {
    add(
      "structures",
      `the polyslabs have ${polygonVertices} vertices in all; at most ` +
        `${MAX_REQUEST_POLYGON_VERTICES} are allowed per request`,
    );
  }

  // For oblique incidence the pulse is narrowed (source.ts, pulseFor): its usable band.
  let band: { relative: number; loM: number; hiM: number } | null = null;
  if (geometry && geometry.cosTheta < 1 && lambdaOk) {
    const all = spec.monitors.flatMap((m) =>
      wavelengthsToCheck(m)
        .filter(({ w }) => finite(w) && w > 0)
        .map(({ w }) => w),
    );
    const p = pulseFor(lambda0, all, Math.sqrt(1 - geometry.cosTheta ** 2));
    const relative = p.bandwidth / p.omega0;
    band = { relative, loM: lambda0 / (1 + relative), hiM: lambda0 / Math.max(1 - relative, 1e-9) };
  }

  // Monitors.
  const names = new Map<string, number>();
  const allWavelengths: number[] = lambdaOk ? [lambda0] : [];
  spec.monitors.forEach((m, i) => {
    const path = `monitors[${i}]`;
    const prev = names.get(m.name);
    if (prev !== undefined)
      add(`${path}.name`, `duplicate monitor name "${m.name}" (also monitors[${prev}])`);
    else names.set(m.name, i);
    for (let a = 0; a < 3; a++) {
      const c = m.center[a];
      const s = m.size[a];
      if (!finite(c)) {
        add(`${path}.center`, "must be finite");
        break;
      }
      if (!(finite(s) && s >= 0)) {
        add(`${path}.size[${a}]`, "must be a non-negative number of metres");
        continue;
      }
      const tol = 1e-9 * size[a];
      if (Math.abs(c) > halfSize[a] + tol) {
        add(
          `${path}.center`,
          `outside the domain along ${AXES[a]}: ${fmt(c)} m is beyond ±${fmt(halfSize[a])} m`,
        );
      } else if (Math.abs(c) + s / 2 > halfSize[a] + tol) {
        add(
          `${path}.size[${a}]`,
          `the monitor extends outside the domain along ${AXES[a]}: [${fmt(c - s / 2)}, ` +
            `${fmt(c + s / 2)}] m, the domain is ±${fmt(halfSize[a])} m`,
        );
      }
    }
    if (m.monitor_type === "flux") {
      if (fluxShape(m.size) === null) {
        add(
          `${path}.size`,
          "a flux monitor is a plane (a zero extent along exactly one axis) or a box (no " +
            "zero extent); this one is a line or a point",
        );
      }
    } else {
      const comps = new Set(m.components);
      if (m.components.length === 0) add(`${path}.components`, "must list at least one component");
      else if (comps.size !== m.components.length)
        add(`${path}.components`, "lists a component twice");
    }
    const ws = m.wavelengths;
    const most = m.monitor_type === "flux" ? MAX_FLUX_WAVELENGTHS : MAX_MONITOR_WAVELENGTHS;
    if (Array.isArray(ws)) {
      if (ws.length === 0)
        add(`${path}.wavelengths`, "must list at least one wavelength or be omitted");
      if (ws.length > most) {
        add(`${path}.wavelengths`, `lists ${ws.length} wavelengths; at most ${most} are allowed`);
      }
    } else if (ws) {
      if (!(Number.isInteger(ws.points) && ws.points >= 1 && ws.points <= most)) {
        add(`${path}.wavelengths.points`, `must be an integer from 1 to ${most}`);
      } else if (ws.points > 1 && ws.start === ws.stop) {
        add(`${path}.wavelengths.stop`, "must differ from start when points > 1");
      }
    }
    for (const { w, at } of wavelengthsToCheck(m)) {
      const wPath = `${path}.wavelengths${at}`;
      if (!(finite(w) && w > 0)) {
        add(wPath, "must be a positive number of metres");
        continue;
      }
      allWavelengths.push(w);
      if (!lambdaOk) continue;
      const detune = Math.abs(lambda0 / w - 1);
      if (detune > MAX_RELATIVE_DETUNING) {
        const lo = lambda0 / (1 + MAX_RELATIVE_DETUNING);
        const hi = lambda0 / (1 - MAX_RELATIVE_DETUNING);
        add(
          wPath,
          `${fmt(w)} m is outside the source pulse's band: monitor wavelengths must lie ` +
            `within ${fmt(lo)}–${fmt(hi)} m (frequency within ±${MAX_RELATIVE_DETUNING * 100} % ` +
            "of the source's)",
        );
        continue;
      }
      if (band && detune > band.relative * (1 + 1e-9)) {
        add(
          wPath,
          `${fmt(w)} m is outside the band the oblique-incidence pulse covers ` +
            `(${fmt(band.loM)}–${fmt(band.hiM)} m; the pulse must be narrow to keep its ` +
            "spectrum away from grazing angles): use wavelengths closer to the source's",
        );
      } else if (geometry && geometry.cosTheta < 1) {
        const sinT = Math.sqrt(1 - geometry.cosTheta ** 2) * (w / lambda0);
        if (sinT >= Math.sin((MAX_OBLIQUE_ANGLE_DEG * Math.PI) / 180)) {
          add(
            wPath,
            `with the transverse wavevector fixed by the source, the wave at ${fmt(w)} m ` +
              `travels at more than ${MAX_OBLIQUE_ANGLE_DEG}° from the normal (or is ` +
              "evanescent); use shorter wavelengths or a smaller angle",
          );
        }
      }
    }
  });

  // Resolution: cells per wavelength in the densest material, at the shortest wavelength.
  if (finite(dx) && dx > 0 && allWavelengths.length > 0) {
    const lambdaMin = Math.min(...allWavelengths);
    const cellsPerWavelength = lambdaMin / (densest.n * dx);
    if (cellsPerWavelength < MIN_CELLS_PER_WAVELENGTH) {
      add(
        "domain.resolution",
        `${fmt(cellsPerWavelength)} cells per wavelength in ${densest.name} (n = ` +
          `${fmt(densest.n)}) at ${fmt(lambdaMin)} m; at least ${MIN_CELLS_PER_WAVELENGTH} are ` +
          `needed for an accurate result: use a grid step of at most ` +
          `${fmt(lambdaMin / (densest.n * MIN_CELLS_PER_WAVELENGTH))} m`,
      );
    }
  }
  return problems;
}
