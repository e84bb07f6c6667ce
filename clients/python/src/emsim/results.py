"""Reading result files (docs/result-format.md) into numpy arrays or xarray Datasets.

Reading HDF5 needs ``h5py`` and ``numpy`` (Debian: python3-h5py; pip: ``emsim[results]``);
with ``xarray`` installed every monitor becomes an ``xarray.Dataset``. The rest of the
package works without any of them.

Each monitor always has a leading ``wavelength`` axis here, of length 1 when the monitor
recorded one wavelength (the file then stores 3-D data), so the same code serves both. A flux
monitor's spectra (``flux``, ``incident_intensity`` and, for a box around a
total-field/scattered-field source, the cross-sections) lie along that axis alone.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any, Dict, Iterator, List, Mapping, Optional, Union

from .sparameters import read_s_matrix, s_matrix_data_array

COMPONENTS = ("Ex", "Ey", "Ez", "Hx", "Hy", "Hz")
_UNITS = {"E": "V/m", "H": "A/m"}
_FIELD = {"E": "electric field", "H": "magnetic field"}
# A flux monitor's spectra (docs/result-format.md): name -> (units, long name); a box's flux
# is an area (its net outward power over the incident intensity), a plane's a power ratio.
SPECTRA = {
    "flux": (None, "normalised flux"),
    "incident_intensity": ("W/m2", "incident intensity for the source amplitude"),
    "power": ("W", "power radiated by the point dipole through the monitor"),
    "extinction_cross_section": ("m2", "extinction cross-section"),
    "scattering_cross_section": ("m2", "scattering cross-section"),
    "absorption_cross_section": ("m2", "absorption cross-section"),
}


def _numpy_h5py() -> Any:
    try:
        import h5py  # type: ignore[import-not-found]
        import numpy  # type: ignore[import-not-found]
    except ImportError as err:
        raise ImportError(
            "emsim.load needs h5py and numpy: apt install python3-h5py (Debian/Ubuntu), or "
            "pip install 'emsim[results]'"
        ) from err
    return h5py, numpy


def _xarray() -> Any:
    try:
        import xarray  # type: ignore[import-not-found]
    except ImportError:
        return None
    return xarray


@dataclass
class Monitor:
    """One monitor's fields as numpy arrays. Lengths in metres, frequencies in hertz.

    ``fields[component]`` is complex64 shaped (wavelength, x, y, z): the frequency-domain
    phasor normalised by the source spectrum (V/m for E, A/m for H). A flux monitor has no
    fields but ``spectra[name]``, float64 shaped (wavelength,): ``flux`` (a plane's power over
    the incident power through it, ``attrs["quantity"]`` saying which; a box's net outward
    power over the incident intensity, m²), ``incident_intensity`` (W/m²) and, for a box around
    a total-field/scattered-field source, ``extinction_cross_section``,
    ``scattering_cross_section`` and ``absorption_cross_section`` (m²). With a point dipole,
    ``flux`` is the power over what the same dipole radiates in vacuum (``quantity``
    "power"; the Purcell factor for a box around it) and ``power`` that power in watts.
    """

    name: str
    x: Any
    y: Any
    z: Any
    wavelength: Any
    frequency: Any
    fields: Dict[str, Any]
    attrs: Dict[str, Any] = field(default_factory=dict)
    spectra: Dict[str, Any] = field(default_factory=dict)

    def __getitem__(self, name: str) -> Any:
        """A field component (``"Ey"``) or a flux monitor's spectrum (``"flux"``)."""
        if name in self.fields:
            return self.fields[name]
        if name in self.spectra:
            return self.spectra[name]
        raise KeyError(
            f"monitor {self.name!r} has no {name!r}; it has "
            f"{', '.join([*self.fields, *self.spectra]) or 'nothing'}"
        )


@dataclass
class FarField:
    """A far-field monitor's pattern as numpy arrays, each shaped (wavelength, theta, phi).

    ``radiant_intensity`` in W/sr; ``E_theta`` and ``E_phi`` complex, r·E at r = 1 m with the
    e^{ikr} phase removed (V). ``theta`` from +z and ``phi`` from +x about +z, in degrees. In a
    2-D cross-section (``attrs["cross_section_axis"]``, the thin axis) the pattern is a line's:
    W/rad over one period, and √ρ·E at ρ = 1 m (V m-0.5).
    """

    name: str
    wavelength: Any
    frequency: Any
    theta: Any
    phi: Any
    data: Dict[str, Any]
    attrs: Dict[str, Any] = field(default_factory=dict)

    def __getitem__(self, name: str) -> Any:
        return self.data[name]


@dataclass
class ModeAmplitudes:
    """A mode monitor's decomposition as numpy arrays: ``amps`` complex shaped (direction,
    wavelength, mode) with direction ``+`` (along the plane's normal) then ``-``, in sqrt(W) of
    the source's normalised fields (with a mode source |amps|^2 is the power over its 1 W);
    ``n_eff`` and ``k_eff`` shaped (wavelength, mode)."""

    name: str
    wavelength: Any
    frequency: Any
    mode_index: Any
    amps: Any
    n_eff: Any
    k_eff: Any
    attrs: Dict[str, Any] = field(default_factory=dict)


class Result(Mapping[str, Any]):
    """A result file: monitors by name (``xarray.Dataset`` or :class:`Monitor`), plus metadata.

    ``request`` is the simulation with every default filled in, ``solver`` the run report
    (steps run, converged, throughput), ``attrs`` the file's own attributes. ``s_matrix`` is a
    ports job's S-matrix ``S(port_out, port_in, wavelength)`` (``emsim.sparameters``), None
    for other jobs. ``permittivity`` holds, for each plane field monitor by name, the complex
    permittivity the run stepped on its plane (what ``client.preview`` shows there), see
    :func:`read_permittivity`.
    """

    def __init__(
        self,
        path: str,
        monitors: Dict[str, Any],
        request: Dict[str, Any],
        solver: Dict[str, Any],
        attrs: Dict[str, Any],
        s_matrix: Any = None,
        permittivity: Optional[Dict[str, Any]] = None,
    ) -> None:
        self.path = path
        self.permittivity = permittivity or {}
        self.monitors = monitors
        self.request = request
        self.solver = solver
        self.attrs = attrs
        self.s_matrix = s_matrix

    @property
    def job_id(self) -> Optional[str]:
        return self.attrs.get("job_id")

    def __getitem__(self, name: str) -> Any:
        try:
            return self.monitors[name]
        except KeyError:
            raise KeyError(
                f"no monitor {name!r} in {self.path}; it has {', '.join(self.monitors) or 'none'}"
            ) from None

    def __iter__(self) -> Iterator[str]:
        return iter(self.monitors)

    def __len__(self) -> int:
        return len(self.monitors)

    def __repr__(self) -> str:
        return f"<emsim.Result {self.path}: job {self.job_id}, monitors {list(self.monitors)}>"


def _attr(value: Any) -> Any:
    """An HDF5 attribute as plain Python: bytes decoded, 1-element arrays unwrapped."""
    if isinstance(value, bytes):
        return value.decode("utf-8")
    if hasattr(value, "tolist"):
        value = value.tolist()
        if isinstance(value, list) and len(value) == 1:
            return value[0]
    return value


def _coordinate_attrs(name: str) -> Dict[str, str]:
    if name == "wavelength":
        return {
            "units": "m",
            "long_name": "vacuum wavelength",
            "standard_name": "radiation_wavelength",
        }
    if name == "frequency":
        return {"units": "Hz", "long_name": "frequency", "standard_name": "radiation_frequency"}
    return {"units": "m", "long_name": name, "axis": name.upper()}


def _read_monitor(group: Any, np: Any) -> Monitor:
    attrs = {k: _attr(v) for k, v in group.attrs.items()}
    wavelengths = np.atleast_1d(np.asarray(group.attrs["wavelengths"], dtype=np.float64))
    frequencies = np.atleast_1d(np.asarray(group.attrs["frequencies"], dtype=np.float64))
    x, y, z = (np.asarray(group[a][...], dtype=np.float64) for a in ("x", "y", "z"))
    fields = {}
    for component in COMPONENTS:
        if component not in group:
            continue
        data = np.asarray(group[component][...]).astype(np.complex64, copy=False)
        if data.ndim == 3:  # one wavelength: the file stores (x, y, z)
            data = data[np.newaxis]
        fields[component] = data
    spectra = {
        name: np.atleast_1d(np.asarray(group[name][...], dtype=np.float64))
        for name in SPECTRA
        if name in group
    }
    return Monitor(
        str(group.name).rsplit("/", 1)[-1],
        x,
        y,
        z,
        wavelengths,
        frequencies,
        fields,
        attrs,
        spectra,
    )


_FAR_FIELD = {
    "radiant_intensity": ("W/sr", "radiant intensity"),
    "E_theta": ("V", "far-field E_theta times r, e^{ikr} removed"),
    "E_phi": ("V", "far-field E_phi times r, e^{ikr} removed"),
}
# A 2-D cross-section's far field (attr cross_section_axis): a line's, per period.
_LINE_FAR_FIELD = {
    "radiant_intensity": ("W/rad", "radiant intensity per radian over one period"),
    "E_theta": ("V m-0.5", "far-field E_theta times sqrt(rho), e^{ikr} removed"),
    "E_phi": ("V m-0.5", "far-field E_phi times sqrt(rho), e^{ikr} removed"),
}


def _read_far_field(group: Any, np: Any) -> FarField:
    attrs = {k: _attr(v) for k, v in group.attrs.items()}
    data = {}
    for name in _FAR_FIELD:
        values = np.asarray(group[name][...])
        if values.dtype.names:  # the {r, i} compound, should h5py not map it to complex
            values = values["r"] + 1j * values["i"]
        data[name] = values
    return FarField(
        str(group.name).rsplit("/", 1)[-1],
        np.atleast_1d(np.asarray(group["wavelength"][...], dtype=np.float64)),
        np.atleast_1d(np.asarray(group["frequency"][...], dtype=np.float64)),
        np.asarray(group["theta"][...], dtype=np.float64),
        np.asarray(group["phi"][...], dtype=np.float64),
        data,
        attrs,
    )


def _read_mode_monitor(group: Any, np: Any) -> ModeAmplitudes:
    attrs = {k: _attr(v) for k, v in group.attrs.items()}
    amps = np.asarray(group["amps"][...])
    if amps.dtype.names:  # the {r, i} compound, should h5py not map it to complex
        amps = amps["r"] + 1j * amps["i"]
    return ModeAmplitudes(
        str(group.name).rsplit("/", 1)[-1],
        np.atleast_1d(np.asarray(group["wavelength"][...], dtype=np.float64)),
        np.atleast_1d(np.asarray(group["frequency"][...], dtype=np.float64)),
        np.asarray(group["mode_index"][...]).astype(int),
        amps,
        np.asarray(group["n_eff"][...], dtype=np.float64),
        np.asarray(group["k_eff"][...], dtype=np.float64),
        attrs,
    )


def _mode_dataset(m: ModeAmplitudes, xr: Any) -> Any:
    dims = ("wavelength", "mode_index")
    data_vars = {
        "amps": (("direction",) + dims, m.amps, {"units": "W0.5", "long_name": "mode amplitude"}),
        "power": (("direction",) + dims, abs(m.amps) ** 2, {"units": "W", "long_name": "|amps|^2"}),
        "n_eff": (dims, m.n_eff, {"units": "1", "long_name": "effective index"}),
        "k_eff": (dims, m.k_eff, {"units": "1", "long_name": "Im n_eff"}),
    }
    coords = {
        "direction": ("direction", ["+", "-"], {"long_name": "along or against the normal"}),
        "wavelength": ("wavelength", m.wavelength, _coordinate_attrs("wavelength")),
        "frequency": ("wavelength", m.frequency, _coordinate_attrs("frequency")),
        "mode_index": ("mode_index", m.mode_index, {"long_name": "mode index"}),
    }
    return xr.Dataset(data_vars, coords=coords, attrs={"monitor": m.name, **m.attrs})


def _far_field_dataset(m: FarField, xr: Any) -> Any:
    dims = ("wavelength", "theta", "phi")
    described = _LINE_FAR_FIELD if "cross_section_axis" in m.attrs else _FAR_FIELD
    data_vars = {
        name: (dims, m.data[name], {"units": units, "long_name": long_name})
        for name, (units, long_name) in described.items()
    }
    coords = {
        "wavelength": ("wavelength", m.wavelength, _coordinate_attrs("wavelength")),
        "frequency": ("wavelength", m.frequency, _coordinate_attrs("frequency")),
        "theta": ("theta", m.theta, {"units": "degree", "long_name": "polar angle from +z"}),
        "phi": ("phi", m.phi, {"units": "degree", "long_name": "azimuth from +x about +z"}),
    }
    return xr.Dataset(data_vars, coords=coords, attrs={"monitor": m.name, **m.attrs})


def _to_dataset(m: Monitor, xr: Any) -> Any:
    dims = ("wavelength", "x", "y", "z")
    data_vars = {}
    for component, data in m.fields.items():
        kind = component[0]
        data_vars[component] = (
            dims,
            data,
            {
                "units": _UNITS[kind],
                "long_name": f"{_FIELD[kind]} {component}",
                "description": f"{component[1]} component of the {_FIELD[kind]} phasor, "
                "normalised by the source spectrum",
            },
        )
    for name, values in m.spectra.items():
        units, long_name = SPECTRA[name]
        if units is None:
            units = "m2" if m.attrs.get("quantity") == "box" else "1"
        data_vars[name] = (("wavelength",), values, {"units": units, "long_name": long_name})
    coords = {
        "wavelength": ("wavelength", m.wavelength, _coordinate_attrs("wavelength")),
        "frequency": ("wavelength", m.frequency, _coordinate_attrs("frequency")),
        "x": ("x", m.x, _coordinate_attrs("x")),
        "y": ("y", m.y, _coordinate_attrs("y")),
        "z": ("z", m.z, _coordinate_attrs("z")),
    }
    return xr.Dataset(data_vars, coords=coords, attrs={"monitor": m.name, **m.attrs})


def load(
    path: Union[str, "os.PathLike[str]"],
    monitor: Optional[str] = None,
    *,
    as_xarray: Optional[bool] = None,
) -> Any:
    """Reads an emsim result file.

    Returns a :class:`Result` (monitors by name, with ``request`` and ``solver``), or only the
    monitor named ``monitor``. Each monitor is an ``xarray.Dataset`` with coordinates
    ``wavelength`` (m), ``frequency`` (Hz), ``x``, ``y``, ``z`` (m) when xarray is installed,
    else a :class:`Monitor` of numpy arrays. A far-field monitor is a Dataset along
    ``wavelength``, ``theta`` and ``phi`` (degrees) with ``radiant_intensity`` (W/sr) and the
    complex ``E_theta``, ``E_phi``, or a :class:`FarField`. A mode monitor is a Dataset with
    ``amps`` and ``power`` along ``direction`` (``+``, ``-``), ``wavelength`` and
    ``mode_index``, and ``n_eff``, ``k_eff``, or a :class:`ModeAmplitudes`. A ports job's ``s_matrix`` is an
    ``xarray.DataArray`` ``S(port_out, port_in, wavelength)`` (NaN in the columns of inputs not
    run), or an :class:`emsim.sparameters.SMatrix`. ``as_xarray=False`` asks for numpy even when
    xarray is there; ``as_xarray=True`` fails without it.

    A batch's file (``GET /v1/batches/{id}/results``) gives an :class:`emsim.BatchResult`: the
    same, every monitor variable and ``s_matrix`` with the sweep's dimensions first (named after
    the parameters, their values as coordinates: ``T(thickness, wavelength)``,
    ``S(width, port_out, port_in, wavelength)``), NaN where a variant did not complete, and
    ``jobs``, ``parameters``, ``dimensions``; without xarray each group is an
    :class:`emsim.SweptGroup` of numpy arrays.
    """
    h5py, np = _numpy_h5py()
    xr = _xarray() if as_xarray is not False else None
    if as_xarray and xr is None:
        raise ImportError(
            "as_xarray=True needs xarray: apt install python3-xarray, or pip install xarray"
        )
    path = os.fspath(path)
    with h5py.File(path, "r") as f:
        if _attr(f.attrs.get("format")) == "emsim-batch-result":
            from .batch import load_batch

            return load_batch(f, path, monitor, h5py, np, xr)
        if _attr(f.attrs.get("format")) != "emsim-result":
            raise ValueError(
                f"{path} is not an emsim result file (no format='emsim-result' attribute)"
            )
        attrs = {k: _attr(v) for k, v in f.attrs.items()}
        request = json.loads(_attr(f["simulation"].attrs["request_json"]))
        solver = {k: _attr(v) for k, v in f["solver"].attrs.items()} if "solver" in f else {}
        names: List[str] = list(f["monitors"].keys()) if "monitors" in f else []
        if monitor is not None and monitor not in names:
            raise KeyError(f"no monitor {monitor!r} in {path}; it has {', '.join(names) or 'none'}")
        monitors = {}
        for name in [monitor] if monitor is not None else names:
            group = f["monitors"][name]
            if _attr(group.attrs.get("type")) == "far_field":
                ff = _read_far_field(group, np)
                monitors[name] = _far_field_dataset(ff, xr) if xr is not None else ff
                continue
            if _attr(group.attrs.get("type")) == "mode":
                mm = _read_mode_monitor(group, np)
                monitors[name] = _mode_dataset(mm, xr) if xr is not None else mm
                continue
            m = _read_monitor(group, np)
            monitors[name] = _to_dataset(m, xr) if xr is not None else m
        s_matrix = (
            read_s_matrix(f["s_matrix"], np, attrs.get("job_id")) if "s_matrix" in f else None
        )
        planes = f["permittivity"] if "permittivity" in f else {}
        permittivity = {name: read_permittivity(planes[name], np, xr) for name in planes}
    if monitor is not None:
        return monitors[monitor]
    if s_matrix is not None and xr is not None:
        s_matrix = s_matrix_data_array(s_matrix, xr)
    return Result(path, monitors, request, solver, attrs, s_matrix, permittivity)


def read_permittivity(group: Any, np: Any, xr: Any) -> Any:
    """One /permittivity/<monitor> group: ε = eps_real + i·eps_imag on the monitor's node plane.

    With xarray a DataArray over the plane's two axes (node coordinates, m), with the
    ``pec_components`` coordinate (how many of each cell's E components are a perfect conductor)
    and attrs ``normal``, ``position`` (m) and ``wavelength`` (m); else a dict of numpy arrays
    under the same names, ``eps`` for the permittivity.
    """
    attrs = {k: _attr(group.attrs[k]) for k in ("normal", "position", "wavelength")}
    axes = [a for a in "xyz" if a != attrs["normal"]]
    eps = np.asarray(group["eps_real"][()]) + 1j * np.asarray(group["eps_imag"][()])
    pec = np.asarray(group["pec_components"][()])
    if xr is None:
        out = {a: np.asarray(group[a][()]) for a in axes}
        return {"eps": eps, "pec_components": pec, **out, **attrs}
    coords = {a: (a, np.asarray(group[a][()]), _coordinate_attrs(a)) for a in axes}
    coords["pec_components"] = (tuple(axes), pec)
    return xr.DataArray(eps, dims=tuple(axes), coords=coords, name="eps", attrs=attrs)
