"""MPB's effective index and group index of a silicon strip's fundamental (TE-like, E mostly
along the width) mode, converged in resolution, for the mode-solver side-by-side in
docs/validation.md (scripts/validation/modes-vs-mpb.ts runs it; it can also be run alone).

Argument (optional): a JSON object {n_core, n_clad, width_um, height_um, cell_x_um,
cell_y_um, wavelength_um, resolutions: [...] (pixels per µm), fd_resolutions: [...] (where the
group index is also taken by a central difference)}. The defaults are the
500 × 220 nm Si strip in SiO2 at 1.55 µm with emsim's material library's indices there
(`refractiveIndexAt` in src/solver/materials.ts): Si 3.4757 (H. H. Li 1980, 293 K table),
SiO2 1.444023621703261 (Malitson's Sellmeier).

Prints one JSON line {n_eff, n_eff_by_resolution: [[res, n], ...], order, n_g,
n_g_by_resolution, n_g_order, n_g_fd_by_resolution: [[res, n_g], ...], seconds}, where n_eff
and n_g are the Richardson extrapolations of the two finest resolutions with the observed order
of the three finest (MPB's subpixel averaging converges at about second order).

The group index is c/v_g of band 1 at the k that find_k found: MPB's
compute_one_group_velocity_component along z (the Hellmann-Feynman derivative dω/dk of its
own discretised eigenproblem, in units of c with a = 1 µm). As a check, at fd_resolutions it
is also taken as c·dk/dω by a central difference of find_k at f·(1 ± 1e-3): the two agree to
a few parts in 1e8 (the difference's own O(δ²) error). The materials are constant-index, so
this n_g is the waveguide dispersion alone, as in emsim's solve of the same constant indices.

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
    "fd_resolutions": [],
}

# The relative frequency step of the central-difference check of the group index.
FD_STEP = 1e-3


def strip_modes(args, resolution, with_fd):
    """Band 1 at the wavelength: (n_eff, n_g from the group velocity, n_g by difference or None)."""
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

    def k_at(freq, guess):
        return solver.find_k(
            mp.NO_PARITY,
            freq,
            1,
            1,
            mp.Vector3(0, 0, 1),
            1e-10,
            guess,
            args["n_clad"] * freq,
            args["n_core"] * freq,
        )[0]

    freq = 1 / args["wavelength_um"]
    k = k_at(freq, 2.4 * freq)
    # find_k leaves the solver at (k, band 1): dω/dk there, in units of c.
    n_g = 1 / solver.compute_one_group_velocity_component(mp.Vector3(0, 0, 1), 1)
    n_g_fd = None
    if with_fd:
        k_hi = k_at(freq * (1 + FD_STEP), k * (1 + FD_STEP))
        k_lo = k_at(freq * (1 - FD_STEP), k * (1 - FD_STEP))
        n_g_fd = (k_hi - k_lo) / (2 * FD_STEP * freq)
    return k / freq, n_g, n_g_fd


def extrapolate(rows):
    """Richardson from the two finest of [(res, value)], with the observed order of the three."""
    (r1, n1), (r2, n2), (r3, n3) = rows[-3], rows[-2], rows[-1]
    order = math.log(abs((n2 - n1) / (n3 - n2))) / math.log(r3 / r2)
    ratio = (r3 / r2) ** order
    return n3 + (n3 - n2) / (ratio - 1), order


def main():
    args = dict(DEFAULTS)
    if len(sys.argv) > 1:
        args.update(json.loads(sys.argv[1]))
    started = time.time()
    solved = [
        (r, strip_modes(args, r, r in args["fd_resolutions"])) for r in args["resolutions"]
    ]
    n_rows = [(r, m[0]) for r, m in solved]
    g_rows = [(r, m[1]) for r, m in solved]
    n_eff, order = extrapolate(n_rows)
    n_g, n_g_order = extrapolate(g_rows)
    print(
        json.dumps(
            {
                "n_eff": n_eff,
                "n_eff_by_resolution": n_rows,
                "order": order,
                "n_g": n_g,
                "n_g_by_resolution": g_rows,
                "n_g_order": n_g_order,
                "n_g_fd_by_resolution": [(r, m[2]) for r, m in solved if m[2] is not None],
                "seconds": time.time() - started,
            }
        )
    )


if __name__ == "__main__":
    main()
