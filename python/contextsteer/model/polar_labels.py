"""Where a polar axis' radial tick labels go, so that the maps drawn on it leave them clear.

matplotlib puts the radial labels along one ray (22.5 degrees by default), whatever is
drawn there. :func:`place_radial_labels` tries 72 rays, and for each works out where
every label would print (on a full circle matplotlib puts a label's lower left corner on
its point of the ray) and how far that is from the drawn curves and from the angular
labels outside the circle; all in points, on the axis' box as it will be drawn.
A label that a curve still crosses on the ray chosen is left blank, unless it is the
outermost one: the evenly spaced circles keep the scale, and no number is half hidden.
"""

from __future__ import annotations

import functools

import numpy as np
from matplotlib.textpath import TextToPath
from matplotlib.ticker import Formatter

# Rays tried for the labels, evenly around the circle.
_CANDIDATES = 72
# Space (points) around a label that counts as clear: each label's distance to the
# nearest thing drawn counts up to this much, so rays whose labels all keep this clear
# tie, and the one farthest from tall curves nearby wins.
_COMFORT = 6.0
# Margin (points) kept between a radial label and an angular one.
_ANGULAR_MARGIN = 1.0
# Along each drawn line, a point every this many points.
_SAMPLE = 2.0
# A label whose box comes closer than this (points) to a drawn point counts as crossed:
# the points lie up to _SAMPLE apart along a line, rounded to whole points.
_CROSSED = 1.5
_TEXT = TextToPath()


def place_radial_labels(ax, lines, arrow=None) -> float:
    """Move the radial tick labels of the full-circle polar axis ``ax`` to the ray (angle
    in degrees, returned) where the drawn ``lines`` (matplotlib ``Line2D``) and ``arrow``
    (``(angle rad, length)`` from the centre, or None) leave them most room, and blank
    the labels a line still crosses there but the outermost. The ticks must be fixed
    before (``set_rticks``): their labels are measured here."""
    # The labels as the axis' own formatter writes them (a call before may have blanked some).
    formatter = ax.yaxis.get_major_formatter()
    if isinstance(formatter, _Blanked):
        ax.yaxis.set_major_formatter(formatter.inner)
    # The axis' box as it will be drawn: until then, on a figure that is not square, its
    # circle is stretched into an ellipse to fill the box (matplotlib fits the box to
    # the circle's aspect only when it draws).
    ax.apply_aspect()
    centre = ax.transData.transform((0.0, 0.0))

    def in_points(display: np.ndarray) -> np.ndarray:
        return (np.asarray(display, dtype=float) - centre) * (72.0 / ax.figure.dpi)

    polylines = [in_points(line.get_transform().transform_path(line.get_path()).vertices) for line in lines]
    if arrow is not None:
        polylines.append(in_points(np.array([centre, ax.transData.transform(arrow)])))
    # Points (from the centre, in points) along everything drawn, one per square point at
    # most: curves near the centre pile up.
    points = np.unique(np.round(np.concatenate([_along(p) for p in polylines] + [np.zeros((0, 2))])), axis=0)

    angles = np.arange(_CANDIDATES) * 2 * np.pi / _CANDIDATES                             # (k,)
    ticks, boxes = _radial_label_boxes(ax, angles)                                          # boxes (k, m, 4)
    clearance = _clearance(boxes, points)                                                   # (k, m)
    meets = _meets_angular_labels(ax, boxes)                                                # (k,)
    middle, wide = _reach(ax, angles, points)
    # Rays whose labels meet an angular label last; then those where a curve crosses the
    # outermost label (the others may be blanked, it may not); then those whose labels
    # come close to the curves (each label's clearance counted up to _COMFORT, so a label
    # crossed costs the most); among equals, the one with the lowest curves within 30,
    # then 60 degrees.
    outer_crossed = clearance[:, -1] < _CROSSED if clearance.shape[1] else np.zeros(len(angles), dtype=bool)
    comfort = np.round(clearance.sum(axis=1) * 2) / 2
    best = np.lexsort((wide, middle, -comfort, outer_crossed, meets))[0]
    degrees = float(np.degrees(angles[best]))
    ax.set_rlabel_position(degrees)
    crossed = clearance[best] < _CROSSED
    hidden = {tick for tick, blank in zip(ticks[:-1], crossed[:-1]) if blank}
    if hidden:
        ax.yaxis.set_major_formatter(_Blanked(ax.yaxis.get_major_formatter(), hidden))
    return degrees


class _Blanked(Formatter):
    """The axis' formatter, with the labels of the ticks at ``hidden`` (data values) left
    blank. It wraps the formatter rather than fixing the labels' text, so that a later
    call, with other ticks, finds the formatter as it was."""

    def __init__(self, inner: Formatter, hidden: set):
        self.inner, self.hidden = inner, hidden

    def __call__(self, x, pos=None):
        return "" if x in self.hidden else self.inner(x, pos)

    def set_axis(self, axis):
        super().set_axis(axis)
        self.inner.set_axis(axis)

    def set_locs(self, locs):
        self.inner.set_locs(locs)

    def get_offset(self):
        return self.inner.get_offset()


def _along(vertices: np.ndarray) -> np.ndarray:
    """Points every ``_SAMPLE`` or closer along a polyline ``(n, 2)``, in its units (points)."""
    vertices = vertices[np.all(np.isfinite(vertices), axis=1)]
    if len(vertices) < 2:
        return vertices
    steps = np.maximum(1, np.ceil(np.hypot(*np.diff(vertices, axis=0).T) / _SAMPLE)).astype(int)
    parts = [a + np.linspace(0.0, 1.0, n, endpoint=False)[:, None] * (b - a)
             for a, b, n in zip(vertices[:-1], vertices[1:], steps)]
    return np.concatenate(parts + [vertices[-1:]])


@functools.lru_cache(maxsize=256)
def _text_size(text: str, font) -> tuple[float, float]:
    """Width and height (points) of one line of tick label text, as matplotlib lays it out:
    a line is at least as tall as "lp" (its tallest ascent and deepest descent). Cached:
    the same few labels come back on every plot (fonts hash by their properties)."""
    measure = _TEXT.get_text_width_height_descent
    width, height, _ = measure(text, font, ismath=text.startswith("$"))
    return width, max(height, measure("lp", font, ismath=False)[1])


def _circle(ax) -> float:
    """The radius (points) of the axis' circle."""
    box = ax.get_window_extent()
    return 0.5 * min(box.width, box.height) * 72.0 / ax.figure.dpi


def _on_screen(ax, angles):
    """Data angles (rad) as angles on the figure, counter-clockwise from +x."""
    return ax.get_theta_offset() + ax.get_theta_direction() * np.asarray(angles, dtype=float)


def _radial_label_boxes(ax, angles: np.ndarray) -> tuple[list[float], np.ndarray]:
    """The m radial ticks that print a label within the circle, outward, and the
    ``(k, m, 4)`` boxes (x0, y0, x1, y1 in points from the centre) of their labels with
    the labels along each of the k ``angles``."""
    circle, rmax = _circle(ax), ax.get_rmax()
    ticks = [r for r in ax.yaxis.get_majorticklocs() if 0 < r <= rmax]
    texts = ax.yaxis.get_major_formatter().format_ticks(ticks)
    font = ax.yaxis.get_major_ticks(1)[0].label1.get_fontproperties()
    kept = sorted((r, text) for r, text in zip(ticks, texts) if text)
    screen = _on_screen(ax, angles)
    boxes = np.zeros((len(angles), len(kept), 4))
    for i, (r, text) in enumerate(kept):
        width, height = _text_size(text, font)
        # The lower left corner on the ray, at the tick's distance from the centre.
        boxes[:, i, 0] = circle * r / rmax * np.cos(screen)
        boxes[:, i, 1] = circle * r / rmax * np.sin(screen)
        boxes[:, i, 2] = boxes[:, i, 0] + width
        boxes[:, i, 3] = boxes[:, i, 1] + height
    return [r for r, _ in kept], boxes


def _box_distance_squared(boxes: np.ndarray, x, y) -> np.ndarray:
    """Squared distance from each box ``(..., 4)`` to the point(s) (x, y), broadcast; 0 inside."""
    dx = np.maximum(np.maximum(boxes[..., 0] - x, x - boxes[..., 2]), 0.0)
    dy = np.maximum(np.maximum(boxes[..., 1] - y, y - boxes[..., 3]), 0.0)
    return dx * dx + dy * dy


def _clearance(boxes: np.ndarray, points: np.ndarray) -> np.ndarray:
    """``(k, m)`` the least distance (points) from each label of each ray to a point drawn,
    up to ``_COMFORT`` (farther counts as ``_COMFORT``)."""
    clearance = np.full(boxes.shape[:2], _COMFORT)
    radius = np.hypot(points[:, 0], points[:, 1])
    for i in range(boxes.shape[1]):
        # A label's box lies within its diagonal of its corner on the ray: only the points
        # within _COMFORT of that ring can come closer than _COMFORT.
        x0, y0, x1, y1 = boxes[0, i]
        reach = np.hypot(x1 - x0, y1 - y0) + _COMFORT
        close = points[np.abs(radius - np.hypot(x0, y0)) <= reach].astype(np.float32)
        if len(close):
            nearest = _box_distance_squared(boxes[:, i, None, :].astype(np.float32), close[:, 0], close[:, 1])
            clearance[:, i] = np.minimum(np.sqrt(nearest.min(axis=1)), _COMFORT)
    return clearance


def _meets_angular_labels(ax, boxes: np.ndarray) -> np.ndarray:
    """``(k,)`` whether any of the k rays' radial labels would print over an angular label.

    matplotlib centres each angular label a tick pad outside the circle; a label is taken
    here as the disc that holds it, plus a margin.
    """
    circle = _circle(ax)
    tick = ax.xaxis.get_major_ticks(1)[0]
    font, pad = tick.label1.get_fontproperties(), tick.get_pad()
    thetas = ax.xaxis.get_majorticklocs()
    meets = np.zeros(boxes.shape[0], dtype=bool)
    for along, label in zip(_on_screen(ax, thetas), ax.xaxis.get_major_formatter().format_ticks(thetas)):
        if not label:
            continue
        reach = 0.5 * np.hypot(*_text_size(label, font)) + _ANGULAR_MARGIN
        x, y = (circle + pad) * np.cos(along), (circle + pad) * np.sin(along)
        meets |= (_box_distance_squared(boxes, x, y) < reach * reach).any(axis=1)
    return meets


def _reach(ax, angles: np.ndarray, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """How far out (points) the drawn points reach within 30 and within 60 degrees of each
    ray, ``(k,)`` each, rounded to a point: labels keep away from tall curves nearby."""
    # The farthest point in each degree of bearing, then the farthest over each window.
    farthest = np.zeros(360)
    if len(points):
        bearing = np.degrees(np.arctan2(points[:, 1], points[:, 0])).round().astype(int) % 360
        np.maximum.at(farthest, bearing, np.hypot(points[:, 0], points[:, 1]))
    ray = np.degrees(_on_screen(ax, angles)).round().astype(int)[:, None]             # (k, 1)
    return tuple(np.round(farthest[(ray + np.arange(-w, w + 1)) % 360].max(axis=1)) for w in (30, 60))
