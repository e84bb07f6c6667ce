"""emsim's pole models (src/solver/dispersion/model.ts, exp(-iwt), rad/s) as Meep media, in
Meep's units with a = 1 um: shared by the side-by-side scripts (meep_slab.py, meep_mie.py)."""
import math

import meep as mp

C = 299_792_458.0
A = 1e-6


def meep_freq(omega):
    """An angular frequency in rad/s as a Meep frequency (1/a, c = 1)."""
    return omega / (2 * math.pi * C / A)


def material(args):
    """A Meep medium of `args`: {"eps_inf": ..., "poles": [emsim poles]}."""
    sus = []
    for p in args["poles"]:
        if p["kind"] == "lorentz":
            # d_eps w0^2/(w0^2 - w^2 - i g w) is Meep's Lorentzian with sigma = d_eps.
            sus.append(
                mp.LorentzianSusceptibility(
                    frequency=meep_freq(p["omega0"]),
                    gamma=meep_freq(p["gamma"]),
                    sigma=p["deltaEps"],
                )
            )
        else:
            # -wp^2/(w^2 + i g w) is Meep's Drude term sigma wn^2/(-w^2 - i g w) with wn = wp,
            # sigma = 1.
            sus.append(
                mp.DrudeSusceptibility(
                    frequency=meep_freq(p["omegaP"]), gamma=meep_freq(p["gamma"]), sigma=1
                )
            )
    return mp.Medium(epsilon=args["eps_inf"], E_susceptibilities=sus)
