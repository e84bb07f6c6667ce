"""The answer of ``Client.modes`` (``POST /v1/modes``) as an xarray Dataset.

``modes_dataset(answer)`` has ``n_eff``, ``k_eff``, ``te_fraction`` (and ``group_index`` when
it was asked for) along ``(wavelength, mode)``, wavelengths in metres; when the fields were
asked for (``include_fields=True``), each component ``Ex`` … ``Hz`` as a complex array along
``(wavelength, mode, u, v)``, u and v the plane's transverse axes by name (``x`` and ``z`` for a
y-normal plane), at the cell centres in metres, V/m and A/m for 1 W through the plane.

Needs numpy and xarray (Debian: python3-xarray; pip: ``emsim[xarray]``); the client itself
does not.
"""

from __future__ import annotations

from typing import Any, Dict

COMPONENTS = ("Ex", "Ey", "Ez", "Hx", "Hy", "Hz")
_SCALARS = {
    "n_eff": "effective index (real part)",
    "k_eff": "Im n_eff: > 0 for a mode that decays as it propagates",
    "te_fraction": "fraction of |E|^2 along the plane's first transverse axis",
    "group_index": "group index",
}


def _numpy_xarray() -> Any:
    try:
        import numpy  # type: ignore[import-not-found]
        import xarray  # type: ignore[import-not-found]
    except ImportError as err:
        raise ImportError(
            "emsim.modes_dataset needs numpy and xarray: apt install python3-xarray "
            "(Debian/Ubuntu), or pip install 'emsim[xarray]'"
        ) from err
    return numpy, xarray


def modes_dataset(answer: Dict[str, Any]) -> Any:
    """The modes of an answer of ``Client.modes`` as an ``xarray.Dataset`` (see the module).

    A mode that was not found at some wavelength (``mode_index`` missing there) is NaN.
    """
    np, xr = _numpy_xarray()
    wavelengths = [float(w) for w in answer["wavelengths_m"]]
    modes = answer["modes"]
    indices = sorted({int(m["mode_index"]) for m in modes})
    at = {w: i for i, w in enumerate(wavelengths)}
    shape = (len(wavelengths), len(indices))
    where = [(at[float(m["wavelength_m"])], indices.index(int(m["mode_index"]))) for m in modes]
    data: Dict[str, Any] = {}
    for name, long_name in _SCALARS.items():
        if not any(name in m for m in modes):
            continue
        values = np.full(shape, np.nan)
        for (w, k), m in zip(where, modes):
            values[w, k] = m.get(name, np.nan)
        data[name] = xr.Variable(("wavelength", "mode"), values, {"long_name": long_name})
    coords: Dict[str, Any] = {
        "wavelength": ("wavelength", np.array(wavelengths), {"units": "m"}),
        "mode": ("mode", np.array(indices)),
    }
    plane = answer["plane"]
    u, v = plane["axes"]
    grid = answer.get("grid")
    if grid and any("fields" in m for m in modes):
        nu, nv = len(grid[f"{u}_m"]), len(grid[f"{v}_m"])
        coords[u] = (u, np.array(grid[f"{u}_m"]), {"units": "m"})
        coords[v] = (v, np.array(grid[f"{v}_m"]), {"units": "m"})
        for c in COMPONENTS:
            values = np.full(shape + (nu, nv), np.nan + 0j, dtype=np.complex128)
            for (w, k), m in zip(where, modes):
                f = (m.get("fields") or {}).get(c)
                if f is not None:
                    values[w, k] = (np.array(f["re"]) + 1j * np.array(f["im"])).reshape(nu, nv)
            units = "V/m" if c.startswith("E") else "A/m"
            data[c] = xr.Variable(("wavelength", "mode", u, v), values, {"units": units})
    attrs = {
        "normal": plane["normal"],
        "position_m": plane["position_m"],
        "unknowns": answer.get("unknowns"),
        "solve_seconds": answer.get("solve_seconds"),
        "notes": "\n".join(answer.get("notes") or []),
    }
    return xr.Dataset(data, coords=coords, attrs=attrs)
