"""Meep's R and T of a dispersive slab at normal incidence (1-D), for the side-by-side in
docs/validation.md (scripts/validation/slab-vs-meep.ts runs it).

Argument: a JSON object {eps_inf, poles: [{kind: "lorentz", deltaEps, omega0, gamma} |
{kind: "drude", omegaP, gamma}] (rad/s), thickness_m, step_m, length_m, pml_cells,
wavelengths_m: [...]}. Prints one JSON line {R: [...], T: [...], seconds, steps}.

Units: Meep length unit a = 1 µm, so a frequency f in Meep units is ω / (2π c / 1 µm).
Reflectance by the usual two runs: the incident flux and fields from an empty cell, whose
fields are subtracted from the flux plane in front of the slab in the second run.
"""
import json
import sys
import time

import meep as mp

from meep_poles import A, material


def main():
    args = json.loads(sys.argv[1])
    resolution = A / args["step_m"]
    pml = args["pml_cells"] * args["step_m"] / A
    length = args["length_m"] / A
    cell = mp.Vector3(0, 0, length + 2 * pml)
    freqs = [A / w for w in args["wavelengths_m"]]
    fmin, fmax = min(freqs), max(freqs)
    fcen = (fmin + fmax) / 2
    df = 1.5 * (fmax - fmin)
    src_z = -length / 2 + 0.1 * length
    sources = [
        mp.Source(mp.GaussianSource(fcen, fwidth=df), component=mp.Ex, center=mp.Vector3(0, 0, src_z))
    ]
    r_z = -length / 2 + 0.2 * length
    t_z = length / 2 - 0.1 * length

    def simulation(geometry):
        return mp.Simulation(
            cell_size=cell,
            resolution=resolution,
            boundary_layers=[mp.PML(pml)],
            sources=sources,
            geometry=geometry,
            dimensions=1,
            default_material=mp.Medium(epsilon=1),
        )

    def run(sim, r_flux, t_flux):
        sim.run(
            until_after_sources=mp.stop_when_fields_decayed(50, mp.Ex, mp.Vector3(0, 0, t_z), 1e-9)
        )

    started = time.time()
    empty = simulation([])
    fr = mp.FluxRegion(center=mp.Vector3(0, 0, r_z))
    ft = mp.FluxRegion(center=mp.Vector3(0, 0, t_z))
    r0 = empty.add_flux(freqs, fr)
    t0 = empty.add_flux(freqs, ft)
    run(empty, r0, t0)
    incident = mp.get_fluxes(t0)
    r0_data = empty.get_flux_data(r0)

    slab = mp.Block(
        size=mp.Vector3(mp.inf, mp.inf, args["thickness_m"] / A),
        center=mp.Vector3(),
        material=material(args),
    )
    sim = simulation([slab])
    r1 = sim.add_flux(freqs, fr)
    t1 = sim.add_flux(freqs, ft)
    sim.load_minus_flux_data(r1, r0_data)
    run(sim, r1, t1)
    seconds = time.time() - started
    R = [-r / i for r, i in zip(mp.get_fluxes(r1), incident)]
    T = [t / i for t, i in zip(mp.get_fluxes(t1), incident)]
    print(json.dumps({"R": R, "T": T, "seconds": seconds, "steps": int(sim.meep_time() / sim.fields.dt)}))


if __name__ == "__main__":
    main()
