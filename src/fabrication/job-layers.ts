/**
 * The layers a job's structures go to in a process recipe (POST /v1/fabrication/recipe with
 * `job_id`): each material to the layer `layer_mapping` gives it, or else to the kit's first
 * layer (in process order) patterning that material (Si → the silicon layer). A material that
 * neither names is left out, and said so: with a partial mapping the others were dropped
 * without a word.
 */
import { findMaterial, type SimulationSpec } from "../solver/index.js";
import type { Pdk } from "./pdks.js";

export type LayerMapping = Record<string, { layer: number; datatype: number }>;

export interface JobLayers {
  /** Layer keys, "layer/datatype", each once. */
  layers: string[];
  warnings: string[];
}

export function jobLayers(
  spec: SimulationSpec,
  mapping: LayerMapping | undefined,
  kit: Pdk | undefined,
): JobLayers {
  const canonical = (name: string) => findMaterial(name)?.name ?? name;
  const layers = new Set<string>();
  const unplaced = new Map<string, number[]>();
  spec.structures.forEach((s, i) => {
    const material = canonical(s.material);
    const mapped = Object.entries(mapping ?? {}).find(([m]) => canonical(m) === material)?.[1];
    const layer = mapped ? `${mapped.layer}/${mapped.datatype}` : kit && kitLayerOf(kit, material);
    if (layer) layers.add(layer);
    else unplaced.set(material, [...(unplaced.get(material) ?? []), i]);
  });
  const warnings = [...unplaced].map(
    ([material, at]) =>
      `${material} (structures[${at.join("], structures[")}]) is on no layer: ` +
      `layer_mapping does not map it and the kit patterns no ${material} layer; left out`,
  );
  return { layers: [...layers], warnings };
}

/** The kit's first layer, in process order, whose level is of `material`. */
function kitLayerOf(kit: Pdk, material: string): string | undefined {
  return Object.entries(kit.process)
    .filter(([, p]) => kit.stack.find((l) => l.name === p.level)?.material === material)
    .sort((a, b) => a[1].order - b[1].order)[0]?.[0];
}
