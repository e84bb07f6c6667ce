"""Meep's extinction, scattering and absorption efficiencies of a dispersive sphere in vacuum,
for the side-by-side in docs/validation.md (scripts/validation/mie-vs-meep.ts runs it).

Argument: a JSON object {eps_inf, poles: [{kind: "lorentz", deltaEps, omega0, gamma} |
{kind: "drude", omegaP, gamma}] (rad/s), radius_m, step_m, box_half_m, half_m, pml_cells,
wavelengths_m: [...], eps: [[re, im], ...] (the pole model's ε at those wavelengths, to check
the conversion), decay_by, eps_averaging (optional, default true)}. Prints one JSON line
{"q_ext": [...], "q_sca", "q_abs", "eps_max_rel_err", "seconds", "sphere_seconds", "steps",
"empty_steps", "cells"}.

Units: Meep length unit a = 1 µm, so a frequency f in Meep units is ω / (2π c / 1 µm); Meep's
γ is in the same units. The standard recipe of Meep's Mie tutorial: a plane wave from a planar
source across the whole cell (into the PML, is_integrated, k_point = 0), an empty run for the
incident intensity (flux through the box's lower face over its area) and the incident fields on
the box, subtracted (load_minus_flux_data) in the run with the sphere for the scattered power;
the absorbed power is the net inflow through a second, unsubtracted box. Mirror symmetries in
x and y, Meep's default subpixel averaging.
"""
import json
import math
import sys
import time

import meep as mp

from meep_poles import A, material


def box(center, half):
    """The six faces of a cube, outward weights (Meep's flux is along +axis)."""
    regions = []
    for axis, vec in ((0, mp.X), (1, mp.Y), (2, mp.Z)):
        for sign in (-1, 1):
            c = [0.0, 0.0, 0.0]
            c[axis] = sign * half
            size = [2 * half, 2 * half, 2 * half]
            size[axis] = 0
            regions.append(
                mp.FluxRegion(
                    center=center + mp.Vector3(*c), size=mp.Vector3(*size), weight=sign
                )
            )
    return regions


def main():
    args = json.loads(sys.argv[1])
    medium = material(args)
    freqs = [A / w for w in args["wavelengths_m"]]
    # The conversion, checked: Meep's ε(f) against the pole model's.
    worst = 0.0
    for f, (re, im) in zip(freqs, args["eps"]):
        e = medium.epsilon(f)[0][0]
        worst = max(worst, abs(complex(e) - complex(re, im)) / abs(complex(re, im)))
    if worst > 1e-6:
        raise SystemExit(f"Meep's medium departs from the pole model by {worst:.2e}")

    resolution = A / args["step_m"]
    dpml = args["pml_cells"] * args["step_m"] / A
    half = args["half_m"] / A
    box_half = args["box_half_m"] / A
    s = 2 * (half + dpml)
    cell = mp.Vector3(s, s, s)
    fmin, fmax = min(freqs), max(freqs)
    fcen = (fmin + fmax) / 2
    df = fmax - fmin
    sources = [
        mp.Source(
            mp.GaussianSource(fcen, fwidth=df, is_integrated=True),
            center=mp.Vector3(0, 0, -half),
            size=mp.Vector3(s, s, 0),
            component=mp.Ex,
        )
    ]
    symmetries = [mp.Mirror(mp.X, phase=-1), mp.Mirror(mp.Y)]
    probe = mp.Vector3(0, 0, box_half)

    def simulation(geometry):
        return mp.Simulation(
            cell_size=cell,
            resolution=resolution,
            boundary_layers=[mp.PML(dpml)],
            sources=sources,
            geometry=geometry,
            k_point=mp.Vector3(),
            symmetries=symmetries,
            default_material=mp.Medium(epsilon=1),
            eps_averaging=args.get("eps_averaging", True),
        )

    def run(sim):
        sim.run(
            until_after_sources=mp.stop_when_fields_decayed(
                2 / fmin, mp.Ex, probe, args["decay_by"]
            )
        )

    started = time.time()
    empty = simulation([])
    inc = [empty.add_flux(freqs, r) for r in box(mp.Vector3(), box_half)]
    run(empty)
    # Incident intensity: the flux through the lower face (z = −box_half, outward weight −1, so
    # the inflow is minus its flux) over its area.
    intensity = [-p / (2 * box_half) ** 2 for p in mp.get_fluxes(inc[4])]
    inc_data = [empty.get_flux_data(f) for f in inc]
    empty_steps = int(round(empty.meep_time() / empty.fields.dt))
    empty.reset_meep()

    sphere = mp.Sphere(radius=args["radius_m"] / A, center=mp.Vector3(), material=medium)
    sim = simulation([sphere])
    scat = [sim.add_flux(freqs, r) for r in box(mp.Vector3(), box_half)]
    net = [sim.add_flux(freqs, r) for r in box(mp.Vector3(), box_half)]
    for f, d in zip(scat, inc_data):
        sim.load_minus_flux_data(f, d)
    sphere_started = time.time()
    run(sim)
    sphere_seconds = time.time() - sphere_started
    seconds = time.time() - started
    steps = int(round(sim.meep_time() / sim.fields.dt))

    area = math.pi * (args["radius_m"] / A) ** 2
    scattered = [sum(v) for v in zip(*(mp.get_fluxes(f) for f in scat))]
    outflow = [sum(v) for v in zip(*(mp.get_fluxes(f) for f in net))]
    q_sca = [p / i / area for p, i in zip(scattered, intensity)]
    q_abs = [-p / i / area for p, i in zip(outflow, intensity)]
    q_ext = [a + b for a, b in zip(q_sca, q_abs)]
    print(
        json.dumps(
            {
                "q_ext": q_ext,
                "q_sca": q_sca,
                "q_abs": q_abs,
                "eps_max_rel_err": worst,
                "seconds": seconds,
                "sphere_seconds": sphere_seconds,
                "steps": steps,
                "empty_steps": empty_steps,
                "cells": [int(round(s * resolution))] * 3,
            }
        )
    )


if __name__ == "__main__":
    main()
