/**
 * The preview's answer (docs/api.md "Preview") for a checked simulation: its planes painted by
 * the solver as the run paints them (solver/preview.ts), each with the outlines of the objects
 * it cuts (outlines.ts), and the set-up's warnings. The estimate is the job service's; the
 * service (service.ts) adds it.
 */
import { errors } from "../errors.js";
import {
  DEFAULT_PREVIEW_SAMPLES,
  type PreviewPlaneResult,
  type PreviewRequest,
  type PreviewResponse,
} from "../schema/preview.js";
import {
  previewPlaneProblems,
  previewSetupOf,
  type PreviewPlane,
  type PreviewPlaneRequest,
  type SetupPreview,
  type SimulationSpec,
} from "../solver/index.js";
import { planeObjects } from "./outlines.js";

const AXES = ["x", "y", "z"] as const;

/** The planes a request asks for, or the three through the origin. */
export function requestedPlanes(
  body: Pick<PreviewRequest, "planes" | "max_samples">,
): PreviewPlaneRequest[] {
  const maxSamples = body.max_samples ?? DEFAULT_PREVIEW_SAMPLES;
  const planes = body.planes ?? AXES.map((normal) => ({ normal, position: 0 }));
  return planes.map((p) => ({ normal: AXES.indexOf(p.normal), positionM: p.position, maxSamples }));
}

/**
 * ε to 7 significant digits: the kernels step float32 coefficients, which hold about as many,
 * and a plane of 160 000 samples is then a few hundred kilobytes less. By arithmetic, not
 * toPrecision: the strings cost most of the answer's time (50 ms of 75 for three 174² planes).
 * Scaling by an exact power of ten and rounding gives the double nearest the rounded decimal,
 * which JSON writes as that decimal. Neighbouring samples are mostly alike (a material's
 * inside): the last value's rounding is kept.
 */
function eps(v: number): number {
  if (v === lastEps[0]) return lastEps[1];
  lastEps[0] = v;
  if (v === 0 || !Number.isFinite(v)) return (lastEps[1] = v);
  const shift = 6 - Math.floor(Math.log10(Math.abs(v)));
  if (shift >= 0) {
    const f = 10 ** shift;
    return (lastEps[1] = Math.round(v * f) / f);
  }
  const f = 10 ** -shift;
  return (lastEps[1] = Math.round(v / f) * f);
}
const lastEps: [number, number] = [NaN, NaN];

/** Lengths to the femtometre (12 significant digits at most), without rounding noise. */
const metres = (v: number) => Number((Math.round(v * 1e15) / 1e15).toPrecision(12));

/** One plane of the solver's preview as the API's JSON. */
function planeJson(
  spec: SimulationSpec,
  preview: SetupPreview,
  plane: PreviewPlane,
): PreviewPlaneResult {
  const [u, v] = plane.axes;
  const [nu, nv] = [plane.coordsM[0].length, plane.coordsM[1].length];
  const rows = (values: ArrayLike<number>, round: (v: number) => number = (v) => v) => {
    const out: number[][] = new Array<number[]>(nu);
    for (let i = 0; i < nu; i++) {
      const row = new Array<number>(nv);
      for (let j = 0; j < nv; j++) row[j] = round(values[i * nv + j]!);
      out[i] = row;
    }
    return out;
  };
  const first = AXES[u]!;
  const second = AXES[v]!;
  return {
    normal: AXES[plane.normal]!,
    position: metres(plane.positionM),
    axes: [first, second],
    cells: plane.nodes,
    extent: {
      [first]: preview.axes[u].gridM.map(metres) as [number, number],
      [second]: preview.axes[v].gridM.map(metres) as [number, number],
    },
    coords: {
      [first]: Array.from(plane.coordsM[0], metres),
      [second]: Array.from(plane.coordsM[1], metres),
    },
    eps_real: rows(plane.epsRe, eps),
    eps_imag: rows(plane.epsIm, eps),
    material: rows(plane.material),
    pec: rows(plane.conductor),
    objects: planeObjects(spec, preview, plane).map((o) => ({
      ...o,
      outline: o.outline.map((ring) =>
        ring.map(([a, b]) => [metres(a), metres(b)] as [number, number]),
      ),
    })),
  };
}

/**
 * The set-up of a checked simulation (defaults filled in) on the planes a preview request
 * names, without the estimate.
 * @throws the API's 422 for a plane outside the grid
 */
export function setupPreview(
  spec: SimulationSpec,
  body: Pick<PreviewRequest, "planes" | "max_samples">,
): Omit<PreviewResponse, "estimate"> {
  const planes = requestedPlanes(body);
  const problems = previewPlaneProblems(spec, planes);
  if (problems.length > 0) throw errors.validation(problems);
  const preview = previewSetupOf(spec, planes);
  return {
    planes: preview.planes.map((p) => planeJson(spec, preview, p)),
    materials: preview.materials,
    warnings: preview.warnings.map((w) => ({ ...w, path: `simulation.${w.path}` })),
  };
}
