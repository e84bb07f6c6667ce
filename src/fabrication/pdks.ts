/**
 * Open process design kits: layer maps, layer stacks, per-layer design rules, cross-sections
 * and how each drawn layer is made (for recipes). Numbers come from each kit's public source
 * (shared/NOTES.md "Open PDK numbers" and the repositories cited); foundry rules for DUV
 * processes are under NDA, so where a number is our own guess the kit says so in
 * `illustrative_fields` and its `illustrative` flag is true.
 *
 * Units: nanometres. Materials use emsim's library names (Si, SiO2, Si3N4, Al, TiN) where the
 * library has the material; others (TiW) are named as the kits name them and marked
 * `in_material_library` false.
 */

import { findMaterial } from "../solver/index.js";
import type { LayerRules } from "./drc/run.js";

export interface PdkLayer {
  name: string;
  layer: number;
  datatype: number;
  /** "layer/datatype". */
  key: string;
  description: string;
  /** Marker and annotation layers are drawn but not fabricated. */
  fabricated: boolean;
}

export interface StackLevel {
  name: string;
  material: string;
  /** Whether `material` is in emsim's optical material library (GET /v1/materials). */
  in_material_library: boolean;
  thickness_nm: number;
  /** Bottom of the level; z = 0 is the top of the buried oxide. */
  zmin_nm: number;
  role: "substrate" | "box" | "device" | "cladding" | "metal";
}

export interface CrossSection {
  name: string;
  /** Core layer key. */
  layer: string;
  width_nm: number;
  /** Smallest bend radius the kit allows for this cross-section, centre line. */
  min_radius_nm: number;
  description: string;
  /** Layers drawn around the core (e.g. the slab of a rib), with their offset from its edge. */
  cladding_layers?: Array<{ layer: string; offset_nm: number }>;
}

/** How a drawn layer becomes structure: the lithography and etch (or deposition) it drives. */
export interface LayerProcess {
  /** Step order within the flow (lower first). */
  order: number;
  kind: "etch" | "metal_lift_off";
  /** The stack level patterned. */
  level: string;
  /**
   * What drawn shapes mean: "keep" — material stays where drawn, the rest is etched (or, for
   * a partial etch, the rest is thinned); "remove" — material is etched where drawn.
   */
  drawn: "keep" | "remove";
  /** Material left under an etched area, nm (0 = etch through the level). */
  remaining_nm: number;
  /** Other layers whose shapes the same mask also protects (e.g. slab and core together). */
  protect_with?: string[];
  lithography: string;
  resist: string;
  /** Resist polarity: negative resists stay where exposed. */
  resist_tone: "positive" | "negative";
}

export interface Pdk {
  name: string;
  title: string;
  description: string;
  /** Where the numbers come from. */
  source: { url: string; note: string };
  /** True when any number below is ours rather than the kit's (see illustrative_fields). */
  illustrative: boolean;
  illustrative_fields: string[];
  layers: PdkLayer[];
  stack: StackLevel[];
  /** Design rules per layer key. */
  rules: Record<string, LayerRules>;
  cross_sections: CrossSection[];
  process: Record<string, LayerProcess>;
}

const layer = (
  name: string,
  l: number,
  d: number,
  description: string,
  fabricated = true,
): PdkLayer => ({ name, layer: l, datatype: d, key: `${l}/${d}`, description, fabricated });

const level = (
  name: string,
  material: string,
  thickness_nm: number,
  zmin_nm: number,
  role: StackLevel["role"],
): StackLevel => ({
  name,
  material,
  in_material_library: findMaterial(material)?.name === material,
  thickness_nm,
  zmin_nm,
  role,
});

export const PDKS: readonly Pdk[] = [
  {
    name: "siepic_ebeam",
    title: "SiEPIC EBeam (220 nm SOI, electron-beam lithography)",
    description:
      "The SiEPIC EBeam kit for 220 nm silicon-on-insulator patterned by electron-beam lithography " +
      "(Applied Nanotools NanoSOI), with oxide cladding, a TiW heater and aluminium routing.",
    source: {
      url: "https://github.com/SiEPIC/SiEPIC_EBeam_PDK",
      note: "Layer map and cross-section from klayout_dot_config/tech/EBeam (EBeam_ANT.xs: 220 nm Si, 2.2 µm oxide, 200 nm heater); Si 1/0 width ≥ 60 nm and space ≥ 70 nm, SiN 1/5 120/120 nm per the kit's DRC (shared/NOTES.md).",
    },
    illustrative: true,
    illustrative_fields: [
      "stack.box.thickness_nm",
      "stack.substrate.thickness_nm",
      "rules.11/0",
      "rules.12/0",
      "cross_sections.strip_te.min_radius_nm",
    ],
    layers: [
      layer("Si", 1, 0, "220 nm silicon, fully etched elsewhere"),
      layer("SiN", 1, 5, "silicon nitride waveguide layer"),
      layer("M1_heater", 11, 0, "TiW heater"),
      layer("M2_router", 12, 0, "aluminium routing"),
      layer("M2_open", 13, 0, "bond-pad opening in the cladding"),
      layer("Text", 10, 0, "labels", false),
      layer("DevRec", 68, 0, "device recognition (verification)", false),
      layer("PinRec", 1, 10, "pin recognition (verification)", false),
      layer("FloorPlan", 99, 0, "chip outline", false),
    ],
    stack: [
      level("substrate", "Si", 725_000, -727_000, "substrate"),
      level("box", "SiO2", 2_000, -2_000, "box"),
      level("core", "Si", 220, 0, "device"),
      level("nitride", "Si3N4", 400, 220, "device"),
      level("cladding", "SiO2", 2_200, 0, "cladding"),
      level("heater", "TiW", 200, 2_200, "metal"),
      level("router", "Al", 700, 2_400, "metal"),
    ],
    rules: {
      "1/0": { min_feature_nm: 60, min_spacing_nm: 70 },
      "1/5": { min_feature_nm: 120, min_spacing_nm: 120 },
      "11/0": { min_feature_nm: 3_000, min_spacing_nm: 3_000 },
      "12/0": { min_feature_nm: 5_000, min_spacing_nm: 5_000 },
    },
    cross_sections: [
      {
        name: "strip_te",
        layer: "1/0",
        width_nm: 500,
        min_radius_nm: 5_000,
        description: "TE strip waveguide, 500 nm × 220 nm silicon",
      },
    ],
    process: {
      "1/0": {
        order: 1,
        kind: "etch",
        level: "core",
        drawn: "keep",
        remaining_nm: 0,
        lithography: "100 keV electron-beam lithography",
        resist: "HSQ",
        resist_tone: "negative",
      },
      "1/5": {
        order: 2,
        kind: "etch",
        level: "nitride",
        drawn: "keep",
        remaining_nm: 0,
        lithography: "100 keV electron-beam lithography",
        resist: "ma-N 2403",
        resist_tone: "negative",
      },
      "11/0": {
        order: 10,
        kind: "metal_lift_off",
        level: "heater",
        drawn: "keep",
        remaining_nm: 0,
        lithography: "direct-write laser lithography",
        resist: "LOR/S1805 bilayer",
        resist_tone: "positive",
      },
      "12/0": {
        order: 11,
        kind: "metal_lift_off",
        level: "router",
        drawn: "keep",
        remaining_nm: 0,
        lithography: "direct-write laser lithography",
        resist: "LOR/S1805 bilayer",
        resist_tone: "positive",
      },
    },
  },
  {
    name: "gdsfactory_generic",
    title: "gdsfactory generic PDK (220 nm SOI with SiN)",
    description:
      "gdsfactory's generic technology: 220 nm silicon on 3 µm buried oxide with shallow (150 nm slab) " +
      "and deep (90 nm slab) partial etches and a 350 nm silicon nitride layer 100 nm above the silicon.",
    source: {
      url: "https://github.com/gdsfactory/gdsfactory (gdsfactory/generic_tech)",
      note: "Layer map (WG 1/0, SLAB150 2/0, SLAB90 3/0, WGN 34/0, MH 47/0, M1 41/0) and LayerStackParameters (thickness_wg 220 nm, slab 150/90 nm, nitride 350 nm, gap 100 nm, cladding 3 µm, BOX 3 µm). gdsfactory's generic kit states no design rules: the rules here are ours.",
    },
    illustrative: true,
    illustrative_fields: ["rules", "cross_sections.*.min_radius_nm", "process.*.lithography"],
    layers: [
      layer("WG", 1, 0, "220 nm silicon core, fully etched elsewhere"),
      layer("SLAB150", 2, 0, "150 nm slab: silicon thinned by a 70 nm shallow etch"),
      layer("SLAB90", 3, 0, "90 nm slab: silicon thinned by a 130 nm deep etch"),
      layer("WGN", 34, 0, "350 nm silicon nitride"),
      layer("MH", 47, 0, "TiN heater"),
      layer("M1", 41, 0, "metal 1"),
      layer("FLOORPLAN", 64, 0, "chip outline", false),
      layer("TEXT", 66, 0, "labels", false),
    ],
    stack: [
      level("substrate", "Si", 725_000, -728_000, "substrate"),
      level("box", "SiO2", 3_000, -3_000, "box"),
      level("core", "Si", 220, 0, "device"),
      level("nitride", "Si3N4", 350, 320, "device"),
      level("cladding", "SiO2", 3_000, 0, "cladding"),
      level("heater", "TiN", 750, 1_100, "metal"),
      level("metal1", "Al", 700, 2_300, "metal"),
    ],
    rules: {
      "1/0": { min_feature_nm: 150, min_spacing_nm: 150, min_radius_nm: 5_000 },
      "2/0": { min_feature_nm: 300, min_spacing_nm: 300 },
      "3/0": { min_feature_nm: 300, min_spacing_nm: 300 },
      "34/0": { min_feature_nm: 300, min_spacing_nm: 300, min_radius_nm: 20_000 },
    },
    cross_sections: [
      {
        name: "strip",
        layer: "1/0",
        width_nm: 500,
        min_radius_nm: 5_000,
        description: "strip waveguide",
      },
      {
        name: "rib",
        layer: "1/0",
        width_nm: 500,
        min_radius_nm: 20_000,
        description: "rib waveguide on a 90 nm slab",
        cladding_layers: [{ layer: "3/0", offset_nm: 3_000 }],
      },
      {
        name: "nitride",
        layer: "34/0",
        width_nm: 1_000,
        min_radius_nm: 20_000,
        description: "SiN strip",
      },
    ],
    process: {
      "1/0": {
        order: 1,
        kind: "etch",
        level: "core",
        drawn: "keep",
        remaining_nm: 0,
        protect_with: ["2/0", "3/0"],
        lithography: "193 nm DUV lithography",
        resist: "DUV photoresist",
        resist_tone: "positive",
      },
      "2/0": {
        order: 2,
        kind: "etch",
        level: "core",
        drawn: "remove",
        remaining_nm: 150,
        protect_with: ["1/0"],
        lithography: "193 nm DUV lithography",
        resist: "DUV photoresist",
        resist_tone: "positive",
      },
      "3/0": {
        order: 3,
        kind: "etch",
        level: "core",
        drawn: "remove",
        remaining_nm: 90,
        protect_with: ["1/0"],
        lithography: "193 nm DUV lithography",
        resist: "DUV photoresist",
        resist_tone: "positive",
      },
      "34/0": {
        order: 5,
        kind: "etch",
        level: "nitride",
        drawn: "keep",
        remaining_nm: 0,
        lithography: "193 nm DUV lithography",
        resist: "DUV photoresist",
        resist_tone: "positive",
      },
      "47/0": {
        order: 10,
        kind: "metal_lift_off",
        level: "heater",
        drawn: "keep",
        remaining_nm: 0,
        lithography: "i-line lithography",
        resist: "lift-off bilayer",
        resist_tone: "positive",
      },
      "41/0": {
        order: 11,
        kind: "metal_lift_off",
        level: "metal1",
        drawn: "keep",
        remaining_nm: 0,
        lithography: "i-line lithography",
        resist: "lift-off bilayer",
        resist_tone: "positive",
      },
    },
  },
  {
    name: "cornerstone_si220",
    title: "CORNERSTONE 220 nm SOI (passive)",
    description:
      "CORNERSTONE's 220 nm silicon-on-insulator passive platform: strip waveguides (WG) and rib " +
      "waveguides on a 100 nm slab (SLAB), DUV lithography.",
    source: {
      url: "https://github.com/gdsfactory/cspdk (cspdk/si220)",
      note: "Layer map WG 3/0, SLAB 5/0, HEATER 39/0, PAD 41/0; stack 220 nm Si with a 100 nm slab; strip 450 nm wide with radius_min 5 µm, rib 500 nm with 25 µm; gap 270 nm. Minimum feature and spacing are not published there: ours.",
    },
    illustrative: true,
    illustrative_fields: [
      "rules.*.min_feature_nm",
      "rules.*.min_spacing_nm",
      "stack.box.thickness_nm",
      "stack.cladding.thickness_nm",
    ],
    layers: [
      layer("WG", 3, 0, "220 nm silicon waveguide core"),
      layer("SLAB", 5, 0, "100 nm silicon slab around rib waveguides"),
      layer("GRA", 6, 0, "grating-coupler shallow etch"),
      layer("HEATER", 39, 0, "TiN heater"),
      layer("PAD", 41, 0, "aluminium pads"),
      layer("FLOORPLAN", 99, 0, "chip outline", false),
      layer("LBL", 100, 0, "labels", false),
    ],
    stack: [
      level("substrate", "Si", 725_000, -727_000, "substrate"),
      level("box", "SiO2", 2_000, -2_000, "box"),
      level("core", "Si", 220, 0, "device"),
      level("cladding", "SiO2", 1_000, 0, "cladding"),
      level("heater", "TiN", 700, 1_100, "metal"),
      level("pad", "Al", 700, 1_800, "metal"),
    ],
    rules: {
      "3/0": { min_feature_nm: 150, min_spacing_nm: 200, min_radius_nm: 5_000 },
      "5/0": { min_feature_nm: 500, min_spacing_nm: 500 },
    },
    cross_sections: [
      {
        name: "strip",
        layer: "3/0",
        width_nm: 450,
        min_radius_nm: 5_000,
        description: "strip waveguide",
      },
      {
        name: "rib",
        layer: "3/0",
        width_nm: 500,
        min_radius_nm: 25_000,
        description: "rib waveguide",
        cladding_layers: [{ layer: "5/0", offset_nm: 5_000 }],
      },
    ],
    process: {
      "3/0": {
        order: 1,
        kind: "etch",
        level: "core",
        drawn: "keep",
        remaining_nm: 100,
        lithography: "248 nm DUV lithography",
        resist: "DUV photoresist",
        resist_tone: "positive",
      },
      "5/0": {
        order: 2,
        kind: "etch",
        level: "core",
        drawn: "keep",
        remaining_nm: 0,
        protect_with: ["3/0"],
        lithography: "248 nm DUV lithography",
        resist: "DUV photoresist",
        resist_tone: "positive",
      },
      "6/0": {
        order: 3,
        kind: "etch",
        level: "core",
        drawn: "remove",
        remaining_nm: 150,
        protect_with: ["3/0"],
        lithography: "248 nm DUV lithography",
        resist: "DUV photoresist",
        resist_tone: "positive",
      },
      "39/0": {
        order: 10,
        kind: "metal_lift_off",
        level: "heater",
        drawn: "keep",
        remaining_nm: 0,
        lithography: "i-line lithography",
        resist: "lift-off bilayer",
        resist_tone: "positive",
      },
      "41/0": {
        order: 11,
        kind: "metal_lift_off",
        level: "pad",
        drawn: "keep",
        remaining_nm: 0,
        lithography: "i-line lithography",
        resist: "lift-off bilayer",
        resist_tone: "positive",
      },
    },
  },
  {
    name: "cornerstone_sin300",
    title: "CORNERSTONE 300 nm silicon nitride",
    description:
      "CORNERSTONE's 300 nm LPCVD silicon nitride platform on thermal oxide: C-band strip waveguides " +
      "1.2 µm wide (O-band 0.95 µm), bends of at least 25 µm radius.",
    source: {
      url: "https://github.com/gdsfactory/cspdk (cspdk/sin300)",
      note: "Layer map NITRIDE 203/0, NITRIDE_ETCH 204/0, HEATER 39/0, PAD 41/0; 300 nm nitride; cross-sections nc (1.2 µm, radius 25 µm) and no (0.95 µm). Oxide thicknesses and spacing rules are ours.",
    },
    illustrative: true,
    illustrative_fields: ["rules", "stack.box.thickness_nm", "stack.cladding.thickness_nm"],
    layers: [
      layer("NITRIDE", 203, 0, "300 nm silicon nitride waveguide core"),
      layer("NITRIDE_ETCH", 204, 0, "nitride removed where drawn (trenches)"),
      layer("HEATER", 39, 0, "TiN heater"),
      layer("PAD", 41, 0, "aluminium pads"),
      layer("FLOORPLAN", 99, 0, "chip outline", false),
    ],
    stack: [
      level("substrate", "Si", 725_000, -728_000, "substrate"),
      level("box", "SiO2", 3_000, -3_000, "box"),
      level("core", "Si3N4", 300, 0, "device"),
      level("cladding", "SiO2", 2_000, 0, "cladding"),
      level("heater", "TiN", 700, 2_100, "metal"),
      level("pad", "Al", 700, 2_800, "metal"),
    ],
    rules: {
      "203/0": { min_feature_nm: 300, min_spacing_nm: 400, min_radius_nm: 25_000 },
      "204/0": { min_feature_nm: 400, min_spacing_nm: 400 },
    },
    cross_sections: [
      {
        name: "nc",
        layer: "203/0",
        width_nm: 1_200,
        min_radius_nm: 25_000,
        description: "C-band SiN strip",
      },
      {
        name: "no",
        layer: "203/0",
        width_nm: 950,
        min_radius_nm: 25_000,
        description: "O-band SiN strip",
      },
    ],
    process: {
      "203/0": {
        order: 1,
        kind: "etch",
        level: "core",
        drawn: "keep",
        remaining_nm: 0,
        lithography: "248 nm DUV lithography",
        resist: "DUV photoresist",
        resist_tone: "positive",
      },
      "204/0": {
        order: 2,
        kind: "etch",
        level: "core",
        drawn: "remove",
        remaining_nm: 0,
        lithography: "248 nm DUV lithography",
        resist: "DUV photoresist",
        resist_tone: "positive",
      },
      "39/0": {
        order: 10,
        kind: "metal_lift_off",
        level: "heater",
        drawn: "keep",
        remaining_nm: 0,
        lithography: "i-line lithography",
        resist: "lift-off bilayer",
        resist_tone: "positive",
      },
      "41/0": {
        order: 11,
        kind: "metal_lift_off",
        level: "pad",
        drawn: "keep",
        remaining_nm: 0,
        lithography: "i-line lithography",
        resist: "lift-off bilayer",
        resist_tone: "positive",
      },
    },
  },
];

/** The kit named `name` (case-insensitive), or undefined. */
export function findPdk(name: string): Pdk | undefined {
  const lower = name.toLowerCase();
  return PDKS.find((p) => p.name === lower);
}

export function pdkNames(): string[] {
  return PDKS.map((p) => p.name);
}
