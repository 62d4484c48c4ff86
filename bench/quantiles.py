"""Think-time figures shared by the AI benches: p50, p95 and the maximum, by nearest rank (a
figure is the time some move took, never an interpolation between two)."""

from __future__ import annotations

QUANTILES = (("p50", 0.5), ("p95", 0.95), ("max", 1.0))


def nearest(xs: list[float], q: float) -> float:
    """The ``q`` quantile of ``xs`` (not empty) by nearest rank."""
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def summary(xs: list[float]) -> dict[str, float]:
    """``{"p50": …, "p95": …, "max": …}`` in the unit of ``xs``."""
    return {name: nearest(xs, q) for name, q in QUANTILES}


def line(xs: list[float]) -> str:
    """``p50 0.123s p95 0.456s max 0.789s``, or ``-`` for no times."""
    if not xs:
        return "-"
    return " ".join(f"{name} {v:.3f}s" for name, v in summary(xs).items())
