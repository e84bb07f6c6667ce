"""MPB's effective index of a silicon strip's fundamental (TE-like, E mostly along the width)
mode, converged in resolution, for the mode-solver side-by-side in docs/validation.md
(scripts/validation/modes-vs-mpb.ts runs it; it can also be run alone).

Argument (optional): a JSON object {n_core, n_clad, width_um, height_um, cell_x_um,
cell_y_um, wavelength_um, resolutions: [...] (pixels per µm)}. The defaults are the
500 × 220 nm Si strip in SiO2 at 1.55 µm with emsim's material library's indices there
(`refractiveIndexAt` in src/solver/materials.ts): Si 3.4757 (H. H. Li 1980, 293 K table),
SiO2 1.444023621703261 (Malitson's Sellmeier).

Prints one JSON line {n_eff, n_eff_by_resolution: [[res, n], ...], order, seconds}, where
n_eff is the Richardson extrapolation of the two finest resolutions with the observed order
of the three finest (MPB's subpixel averaging converges at about second order).

MPB solves the periodic cell: with 1 µm of cladding around the core the field there is below
1e-3 of its peak, and the cell's walls move n_eff by less than 1e-6 (emsim's PEC walls in the
same cell do the same).
"""
import json
import math
import sys
import time

import meep as mp
from meep import mpb

DEFAULTS = {
    "n_core": 3.4757,
    "n_clad": 1.444023621703261,
    "width_um": 0.5,
    "height_um": 0.22,
    "cell_x_um": 2.5,
    "cell_y_um": 2.0,
    "wavelength_um": 1.55,
    "resolutions": [32, 64, 128, 256],
}


def n_eff_at(args, resolution):
    """The fundamental mode's n_eff at the wavelength: MPB's find_k for band 1."""
    solver = mpb.ModeSolver(
        geometry_lattice=mp.Lattice(size=mp.Vector3(args["cell_x_um"], args["cell_y_um"], 0)),
        geometry=[
            mp.Block(
                size=mp.Vector3(args["width_um"], args["height_um"], mp.inf),
                material=mp.Medium(index=args["n_core"]),
            )
        ],
        default_material=mp.Medium(index=args["n_clad"]),
        resolution=resolution,
        num_bands=1,
        tolerance=1e-12,
    )
    freq = 1 / args["wavelength_um"]
    ks = solver.find_k(
        mp.NO_PARITY,
        freq,
        1,
        1,
        mp.Vector3(0, 0, 1),
        1e-10,
        2.4 * freq,
        args["n_clad"] * freq,
        args["n_core"] * freq,
    )
    return ks[0] / freq


def main():
    args = dict(DEFAULTS)
    if len(sys.argv) > 1:
        args.update(json.loads(sys.argv[1]))
    started = time.time()
    rows = [(r, n_eff_at(args, r)) for r in args["resolutions"]]
    (r1, n1), (r2, n2), (r3, n3) = rows[-3], rows[-2], rows[-1]
    order = math.log(abs((n2 - n1) / (n3 - n2))) / math.log(r3 / r2)
    ratio = (r3 / r2) ** order
    extrapolated = n3 + (n3 - n2) / (ratio - 1)
    print(
        json.dumps(
            {
                "n_eff": extrapolated,
                "n_eff_by_resolution": rows,
                "order": order,
                "seconds": time.time() - started,
            }
        )
    )


if __name__ == "__main__":
    main()
