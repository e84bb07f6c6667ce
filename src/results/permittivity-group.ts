/**
 * /permittivity/<monitor> of the result file: the ε the run stepped on each plane field
 * monitor's node plane (solver/permittivity-results.ts), as the set-up preview shows that plane,
 * so a user can check the set-up the fields came from and draw the structures under them.
 */
import type h5wasm from "h5wasm/node";
import type { PermittivityPlane } from "../solver/index.js";
import { describe, f64, str } from "./h5-attrs.js";
import { createDataset, createGroup } from "./h5-create.js";

const AXES = ["x", "y", "z"] as const;

/** The plane's datasets over its two in-plane axes (n_first, n_second). */
export function permittivityDatasets(p: PermittivityPlane) {
  const shape = [p.coordsM[0].length, p.coordsM[1].length];
  return [
    { name: "eps_real", data: p.epsRe, shape, longName: "relative permittivity, real part" },
    { name: "eps_imag", data: p.epsIm, shape, longName: "relative permittivity, imaginary part" },
    {
      name: "pec_components",
      data: p.conductor,
      shape,
      longName: "E components of the cell that are a perfect conductor (0 to 3)",
    },
  ];
}

/** One group per plane: attributes, the two in-plane coordinates as scales, the datasets. */
export function writePermittivity(
  file: InstanceType<typeof h5wasm.File>,
  planes: readonly PermittivityPlane[],
): void {
  const root = createGroup(file, "permittivity");
  for (const p of planes) {
    const g = createGroup(root, p.name);
    str(g, "type", "permittivity");
    str(g, "normal", AXES[p.normal]!);
    f64(g, "position", p.positionM);
    f64(g, "wavelength", p.wavelengthM);
    const scales = p.axes.map((axis, k) => {
      const name = AXES[axis]!;
      const scale = createDataset(g, { name, data: p.coordsM[k]! });
      scale.make_scale(name);
      describe(scale, "m", name, { axis: name.toUpperCase() });
      return scale.path;
    });
    for (const d of permittivityDatasets(p)) {
      const dataset = createDataset(g, { name: d.name, data: d.data, shape: d.shape });
      scales.forEach((path, axis) => dataset.attach_scale(axis, path));
      describe(dataset, "1", d.longName);
    }
  }
}
