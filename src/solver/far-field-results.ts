/**
 * Each far-field monitor's pattern: the tangential E and H its surface recorded (the same
 * streams as a flux monitor's, flux.ts: E_b with H_c at one set of points of a face, E_c with
 * H_b at the other), turned into phasors by the source's normalisation N(ω), and projected to
 * the far field (far-field.ts) at every wavelength. Each current is integrated at its own
 * points, so nothing is interpolated. With a plane wave the grid holds the total field
 * downstream of the TFSF plane: the incident field is removed there first, so the pattern is
 * the scattered field's; with a dipole it is the total field's. A surface centred on mirror
 * planes (domain.symmetry) recorded the part at ≥ 0 of each: the rest is unfolded from it
 * (far-field-symmetry.ts) before the projection, so the pattern is the whole surface's. In a
 * 2-D cross-section the projection is the one-cell slice's, made a line's pattern per period
 * (far-field-cross-section.ts).
 */
import type { FluxFace, FluxSurface } from "./flux.js";
import { projectFarField, type FarFieldFace } from "./far-field.js";
import { unfoldMirroredFaces, type MirrorPlane } from "./far-field-symmetry.js";
import { entryPermittivity } from "./entry-permittivity.js";
import { lineFarField } from "./far-field-cross-section.js";
import { periodicThinAxes, positionM, staggerOf, type YeeLayout } from "./grid.js";
import type { FdtdSimulation, MonitorState } from "./simulation.js";
import type { FarFieldMonitorResult } from "./types.js";

const DEG = Math.PI / 180;

/** Every far-field monitor's result, in the order of the monitors; `allSums` per monitor. */
export function farFieldResults(
  sim: FdtdSimulation,
  allSums: Float64Array[][],
): FarFieldMonitorResult[] {
  const out: FarFieldMonitorResult[] = [];
  sim.monitors.forEach((m, mi) => {
    if (m.farField) out.push(farFieldResult(sim, m, m.farField, allSums[mi]!));
  });
  return out;
}

function farFieldResult(
  sim: FdtdSimulation,
  m: MonitorState,
  farField: NonNullable<MonitorState["farField"]>,
  rawSums: Float64Array[],
): FarFieldMonitorResult {
  const { surface, thetaDeg, phiDeg } = farField;
  const sums = scatteredSums(sim, m, rawSums);
  const norm = sim.source.normalisation();
  const epsR = m.frequencyIndex.map((f) => backgroundEps(sim, surface, sim.omegas[f]!));
  const W = m.frequencyIndex.length;
  const directions = thetaDeg.length * phiDeg.length;
  const intensity = new Float64Array(W * directions);
  const eTheta = new Float64Array(2 * W * directions);
  const ePhi = new Float64Array(2 * W * directions);
  const positions = surface.faces.map((f) => facePositions(sim, f));
  const planes = surface.mirrored.map((axis): MirrorPlane => ({
    axis,
    mirror: sim.plan.axes[axis]!.mirror as MirrorPlane["mirror"],
  }));
  const crossSectionAxis = periodicThinAxes(sim.plan)[0] ?? null;
  m.frequencyIndex.forEach((f, w) => {
    const n: [number, number] = [norm[2 * f]!, norm[2 * f + 1]!];
    const faces = surface.faces.flatMap((face, fi) =>
      faceSamples(face, positions[fi]!, sums.slice(4 * fi, 4 * fi + 4), w, n),
    );
    const lambda = m.wavelengthsM[w]!;
    let pattern = projectFarField(
      unfoldMirroredFaces(faces, planes),
      lambda,
      epsR[w]!,
      thetaDeg.map((t) => t * DEG),
      phiDeg.map((p) => p * DEG),
    );
    if (crossSectionAxis !== null) {
      const period = sim.plan.axes[crossSectionAxis]!;
      const k = (2 * Math.PI * Math.sqrt(epsR[w]!)) / lambda;
      pattern = lineFarField(pattern, k, period.nodesM[1]! - period.nodesM[0]!);
    }
    intensity.set(pattern.radiantIntensity, w * directions);
    eTheta.set(pattern.eTheta, 2 * w * directions);
    ePhi.set(pattern.ePhi, 2 * w * directions);
  });
  return {
    name: m.spec.name,
    center: [...m.spec.center],
    size: [...m.spec.size],
    wavelengthsM: m.wavelengthsM,
    frequenciesHz: m.frequencyIndex.map((f) => sim.omegas[f]! / (2 * Math.PI)),
    thetaDeg,
    phiDeg,
    backgroundEps: epsR,
    crossSectionAxis,
    radiantIntensity: intensity,
    eTheta,
    ePhi,
  };
}

/** The recorded sums, less the incident field where a plane wave's grid holds the total field. */
function scatteredSums(sim: FdtdSimulation, m: MonitorState, sums: Float64Array[]): Float64Array[] {
  const source = sim.source;
  if (source.kind !== "plane_wave") return sums;
  const layout = sim.model.layout;
  return m.streams.map((st, i) => {
    const incident = source.incidentSums(st, layout, m.frequencyIndex, "total");
    const out = Float64Array.from(sums[i]!);
    for (let k = 0; k < out.length; k++) out[k]! -= incident[k]!;
    return out;
  });
}

/**
 * Re ε at angular frequency ω of the medium at the surface (checks/far-field.ts: one medium all
 * round it), with its dispersion where it is stepped with it.
 */
function backgroundEps(sim: FdtdSimulation, surface: FluxSurface, omega: number): number {
  const { medium } = sim.model;
  const stream = surface.faces[0]!.streams[0];
  const entry = medium.index[stream.comp]![stream.base[0]! + stream.offsets[0]!]!;
  return entryPermittivity(medium, entry, omega).re;
}

/** The coordinates (x, y, z per point) of a face's two point sets: E_b's and E_c's samples. */
function facePositions(sim: FdtdSimulation, face: FluxFace): [Float64Array, Float64Array] {
  const layout = sim.model.layout;
  const at = (stream: FluxFace["streams"][number]) => {
    const out = new Float64Array(3 * stream.base.length);
    stream.base.forEach((p, q) => {
      const index = unflatten(layout, p);
      for (let a = 0; a < 3; a++) {
        out[3 * q + a] = positionM(sim.plan.axes[a], index[a]!, staggerOf(stream.comp, a));
      }
    });
    return out;
  };
  return [at(face.streams[0]), at(face.streams[1])];
}

/** The cell indices of a padded flat index (grid.ts YeeLayout.index). */
function unflatten(layout: YeeLayout, p: number): [number, number, number] {
  const [sx, sy] = layout.strides;
  return [Math.floor(p / sx) - 1, Math.floor((p % sx) / sy) - 1, (p % sy) - 1];
}

/**
 * A face's samples at wavelength index w as two far-field faces: E_b with H_c at the first
 * point set, E_c with H_b at the second, each times N(ω); the other components zero.
 */
function faceSamples(
  face: FluxFace,
  positions: [Float64Array, Float64Array],
  sums: Float64Array[],
  w: number,
  [nr, ni]: [number, number],
): FarFieldFace[] {
  const a = face.axis;
  const [b, c] = [(a + 1) % 3, (a + 2) % 3];
  const normal: [number, number, number] = [0, 0, 0];
  normal[a] = face.sign;
  // Streams: 0 E_b, 1 E_c, 2 H_b, 3 H_c.
  const set = (points: Float64Array, weights: Float64Array, eStream: number, hStream: number) => {
    const count = weights.length;
    const e = new Float64Array(6 * count);
    const h = new Float64Array(6 * count);
    const [eAxis, hAxis] = eStream === 0 ? [b, c] : [c, b];
    for (let q = 0, o = 2 * w * count; q < count; q++, o += 2) {
      const [er, ei] = [sums[eStream]![o]!, sums[eStream]![o + 1]!];
      const [hr, hi] = [sums[hStream]![o]!, sums[hStream]![o + 1]!];
      e[6 * q + 2 * eAxis] = er * nr - ei * ni;
      e[6 * q + 2 * eAxis + 1] = er * ni + ei * nr;
      h[6 * q + 2 * hAxis] = hr * nr - hi * ni;
      h[6 * q + 2 * hAxis + 1] = hr * ni + hi * nr;
    }
    return { normal, points, areas: weights, e, h };
  };
  return [set(positions[0], face.weights[0], 0, 3), set(positions[1], face.weights[1], 1, 2)];
}
