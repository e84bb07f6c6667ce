"""A ports job's S-matrix: read from a result file's ``/s_matrix`` group, written as Touchstone.

``emsim.load(path).s_matrix`` is ``S(port_out, port_in, wavelength)``, complex: ``S[j, i]`` is
what leaves through port j (port@mode, e.g. ``"o2@0"``) for 1 W launched into port i, phases
referred to each port's plane (docs/api.md "Ports and S-parameters"). Columns of inputs that
were not run (``source.run_ports``) hold NaN. With xarray it is an ``xarray.DataArray`` with
coordinates ``port_out``, ``port_in``, ``wavelength`` (m), ``frequency`` (Hz, along
wavelength) and ``n_eff(port_out, wavelength)``; without it an :class:`SMatrix` of numpy arrays.

``to_touchstone(S, path)`` writes the text the server's ``?format=touchstone`` gives for the
job (src/results/touchstone.ts), character for character: ``# HZ S RI R 50``, frequency
ascending (10 significant digits), for 2 ports S11 S21 S12 S22, otherwise row by row (S11 S12 …
S1N, S21 …), four pairs per line, each entry with 8 significant digits (what the job record
keeps); NaN entries (inputs not run) are written as 0, and comments name the inputs not run,
as 0 or as filled from ``port_symmetries``. The title names the job where the file does.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, List, Optional, Union

C = 299_792_458.0


@dataclass
class SMatrix:
    """The S-matrix as numpy arrays (when xarray is not installed): ``S`` complex shaped
    (port_out, port_in, wavelength), ``n_eff`` (port, wavelength), ``inputs`` the ports run."""

    ports: List[str]
    wavelength: Any
    frequency: Any
    S: Any
    n_eff: Any
    inputs: List[str] = field(default_factory=list)
    job_id: Optional[str] = None


def _strings(values: Any) -> List[str]:
    return [v.decode("utf-8") if isinstance(v, bytes) else str(v) for v in values]


def read_s_matrix(group: Any, np: Any, job_id: Optional[str] = None) -> SMatrix:
    """The ``/s_matrix`` group of an open h5py file (docs/result-format.md); ``job_id`` the
    file's, for a Touchstone file's title."""
    values = np.asarray(group["S"][...])
    if values.dtype.names:  # the {r, i} compound, should h5py not map it to complex
        values = values["r"] + 1j * values["i"]
    inputs = group.attrs.get("inputs", b"")
    inputs = inputs.decode("utf-8") if isinstance(inputs, bytes) else str(inputs)
    return SMatrix(
        ports=_strings(group["port_out"][...]),
        wavelength=np.atleast_1d(np.asarray(group["wavelength"][...], dtype=np.float64)),
        frequency=np.atleast_1d(np.asarray(group["frequency"][...], dtype=np.float64)),
        S=values.astype(np.complex128, copy=False),
        n_eff=np.asarray(group["n_eff"][...], dtype=np.float64),
        inputs=[p for p in inputs.split(",") if p],
        job_id=job_id,
    )


def s_matrix_data_array(m: SMatrix, xr: Any) -> Any:
    """An :class:`SMatrix` as ``xarray.DataArray`` ``S(port_out, port_in, wavelength)``."""
    wavelength_attrs = {
        "units": "m",
        "long_name": "vacuum wavelength",
        "standard_name": "radiation_wavelength",
    }
    coords = {
        "port_out": ("port_out", m.ports, {"long_name": "port@mode the power goes into"}),
        "port_in": ("port_in", m.ports, {"long_name": "port@mode launched"}),
        "wavelength": ("wavelength", m.wavelength, wavelength_attrs),
        "frequency": ("wavelength", m.frequency, {"units": "Hz", "long_name": "frequency"}),
        "n_eff": (
            ("port_out", "wavelength"),
            m.n_eff,
            {"units": "1", "long_name": "effective index of each port mode"},
        ),
    }
    return xr.DataArray(
        m.S,
        dims=("port_out", "port_in", "wavelength"),
        coords=coords,
        name="S",
        attrs={
            "units": "1",
            "long_name": "scattering matrix S[out][in]",
            "inputs": list(m.inputs),
            **({"job_id": m.job_id} if m.job_id else {}),
        },
    )


def _js_exponential(value: float, digits: int = 9) -> str:
    """``value`` as JavaScript's ``toExponential(digits)`` writes it (the server's Touchstone):
    the double's exact value rounded half away from zero (Python's own formatting rounds a tie
    to even, and frequencies such as c / 1.6 µm = 1.8737028625e14 Hz are exact ties)."""
    if value == 0:
        return f"{0:.{digits}f}e+0"
    exact = Decimal(value)
    exponent = exact.adjusted()
    unit = Decimal(1).scaleb(-digits)
    mantissa = exact.scaleb(-exponent).quantize(unit, rounding=ROUND_HALF_UP)
    if abs(mantissa) >= 10:  # 9.99…95 rounded up to 10
        exponent += 1
        mantissa = exact.scaleb(-exponent).quantize(unit, rounding=ROUND_HALF_UP)
    return f"{mantissa}e{exponent:+d}"


def _pair(z: complex) -> str:
    if z != z:  # NaN: an input that was not run
        return "0 0"
    # 8 significant digits, as the job record keeps them and the server writes them.
    return f"{_js_exponential(z.real, 7)} {_js_exponential(z.imag, 7)}"


def _matrix_of(S: Any) -> Any:
    """(ports, wavelengths in m, S as (out, in, wavelength) complex) from a DataArray or
    an :class:`SMatrix`."""
    import numpy as np  # type: ignore[import-not-found]

    if isinstance(S, SMatrix):
        return list(S.ports), np.asarray(S.wavelength, dtype=np.float64), np.asarray(S.S)
    if not hasattr(S, "dims") or set(S.dims) != {"port_out", "port_in", "wavelength"}:
        raise TypeError(
            "to_touchstone needs S(port_out, port_in, wavelength), as emsim.load(path).s_matrix"
        )
    S = S.transpose("port_out", "port_in", "wavelength")
    ports = _strings(S["port_out"].values)
    if ports != _strings(S["port_in"].values):
        raise ValueError("to_touchstone needs the same ports as rows and columns, in one order")
    wavelengths = np.asarray(S["wavelength"].values, dtype=np.float64)
    return ports, wavelengths, np.asarray(S.values, dtype=np.complex128)


def _meta(S: Any, key: str) -> Any:
    """``S``'s ``inputs`` or ``job_id``: an attribute of a DataArray or an :class:`SMatrix`."""
    return getattr(S, key, None) if isinstance(S, SMatrix) else S.attrs.get(key)


def _not_run_comments(S: Any, ports: List[str], values: Any) -> List[str]:
    """The server's comments on inputs not run: their columns 0, filled from
    ``port_symmetries``, or filled in part. Without ``inputs``, a column all NaN is one not run."""
    inputs = _meta(S, "inputs")
    groups: dict = {"empty": [], "whole": [], "part": []}
    for i, port in enumerate(ports):
        if inputs and port in inputs:
            continue
        filled = sum(1 for o in range(len(ports)) if (values[o, i, :] == values[o, i, :]).any())
        if not inputs and filled > 0:
            continue
        kind = "empty" if filled == 0 else "whole" if filled == len(ports) else "part"
        groups[kind].append(port)
    texts = {
        "empty": "not run (their columns are 0)",
        "whole": "not run, filled from port_symmetries",
        "part": "not run, partly filled from port_symmetries (the other entries are 0)",
    }
    return [f"! {texts[k]}: {', '.join(groups[k])}" for k in texts if groups[k]]


def touchstone_text(S: Any, title: Optional[str] = None) -> str:
    """The Touchstone 1.1 text of ``S`` (see the module for the layout); ``title`` by default
    the server's, ``emsim S-parameters of job <id>`` (without a job id, ``emsim S-parameters``)."""
    ports, wavelengths, values = _matrix_of(S)
    if title is None:
        job_id = _meta(S, "job_id")
        title = f"emsim S-parameters of job {job_id}" if job_id else "emsim S-parameters"
    P = len(ports)
    lines = [
        f"! {title}",
        "! ports: " + ", ".join(f"{i + 1} = {p}" for i, p in enumerate(ports)),
        "! S[j][i]: from port i into port j, phases referred to each port's plane",
        *_not_run_comments(S, ports, values),
        "# HZ S RI R 50",
    ]
    order = sorted(
        (C / w, k) for k, w in enumerate(wavelengths) if w > 0 and w == w
    )  # frequency ascending
    for frequency, k in order:
        if P == 2:
            pairs = [(0, 0), (1, 0), (0, 1), (1, 1)]
        else:
            pairs = [(o, i) for o in range(P) for i in range(P)]
        entries = [_pair(complex(values[o, i, k])) for o, i in pairs]
        # Each matrix row starts a line (2 ports: all four on one), wrapping after 4 pairs.
        per_row = 4 if P == 2 else P
        rows = [
            " ".join(entries[r + at : r + min(at + 4, per_row)])
            for r in range(0, len(entries), per_row)
            for at in range(0, per_row, 4)
        ]
        lines.append(f"{_js_exponential(frequency)} " + "\n".join(rows))
    return "\n".join(lines) + "\n"


def to_touchstone(
    S: Any,
    path: Union[str, "os.PathLike[str]"],
    *,
    title: Optional[str] = None,
) -> str:
    """Writes ``S`` (``emsim.load(path).s_matrix``) to ``path`` as Touchstone 1.1 and returns
    the path. Name it ``.s<N>p`` for N ports (``.s2p``): readers such as scikit-rf take the
    port count from the extension, so a name for another count is refused."""
    ports, _, _ = _matrix_of(S)
    path = os.fspath(path)
    expected = f".s{len(ports)}p"
    suffix = os.path.splitext(path)[1].lower()
    if suffix.startswith(".s") and suffix.endswith("p") and suffix != expected:
        raise ValueError(f"{path}: {len(ports)} ports (port@mode) belong in a {expected} file")
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(touchstone_text(S, title))
    return path
