/**
 * Process recipes: for the layers a layout uses and a process design kit, an ordered flow —
 * starting wafer (substrate, buried oxide, device layer), depositions, and for each drawn layer
 * resist coat, lithography (mask layer and tone), develop, etch (depth from the kit's stack) or
 * metal deposition and lift-off, resist strip; then cladding deposition and planarisation.
 * Layers the kit cannot make are left out with a warning.
 *
 * The flow is a planning document generated from the kit's public data (see pdks.ts), not a
 * foundry traveller: times, doses and chemistries are the foundry's.
 */

import { compareLayerKeys } from "./drc/run.js";
import type { LayerProcess, Pdk, StackLevel } from "./pdks.js";

export type StepKind =
  | "substrate"
  | "deposition"
  | "resist_coat"
  | "lithography"
  | "develop"
  | "etch"
  | "metal_deposition"
  | "lift_off"
  | "strip"
  | "cladding"
  | "planarisation";

export interface RecipeStep {
  index: number;
  step: StepKind;
  description: string;
  material?: string;
  thickness_nm?: number;
  /** Etch depth from the unetched surface of the level, nm. */
  depth_nm?: number;
  /** Material left in etched areas, nm. */
  remaining_nm?: number;
  /** Mask layer ("L/D") for lithography steps, with any layers the same mask also protects. */
  mask_layers?: string[];
  /** Clear field: drawn shapes are clear (exposed); dark field: drawn shapes are opaque. */
  mask_tone?: "clear_field" | "dark_field";
  resist?: string;
  resist_tone?: "positive" | "negative";
  method?: string;
}

export interface RecipeOptions {
  /** Deposit the cladding oxide (default true when the kit has one). */
  cladding?: boolean;
  /** Planarise the cladding by CMP (default true when metal layers follow). */
  planarise?: boolean;
}

export interface Recipe {
  pdk: string;
  /** Layers of the layout that drive a process step, in flow order. */
  layers_used: string[];
  steps: RecipeStep[];
  warnings: string[];
  /** Copied from the kit: true when some of its numbers are ours. */
  illustrative: boolean;
}

/** Builds the process flow for `layersUsed` ("L/D" keys of the layout) in `pdk`. */
export function generateRecipe(
  pdk: Pdk,
  layersUsed: readonly string[],
  options: RecipeOptions = {},
): Recipe {
  const warnings: string[] = [];
  const driving = drivingLayers(pdk, layersUsed, warnings);
  const hasMetal = driving.some(([, p]) => p.kind === "metal_lift_off");
  const flow = new RecipeFlow(pdk, options, hasMetal);
  flow.startingWafer();
  for (const [key, p] of driving) {
    const lvl = flow.level(p.level);
    if (!lvl) {
      warnings.push(
        `${pdk.name}'s step for ${key} names stack level "${p.level}", which its stack lacks.`,
      );
      continue;
    }
    if (p.kind === "metal_lift_off") flow.cladding();
    else flow.deposit(lvl.name);
    const maskLayers = [key, ...(p.protect_with ?? []).filter((k) => layersUsed.includes(k))];
    flow.patternLayer(key, p, lvl, maskLayers);
  }
  flow.cladding();

  if (driving.length === 0) {
    warnings.push(
      `None of the layout's layers is made by ${pdk.name}: the flow only prepares the wafer.`,
    );
  }
  if (pdk.illustrative) {
    warnings.push(
      `Some of ${pdk.name}'s numbers are illustrative (${pdk.illustrative_fields.join(", ")}); check them with the foundry.`,
    );
  }
  return {
    pdk: pdk.name,
    layers_used: driving.map(([k]) => k),
    steps: flow.steps,
    warnings,
    illustrative: pdk.illustrative,
  };
}

/**
 * The layout's layers that drive a process step in the kit, in flow order (the kit's `order`);
 * a layer the kit does not know, a marker layer and a layer without a step are left out with a
 * warning.
 */
function drivingLayers(
  pdk: Pdk,
  layersUsed: readonly string[],
  warnings: string[],
): Array<[string, LayerProcess]> {
  const known = new Map(pdk.layers.map((l) => [l.key, l]));
  const driving: Array<[string, LayerProcess]> = [];
  for (const key of [...new Set(layersUsed)].sort(compareLayerKeys)) {
    const info = known.get(key);
    if (!info) {
      warnings.push(`Layer ${key} is not in ${pdk.name}'s layer map; it is left out of the flow.`);
      continue;
    }
    if (!info.fabricated) {
      warnings.push(
        `Layer ${key} (${info.name}) is a marker layer in ${pdk.name}; nothing is fabricated from it.`,
      );
      continue;
    }
    const process = pdk.process[key];
    if (!process) {
      warnings.push(
        `${pdk.name} defines no process step for layer ${key} (${info.name}); it is left out of the flow.`,
      );
      continue;
    }
    driving.push([key, process]);
  }
  driving.sort((a, b) => a[1].order - b[1].order);
  return driving;
}

/**
 * The flow as it is written, step by step, with what the wafer already carries: the levels
 * deposited so far (a level is deposited once, before the first layer that patterns it) and
 * whether the cladding is on (once, before the first metal layer or at the end).
 */
class RecipeFlow {
  readonly steps: RecipeStep[] = [];
  private readonly levelByName: Map<string, StackLevel>;
  private readonly deposited: Set<string>;
  private readonly wantCladding: boolean;
  private readonly wantPlanarise: boolean;
  private claddingDone = false;

  constructor(
    private readonly pdk: Pdk,
    options: RecipeOptions,
    hasMetal: boolean,
  ) {
    this.levelByName = new Map(pdk.stack.map((l) => [l.name, l]));
    this.wantCladding = options.cladding ?? this.byRole("cladding").length > 0;
    this.wantPlanarise = options.planarise ?? hasMetal;
    // A silicon device layer comes with the SOI wafer.
    const firstDevice = this.byRole("device")[0];
    this.deposited = new Set(
      firstDevice && firstDevice.material === "Si" ? [firstDevice.name] : [],
    );
  }

  level(name: string): StackLevel | undefined {
    return this.levelByName.get(name);
  }

  /** The first step: the substrate, with its buried oxide and SOI device layer if any. */
  startingWafer(): void {
    const substrate = this.byRole("substrate")[0];
    const box = this.byRole("box")[0];
    const firstDevice = this.byRole("device")[0];
    this.add({
      step: "substrate",
      description:
        `Start from a ${substrate ? `${substrate.material} wafer` : "wafer"}` +
        (box
          ? ` with ${formatThickness(box.thickness_nm)} of ${box.material} (buried/thermal oxide)`
          : "") +
        (firstDevice && firstDevice.material === "Si"
          ? ` and a ${formatThickness(firstDevice.thickness_nm)} ${firstDevice.material} device layer (SOI)`
          : ""),
      material: substrate?.material,
      thickness_nm: substrate?.thickness_nm,
    });
  }

  /** Deposits the stack level unless the wafer already has it. */
  deposit(levelName: string): void {
    if (this.deposited.has(levelName)) return;
    const lvl = this.levelByName.get(levelName);
    if (!lvl) return;
    this.deposited.add(levelName);
    this.add({
      step: "deposition",
      description: `Deposit ${formatThickness(lvl.thickness_nm)} of ${lvl.material} (${lvl.name}) by ${lvl.material === "Si3N4" ? "LPCVD" : "PECVD"}.`,
      material: lvl.material,
      thickness_nm: lvl.thickness_nm,
      method: lvl.material === "Si3N4" ? "LPCVD" : "PECVD",
    });
  }

  /** Deposits (and planarises) the cladding, once, if the flow wants one. */
  cladding(): void {
    if (this.claddingDone || !this.wantCladding) return;
    this.claddingDone = true;
    const clad = this.byRole("cladding")[0];
    if (!clad) return;
    this.add({
      step: "cladding",
      description: `Deposit ${formatThickness(clad.thickness_nm)} of ${clad.material} cladding (PECVD or HDP oxide).`,
      material: clad.material,
      thickness_nm: clad.thickness_nm,
      method: "PECVD",
    });
    if (this.wantPlanarise) {
      this.add({
        step: "planarisation",
        description: `Planarise the ${clad.material} cladding by chemical–mechanical polishing before the metal layers.`,
        material: clad.material,
        method: "CMP",
      });
    }
  }

  /** Patterns level `lvl` with layer `key`: resist, exposure, develop, etch or lift-off, strip. */
  patternLayer(key: string, p: LayerProcess, lvl: StackLevel, maskLayers: string[]): void {
    this.lithography(p, maskLayers);
    if (p.kind === "etch") this.etch(p, lvl);
    else this.liftOff(key, lvl);
    this.add({
      step: "strip",
      description: `Strip the remaining ${p.resist} (solvent and O₂ plasma).`,
      resist: p.resist,
    });
  }

  /** Resist coat, exposure through the mask and develop. */
  private lithography(p: LayerProcess, maskLayers: string[]): void {
    // A positive resist is removed where exposed. To keep material under drawn shapes, the
    // resist must stay there: expose the complement (dark-field mask) with a positive resist,
    // the shapes themselves (clear-field) with a negative one; lift-off is the reverse.
    const resistStaysOnDrawn = p.kind === "etch" ? p.drawn === "keep" : p.drawn !== "keep";
    const exposeDrawn = resistStaysOnDrawn === (p.resist_tone === "negative");
    this.add({
      step: "resist_coat",
      description: `Spin-coat ${p.resist} (${p.resist_tone} tone).`,
      resist: p.resist,
      resist_tone: p.resist_tone,
    });
    this.add({
      step: "lithography",
      description:
        `${capitalise(p.lithography)} with mask layer ${maskLayers.join(" + ")}: ` +
        (exposeDrawn ? "drawn shapes exposed" : "everything but the drawn shapes exposed") +
        ".",
      mask_layers: maskLayers,
      mask_tone: exposeDrawn ? "clear_field" : "dark_field",
      resist: p.resist,
      resist_tone: p.resist_tone,
      method: p.lithography,
    });
    this.add({ step: "develop", description: `Develop the ${p.resist}.`, resist: p.resist });
  }

  private etch(p: LayerProcess, lvl: StackLevel): void {
    const depth = lvl.thickness_nm - p.remaining_nm;
    const where = p.drawn === "keep" ? "outside the drawn shapes" : "inside the drawn shapes";
    this.add({
      step: "etch",
      description:
        p.remaining_nm === 0
          ? `Etch the ${lvl.material} ${where} through its ${formatThickness(lvl.thickness_nm)} (${lvl.material === "Si" ? "HBr/Cl₂" : "CHF₃/O₂"} reactive-ion etch), stopping on the oxide below.`
          : `Partially etch the ${lvl.material} ${where} by ${formatThickness(depth)}, leaving ${formatThickness(p.remaining_nm)}.`,
      material: lvl.material,
      depth_nm: depth,
      remaining_nm: p.remaining_nm,
      method: "reactive-ion etch",
    });
  }

  private liftOff(key: string, lvl: StackLevel): void {
    this.add({
      step: "metal_deposition",
      description: `Deposit ${formatThickness(lvl.thickness_nm)} of ${lvl.material} (${lvl.name}) by evaporation or sputtering.`,
      material: lvl.material,
      thickness_nm: lvl.thickness_nm,
      method: "evaporation",
    });
    this.add({
      step: "lift_off",
      description: `Lift off the ${lvl.material} outside the drawn shapes of ${key}.`,
      material: lvl.material,
    });
  }

  private add(s: Omit<RecipeStep, "index">): void {
    this.steps.push({ index: this.steps.length + 1, ...s });
  }

  private byRole(role: StackLevel["role"]): StackLevel[] {
    return this.pdk.stack.filter((l) => l.role === role);
  }
}

function formatThickness(nm: number): string {
  return nm >= 1000 ? `${nm / 1000} µm` : `${nm} nm`;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
