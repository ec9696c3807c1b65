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


def disc_danger(to, reach, dirs, max_distance):
    """``(..., S)`` danger of discs at offsets ``to`` ``(..., 2)`` reaching ``reach``
    ``(...,)`` metres (their radius plus the agent's): arc coverage of each slot, times
    the linear falloff ``1 - clearance / max_distance`` (0 beyond ``max_distance``). Slots
    at 90 degrees or more from a disc's bearing lead away from it and are never covered."""
    d = np.linalg.norm(to, axis=-1)
    clearance = np.maximum(0, d - reach)
    weight = np.where(clearance <= max_distance, 1 - clearance / max_distance, 0)
    half_slot = np.pi / len(dirs)
    sin_a = np.minimum(1, reach / np.maximum(d, 1e-6))
    min_cos = np.sqrt(1 - sin_a**2) * np.cos(half_slot) - sin_a * np.sin(half_slot)
    u = to / np.maximum(d, 1e-6)[..., None]
    limit = np.maximum(min_cos - 1e-6, 1e-4)
    covered = (u @ dirs.T >= limit[..., None]) | (d < 1e-6)[..., None]
    return np.where(covered, weight[..., None], 0)


def avoid_danger(positions, radius, circles, dirs, max_distance) -> np.ndarray:
    """``(n, S)`` danger of circles by arc coverage and linear falloff of the clearance."""
    if len(circles) == 0:
        return np.zeros((len(positions), len(dirs)), np.float32)
    to = circles[None, :, :2] - positions[:, None, :]                      # (n, m, 2)
    reach = circles[None, :, 2] + radius[:, None]                          # (n, m)
    return disc_danger(to, reach, dirs, max_distance).max(axis=1)


def resolve_subtract_argmax(interest, danger, dirs):
    """Direction ``(n, 2)``, strength ``(n,)`` and blocked ``(n,)`` of subtract + argmax."""
    final = np.maximum(0, interest - danger)
    best = final.argmax(axis=1)
    value = final[np.arange(len(final)), best]
    blocked = ~(value > 0)
    direction = np.where(blocked[:, None], 0, dirs[best])
    strength = np.where(blocked, 0, np.clip(value, 0, 1))
    return direction, strength, blocked


def integrate(positions, velocities, headings, direction, strength, *, max_speed, max_acceleration, dt):
    """The world's motion for decisions ``direction`` ``(n, 2)`` and ``strength`` ``(n,)``:
    the velocity turns toward ``direction * strength * max_speed`` by at most
    ``max_acceleration * dt``, the position follows it (semi-implicit Euler), and the
    heading points along any velocity that is not ~0. Returns new
    ``(positions, velocities, headings)``."""
    desired = direction * (strength * max_speed)[:, None]
    change = desired - velocities
    norm = np.linalg.norm(change, axis=1)
    limit = max_acceleration * dt
    velocities = velocities + change * np.where(norm > limit, limit / np.maximum(norm, 1e-30), 1)[:, None]
    positions = positions + velocities * dt
    moving = (velocities**2).sum(axis=1) >= 1e-12
    headings = np.where(moving, np.arctan2(velocities[:, 1], velocities[:, 0]), headings)
    return positions, velocities, headings


def circle_penetration(positions, radius, circles):
    """``(n,)`` deepest reach of each agent (``radius`` ``(n,)``) into circles ``(k, 3)``,
    metres, 0 when it touches none."""
    gap = np.linalg.norm(positions[:, None] - circles[None, :, :2], axis=2)
    return np.maximum(0, (radius[:, None] + circles[None, :, 2] - gap).max(axis=1, initial=0))


def step(positions, velocities, headings, *, radius, max_speed, max_acceleration, targets, circles, dirs,
         avoid_distance, dt):
    """One world step of chase + avoid around circles, as the world takes it: decisions,
    motion and headings, then the penetration into circles and the overlap between
    agents measured. Returns new ``(positions, velocities, headings, penetration, overlap)``."""
    interest = chase_interest(positions, targets, dirs)
    danger = avoid_danger(positions, radius, circles, dirs, avoid_distance)
    direction, strength, _ = resolve_subtract_argmax(interest, danger, dirs)
    positions, velocities, headings = integrate(positions, velocities, headings, direction, strength,
                                                max_speed=max_speed, max_acceleration=max_acceleration, dt=dt)
    return (positions, velocities, headings, circle_penetration(positions, radius, circles),
            overlap(positions, radius))


# --- The disc scene: seek plus danger from neighboring agents -----------------------

def neighbor_pairs(positions, radius):
    """Every ordered pair ``(i, j)``, ``i != j``, of agents within ``radius`` metres, found
    through a uniform grid of cells ``radius`` wide. Returns two ``(pairs,)`` index arrays."""
    n = len(positions)
    keys = np.floor(positions / radius).astype(np.int64)
    keys -= keys.min(axis=0)
    width = keys[:, 0].max() + 3
    cell = (keys[:, 1] + 1) * width + keys[:, 0] + 1
    order = np.argsort(cell, kind="stable")
    sorted_cells = cell[order]
    first_i, first_j = [], []
    for oy in (-1, 0, 1):
        for ox in (-1, 0, 1):
            wanted = cell + oy * width + ox
            start = np.searchsorted(sorted_cells, wanted, "left")
            counts = np.searchsorted(sorted_cells, wanted, "right") - start
            i = np.repeat(np.arange(n), counts)
            within_run = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
            j = order[np.repeat(start, counts) + within_run]
            first_i.append(i)
            first_j.append(j)
    i, j = np.concatenate(first_i), np.concatenate(first_j)
    d2 = ((positions[i] - positions[j]) ** 2).sum(axis=1)
    keep = (i != j) & (d2 <= radius * radius)
    return i[keep], j[keep]


def agent_danger(positions, radius, dirs, max_distance):
    """``(n, S)`` danger of Avoid(agents=True): arc coverage, linear falloff of clearance."""
    i, j = neighbor_pairs(positions, max_distance + 2 * radius.max())
    danger = np.zeros((len(positions), len(dirs)))
    np.maximum.at(danger, i, disc_danger(positions[j] - positions[i], radius[i] + radius[j], dirs, max_distance))
    return danger


def overlap(positions, radius):
    """``(n,)`` deepest overlap of each agent with another, metres."""
    out = np.zeros(len(positions))
    i, j = neighbor_pairs(positions, 2 * radius.max())
    depth = radius[i] + radius[j] - np.linalg.norm(positions[i] - positions[j], axis=1)
    np.maximum.at(out, i, depth)
    return np.maximum(out, 0)


def disc_step(positions, velocities, headings, *, targets, radius, max_speed, max_acceleration, dirs,
              sense_radius, dt):
    """One step of the disc scene: Chase of each agent's own target plus Avoid of the
    agents within ``sense_radius``, subtract + argmax, integration with the heading
    following the velocity, then the overlap measured. Returns new
    ``(positions, velocities, headings, overlap)``."""
    interest = chase_interest_own(positions, targets, dirs)
    danger = agent_danger(positions, radius, dirs, sense_radius)
    direction, strength, _ = resolve_subtract_argmax(interest, danger, dirs)
    positions, velocities, headings = integrate(positions, velocities, headings, direction, strength,
                                                max_speed=max_speed, max_acceleration=max_acceleration, dt=dt)
    return positions, velocities, headings, overlap(positions, radius)


def chase_interest_own(positions, targets, dirs):
    """``(n, S)`` interest of Chase toward each agent's own target (no distance limit)."""
    to = targets - positions
    d = np.linalg.norm(to, axis=1)
    u = np.where((d >= 1e-6)[:, None], to / np.maximum(d, 1e-6)[:, None], 0)
    return np.maximum(u @ dirs.T, 0)
