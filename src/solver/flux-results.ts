/**
 * Each flux monitor's power per wavelength (flux.ts), normalised by what its source gives:
 * - a plane wave: of the total field, or of the scattered field (total − incident), summed over
 *   its faces and normalised by the incident wave's flux computed on the grid the same way (so
 *   the DFT's scale and N(ω) cancel). A plane gives a transmittance, reflectance or flux; a
 *   closed box its net outflow and cross-sections.
 * - a point dipole: the power of the total field in watts (the raw sums times |N(ω)|²) and
 *   that power over what the same dipole radiates in vacuum (a box around it: the Purcell
 *   factor); a Gaussian beam: over the beam's power; a mode source: over the 1 W it injects
 *   into its mode at every wavelength.
 */
import { facePower, planeNormal, planeQuantity, type FluxSurface } from "./flux.js";
import { mirroredCoordinates, nodeM } from "./grid.js";
import type { FdtdSimulation, MonitorState } from "./simulation.js";
import type {
  GaussianBeamSource,
  ModeSource,
  PlaneWaveSource,
  PointDipoleSource,
} from "./sources/index.js";
import type { FluxMonitorResult, FluxQuantity, Vec3 } from "./types.js";

type Coordinates = [Float64Array, Float64Array, Float64Array];
type CrossSections = NonNullable<FluxMonitorResult["crossSections"]>;

/** Every flux monitor's result, in the order of the monitors; `allSums` per monitor. */
export function fluxResults(sim: FdtdSimulation, allSums: Float64Array[][]): FluxMonitorResult[] {
  const out: FluxMonitorResult[] = [];
  sim.monitors.forEach((m, mi) => {
    if (m.flux) out.push(fluxResult(sim, m, m.flux, allSums[mi]!));
  });
  return out;
}

function fluxResult(
  sim: FdtdSimulation,
  m: MonitorState,
  surface: FluxSurface,
  sums: Float64Array[],
): FluxMonitorResult {
  const coords = [...m.coords] as Coordinates;
  for (const a of surface.mirrored) coords[a] = mirroredCoordinates(coords[a]);
  const source = sim.source;
  const { quantity, normal, spectrum } =
    source.kind === "plane_wave"
      ? planeWaveFlux(sim, source, m, surface, sums, coords)
      : sourcePower(sim, m, surface, sums, coords, referencePower(source));
  return {
    name: m.spec.name,
    center: [...m.spec.center],
    size: [...m.spec.size],
    wavelengthsM: m.wavelengthsM,
    frequenciesHz: m.frequencyIndex.map((f) => sim.omegas[f]! / (2 * Math.PI)),
    quantity,
    normal,
    areaM2: surface.areaM2,
    flux: spectrum.flux,
    crossSections: spectrum.cross,
    incidentIntensityWPerM2: spectrum.intensity,
    powerW: spectrum.powerW,
    x: coords[0],
    y: coords[1],
    z: coords[2],
  };
}

type Spectrum = {
  flux: Float64Array;
  cross: CrossSections | null;
  intensity: Float64Array | null;
  powerW: Float64Array | null;
};
type Measured = { quantity: FluxQuantity; normal: Vec3 | null; spectrum: Spectrum };

function planeWaveFlux(
  sim: FdtdSimulation,
  source: PlaneWaveSource,
  m: MonitorState,
  surface: FluxSurface,
  sums: Float64Array[],
  coords: Coordinates,
): Measured {
  const { quantity, normal } = orientation(sim, source, surface, coords);
  const spectrum = fluxSpectrum(sim, source, m, surface, sums, quantity, normal);
  return { quantity, normal, spectrum: { ...spectrum, powerW: null } };
}

/**
 * What a source's power is measured against, in watts at angular frequency ω: the power the
 * same dipole radiates in vacuum, or the beam's power through a plane normal to it.
 */
function referencePower(
  source: PointDipoleSource | GaussianBeamSource | ModeSource,
): (omega: number) => number {
  if (source.kind === "point_dipole") return (omega) => source.vacuumPowerW(omega);
  // The mode source's monitors read 1 W of its mode at every wavelength (sources/mode.ts).
  if (source.kind === "mode") return () => 1;
  const beam = source.beamPowerW();
  return () => beam;
}

/**
 * The power out of a box, or through a plane along +axis, in watts and over the source's
 * reference power (a dipole's in vacuum, a beam's own).
 */
function sourcePower(
  sim: FdtdSimulation,
  m: MonitorState,
  surface: FluxSurface,
  sums: Float64Array[],
  coords: Coordinates,
  reference: (omega: number) => number,
): Measured {
  let normal: Vec3 | null = null;
  if (!surface.isBox) {
    const a = surface.axis;
    coords[a] = Float64Array.of(nodeM(sim.plan.axes[a], surface.faces[0]!.plane));
    normal = planeNormal(a, 1);
  }
  const norm = sim.source.normalisation();
  const power = surfacePower(
    surface,
    sums,
    m.streams.map(() => null),
  );
  const W = m.frequencyIndex.length;
  const flux = new Float64Array(W);
  const powerW = new Float64Array(W);
  m.frequencyIndex.forEach((f, w) => {
    powerW[w] = power(w) * (norm[2 * f]! ** 2 + norm[2 * f + 1]! ** 2);
    flux[w] = powerW[w]! / reference(sim.omegas[f]!);
  });
  return {
    quantity: "power",
    normal,
    spectrum: { flux, cross: null, intensity: null, powerW },
  };
}

/**
 * What a plane measures (transmittance along the propagation direction, reflectance against
 * it, or flux across it) and its normal, with its coordinate along its axis put in `coords`;
 * a box measures its net outflow.
 */
function orientation(
  sim: FdtdSimulation,
  source: PlaneWaveSource,
  surface: FluxSurface,
  coords: Coordinates,
): { quantity: FluxQuantity; normal: Vec3 | null } {
  if (surface.isBox) return { quantity: "box", normal: null };
  const g = source.geometry;
  const a = surface.axis;
  const at = nodeM(sim.plan.axes[a], surface.faces[0]!.plane);
  coords[a] = Float64Array.of(at);
  const sourcePlaneM = nodeM(sim.plan.axes[g.axis], source.tfsfIndex);
  const extents = sim.structureBounds.map((b): [number, number] => [b.lo[g.axis]!, b.hi[g.axis]!]);
  const quantity = planeQuantity(a, at, g.axis, g.sign, sourcePlaneM, extents);
  const sign = quantity === "transmittance" ? g.sign : quantity === "reflectance" ? -g.sign : 1;
  return { quantity, normal: planeNormal(a, sign) };
}

/**
 * The node along the propagation axis where the incident flux density is taken: the
 * reference node (sources/plane-wave.ts incidentFluxDensity; undefined here), except on a graded grid,
 * where the mean of H either side of a node depends on the cells' steps there: a plane normal
 * to that axis at its own node, a box at its upstream face's; never upstream of the TFSF
 * plane, where the auxiliary line holds the wave its sheet sends backwards, not the incident
 * one (the cells just downstream of the TFSF plane have the steps of those upstream of it).
 */
function incidentNode(
  sim: FdtdSimulation,
  source: PlaneWaveSource,
  surface: FluxSurface,
): number | undefined {
  const g = source.geometry;
  const normalAxis = surface.isBox ? g.axis : surface.axis;
  if (normalAxis !== g.axis || sim.plan.uniform) return undefined;
  const own = surface.isBox ? surface.box.lo[g.axis] : surface.faces[0]!.plane;
  const s = source.tfsfIndex;
  return g.sign > 0 ? Math.max(own, s + 1) : Math.min(own, s - 1);
}

/** The normalised flux per wavelength, a box's cross-sections, and the incident intensity. */
function fluxSpectrum(
  sim: FdtdSimulation,
  source: PlaneWaveSource,
  m: MonitorState,
  surface: FluxSurface,
  sums: Float64Array[],
  quantity: FluxQuantity,
  normal: Vec3 | null,
): { flux: Float64Array; cross: CrossSections | null; intensity: Float64Array } {
  const norm = source.normalisation();
  const freqs = m.frequencyIndex;
  const W = freqs.length;
  const power = totalAndScatteredPower(sim, source, m, surface, sums);
  const node = incidentNode(sim, source, surface);
  const flux = new Float64Array(W);
  const intensity = new Float64Array(W);
  const cross = surface.isBox
    ? {
        scattering: new Float64Array(W),
        absorption: new Float64Array(W),
        extinction: new Float64Array(W),
      }
    : null;
  for (let w = 0; w < W; w++) {
    const f = freqs[w]!;
    // |S_a| of the incident wave in raw units; |S| = |S_a|/cos θ, θ this wavelength's angle.
    const incident = Math.abs(source.incidentFluxDensity(f, node));
    const cosTheta = source.cosThetaAt(f);
    intensity[w] = (incident * (norm[2 * f]! ** 2 + norm[2 * f + 1]! ** 2)) / cosTheta;
    if (!(incident > 0)) {
      flux[w] = Number.NaN;
    } else if (cross) {
      const perIntensity = cosTheta / incident;
      flux[w] = power.total(w) * perIntensity;
      cross.absorption[w] = -flux[w]!;
      cross.scattering[w] = power.scattered(w) * perIntensity;
      cross.extinction[w] = cross.absorption[w]! + cross.scattering[w]!;
    } else {
      const sign = normal![surface.axis]!;
      const field = quantity === "reflectance" ? power.scattered(w) : power.total(w);
      flux[w] = (sign * field) / (incident * surface.areaM2);
    }
  }
  return { flux, cross, intensity };
}

/**
 * A plane wave's total and scattered power through the surface per wavelength index: the grid
 * holds the total field downstream of the TFSF plane and the scattered one upstream, so each
 * adds or removes the incident field where the grid holds the other.
 */
function totalAndScatteredPower(
  sim: FdtdSimulation,
  source: PlaneWaveSource,
  m: MonitorState,
  surface: FluxSurface,
  sums: Float64Array[],
): { total: (w: number) => number; scattered: (w: number) => number } {
  const layout = sim.model.layout;
  const freqs = m.frequencyIndex;
  const toTotal = m.streams.map((st) => source.incidentSums(st, layout, freqs, "scattered"));
  const toScattered = m.streams.map((st) =>
    source.incidentSums(st, layout, freqs, "total").map((v) => -v),
  );
  return {
    total: surfacePower(surface, sums, toTotal),
    scattered: surfacePower(surface, sums, toScattered),
  };
}

/**
 * The power through the whole surface at wavelength index w, of the stored samples plus
 * `corrections` per stream (the incident field to add or remove; null: none), summed over the
 * faces; the mirror images of the surface carry the same power as the half on the grid.
 */
function surfacePower(
  surface: FluxSurface,
  sums: Float64Array[],
  corrections: (Float64Array | null)[],
): (w: number) => number {
  const images = 2 ** surface.mirrored.length;
  return (w) => {
    let p = 0;
    surface.faces.forEach((f, fi) => {
      const at = 4 * fi;
      p += facePower(f, sums.slice(at, at + 4), corrections.slice(at, at + 4), w);
    });
    return images * p;
  };
}
