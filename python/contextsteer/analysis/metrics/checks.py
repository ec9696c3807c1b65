"""The checks the crowd measures share: a trajectory, a per-agent value, the targets."""

from __future__ import annotations

import numpy as np


def trajectory_of(positions) -> np.ndarray:
    array = np.asarray(positions, dtype=np.float64)
    if array.ndim != 3 or array.shape[2] != 2 or len(array) == 0:
        raise ValueError(f"positions: expected a trajectory of shape (T + 1, n, 2), got shape {array.shape}")
    if not np.isfinite(array).all():
        raise ValueError("positions: expected finite coordinates, got NaN or inf")
    return array


def per_agent(name: str, value, n: int) -> np.ndarray:
    """A number or ``(n,)`` array, finite and >= 0, as ``(n,)`` float64."""
    array = np.asarray(value, dtype=np.float64)
    if array.ndim == 0:
        array = np.full(n, float(array))
    if array.shape != (n,):
        raise ValueError(f"{name}: expected a number or an array of shape ({n},), got shape {array.shape}")
    if not (np.isfinite(array) & (array >= 0)).all():
        raise ValueError(f"{name}: expected finite values >= 0")
    return array


def targets_of(targets, n: int) -> np.ndarray:
    array = np.asarray(targets, dtype=np.float64)
    if array.shape != (n, 2) or not np.isfinite(array).all():
        raise ValueError(f"targets: expected finite points of shape ({n}, 2), got shape {array.shape}")
    return array

