/**
 * Display colours of a set-up's materials (scene.ts): the library's materials each their own,
 * chosen so that the usual pairs (Si on SiO2, Si3N4 on SiO2, Au on glass) stand apart when
 * drawn translucent over each other; metals in metallic tones and the perfect conductor a dark
 * steel no dielectric has; any other material (a request's own) a blue whose depth follows its
 * permittivity, so that a higher index reads as denser.
 */
import type { PreviewMaterial } from "../solver/index.js";

/** By the library's canonical name, lower case. */
const LIBRARY: Record<string, string> = {
  vacuum: "#f2f5f9",
  air: "#f2f5f9",
  si: "#d1495b",
  sio2: "#7fb8e6",
  si3n4: "#3fae6b",
  al2o3: "#e3c79f",
  tio2: "#f0c93a",
  linbo3: "#a77bc8",
  linbo3_e: "#7d4fa3",
  inp: "#e8843a",
  gaas: "#1f9e89",
  ge: "#8a8f98",
  au: "#d4a72c",
  ag: "#c4cad2",
  cu: "#c27a4a",
  al: "#aab3bd",
  tin: "#b08a2e",
};

const PEC = "#3a3f4b";
const OTHER_METAL = "#b5a26a";

/** `#rrggbb` of an HSL colour (h in degrees, s and l in [0, 1]). */
function hsl(h: number, s: number, l: number): string {
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    const c = l - s * Math.min(l, 1 - l) * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(c * 255)
      .toString(16)
      .padStart(2, "0");
  };
  return `#${f(0)}${f(8)}${f(4)}`;
}

/**
 * A material's display colour: its own for a library material (by its canonical name; null for
 * a request's own material, which may shadow a library name), steel for PEC, a metallic tone
 * for another metal, else a blue from light (ε ≈ 1) to deep (ε ≈ 16 and above).
 */
export function materialColor(
  libraryName: string | null,
  kind: PreviewMaterial["kind"],
  eps: [number, number] | null,
): string {
  if (kind === "pec") return PEC;
  const own = libraryName === null ? undefined : LIBRARY[libraryName.toLowerCase()];
  if (own) return own;
  if (kind === "metal") return OTHER_METAL;
  const re = Math.max(1, eps?.[0] ?? 4);
  const depth = Math.min(1, Math.log(re) / Math.log(16));
  return hsl(215, 0.55, 0.85 - 0.45 * depth);
}
