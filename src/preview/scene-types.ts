/**
 * The shape of a set-up's 3-D scene (scene.ts builds it; the dashboard's
 * static/setup-3d.js draws it and type-checks against this file, so it imports nothing: the
 * browser scripts' checker has no Node types). Plain JSON, lengths in metres, the domain's
 * frame (centred on the origin).
 */

/** A point or an extent along x, y, z (metres). */
export type SceneVec3 = [number, number, number];
export type SceneAxis = "x" | "y" | "z";

/** An outline in the xy plane (metres): the outer ring first, then its holes. */
export type SceneRings = [number, number][][];

export interface SceneStructureBase {
  /** Its index in the request's `structures` (a later one overrides an earlier one). */
  index: number;
  /** The material's name as the request gives it. */
  material: string;
  /** `#rrggbb`, from the material (scene-colors.ts). */
  color: string;
}

/** A structure as a 3-D shape, clipped to the grid, absorber included (scene.ts says why). */
export type SceneStructure = SceneStructureBase &
  (
    | { shape: "box"; min: SceneVec3; max: SceneVec3 }
    | { shape: "sphere"; center: SceneVec3; radius: number }
    | { shape: "cylinder"; center: SceneVec3; radius: number; height: number; axis: SceneAxis }
    | {
        /** A prism along `axis` (always z): `bottom` at `min`, `top` at `max`, ring by ring. */
        shape: "polyslab";
        axis: "z";
        min: number;
        max: number;
        bottom: SceneRings;
        /** The same rings at `max`, vertex for vertex (a sloped wall moves them). */
        top: SceneRings;
      }
  );

/** A material of the scene, for its legend. */
export interface SceneMaterial {
  name: string;
  /** pec: a perfect conductor; metal: Re ε < 0 at the source wavelength; else dielectric. */
  kind: "dielectric" | "metal" | "pec";
  color: string;
  /** ε at the source wavelength (real, imaginary), where it is known without painting. */
  eps: [number, number] | null;
}

/** Where the source injects: a plane (with its propagation direction) or a point. */
export interface SceneSource {
  /** plane_wave, point_dipole, gaussian_beam, mode, or port for a ports run's launches. */
  type: "plane_wave" | "point_dipole" | "gaussian_beam" | "mode" | "port";
  /** A short label: "plane wave (TFSF plane)", "dipole Ez", "port o1 source". */
  name: string;
  shape: "plane" | "point";
  min: SceneVec3;
  max: SceneVec3;
  /** Unit propagation direction (planes). */
  direction?: SceneVec3;
  /** A dipole's component (Ex … Hz) or a plane wave's or beam's te/tm. */
  polarization?: string;
  /** A dipole's unit axis. */
  axis?: SceneVec3;
}

export interface SceneMonitor {
  name: string;
  type: "field" | "flux" | "far_field" | "mode";
  /** By its zero extents: no zero a box, one a plane, two a line, three a point. */
  shape: "box" | "plane" | "line" | "point";
  min: SceneVec3;
  max: SceneVec3;
}

export interface ScenePort {
  name: string;
  min: SceneVec3;
  max: SceneVec3;
  /** Unit vector of the way into the device. */
  direction: SceneVec3;
  modes: number;
}

export interface SceneMeshOverride {
  name: string;
  min: SceneVec3;
  max: SceneVec3;
  /** Largest step inside, one or per axis (metres). */
  resolution: number | SceneVec3;
}

export interface SetupScene {
  /** The region of interest (as the grid rounds it) and the whole grid, absorber included. */
  domain: {
    min: SceneVec3;
    max: SceneVec3;
    gridMin: SceneVec3;
    gridMax: SceneVec3;
    boundaries: [string, string, string];
    /** Absorber thickness per axis, [low side, high side] in metres (0 where none). */
    pml: [[number, number], [number, number], [number, number]];
  };
  /** Source wavelength (metres). */
  wavelength: number;
  materials: SceneMaterial[];
  structures: SceneStructure[];
  sources: SceneSource[];
  monitors: SceneMonitor[];
  ports: ScenePort[];
  meshOverrides: SceneMeshOverride[];
  /** Mirror planes through the origin, normal to `axis`. */
  symmetry: { axis: SceneAxis; kind: "pec" | "pmc" }[];
}
