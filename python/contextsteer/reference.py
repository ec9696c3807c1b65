"""Plain-NumPy implementations of a world step, for checking the C++ core and for
comparing speed. Vectorised over agents; not meant for production use.

Covers the foundation's pipeline: one Chase (linear falloff, targets combined by max)
and one Avoid (linear falloff), combined by max, ``danger_mode="subtract"``,
``select="argmax"``, then the world's integration.
"""

from __future__ import annotations

import numpy as np


def slot_directions(slots: int, offset: float = 0.0) -> np.ndarray:
    """``(slots, 2)`` unit vectors, slot i at ``offset + 2*pi*i/slots``."""
    angles = offset + 2 * np.pi * np.arange(slots) / slots
    return np.column_stack([np.cos(angles), np.sin(angles)]).astype(np.float32)


def chase_interest(positions, targets, dirs, max_distance=np.inf) -> np.ndarray:
    """``(n, S)`` interest: max over targets of ``max(0, cos) * (1 - d / max_distance)``."""
    to = targets[None, :, :] - positions[:, None, :]                      # (n, m, 2)
    d = np.linalg.norm(to, axis=2)                                         # (n, m)
    x = np.zeros_like(d) if np.isinf(max_distance) else d / max_distance
    usable = (d <= max_distance) & (d >= 1e-6)
    g = np.where(usable, (1 - x) / np.where(usable, d, 1), 0)              # falloff / distance
    cosines = np.einsum("nmk,sk->nms", to * g[:, :, None], dirs)
    return np.maximum(cosines, 0).max(axis=1)


def avoid_danger(positions, radius, circles, dirs, max_distance) -> np.ndarray:
    """``(n, S)`` danger of circles by arc coverage and linear falloff of the clearance."""
    n, s = len(positions), len(dirs)
    if len(circles) == 0:
        return np.zeros((n, s), np.float32)
    to = circles[None, :, :2] - positions[:, None, :]                      # (n, m, 2)
    d = np.linalg.norm(to, axis=2)
    reach = circles[None, :, 2] + radius[:, None]
    clearance = np.maximum(0, d - reach)
    weight = np.where(clearance <= max_distance, 1 - clearance / max_distance, 0)
    half_slot = np.pi / s
    sin_a = np.minimum(1, reach / np.maximum(d, 1e-6))
    min_cos = np.sqrt(1 - sin_a**2) * np.cos(half_slot) - sin_a * np.sin(half_slot)
    u = to / np.maximum(d, 1e-6)[:, :, None]
    covered = np.einsum("nmk,sk->nms", u, dirs) >= (min_cos - 1e-6)[:, :, None]
    covered |= (d < 1e-6)[:, :, None]
    return np.where(covered, weight[:, :, None], 0).max(axis=1)


def resolve_subtract_argmax(interest, danger, dirs):
    """Direction ``(n, 2)``, strength ``(n,)`` and blocked ``(n,)`` of subtract + argmax."""
    final = np.maximum(0, interest - danger)
    best = final.argmax(axis=1)
    value = final[np.arange(len(final)), best]
    blocked = ~(value > 0)
    direction = np.where(blocked[:, None], 0, dirs[best])
    strength = np.where(blocked, 0, np.clip(value, 0, 1))
    return direction, strength, blocked


def step(positions, velocities, *, radius, max_speed, max_acceleration, targets, circles, dirs,
         avoid_distance, dt):
    """One world step of chase + avoid; returns new ``(positions, velocities)``."""
    interest = chase_interest(positions, targets, dirs)
    danger = avoid_danger(positions, radius, circles, dirs, avoid_distance)
    direction, strength, _ = resolve_subtract_argmax(interest, danger, dirs)
    desired = direction * (strength * max_speed)[:, None]
    change = desired - velocities
    norm = np.linalg.norm(change, axis=1)
    limit = max_acceleration * dt
    scale = np.where(norm > limit, limit / np.maximum(norm, 1e-30), 1)
    velocities = velocities + change * scale[:, None]
    return positions + velocities * dt, velocities
