"""Geometry given as shapely objects or WKT text, taken apart into the arrays the checks
expect: polygons as ``(k, 2)`` vertices, walls as ``(m, 4)`` segments, goal areas as
``(m, 4)`` rectangles, metres. shapely (the ``shapely`` extra) is imported only for WKT
text; a shapely object is recognised by its ``geom_type``."""

from __future__ import annotations

import numpy as np

POLYGONAL = ("Polygon", "MultiPolygon", "GeometryCollection")


def is_geometry(value) -> bool:
    """Whether ``value`` is a shapely geometry or WKT text (a str naming a geometry type)."""
    if isinstance(value, str):
        return value.lstrip().split("(")[0].strip().upper().replace(" Z", "") in {
            "POINT", "LINESTRING", "LINEARRING", "POLYGON", "MULTIPOINT", "MULTILINESTRING", "MULTIPOLYGON",
            "GEOMETRYCOLLECTION"}
    return isinstance(getattr(value, "geom_type", None), str)


def geometry(name: str, value):
    """``value`` as a shapely geometry (WKT text parsed), ValueError for text that is not WKT."""
    if not isinstance(value, str):
        return value
    try:
        import shapely  # type: ignore[import-untyped]
    except ImportError as exc:
        raise ImportError(f'{name}: WKT text needs shapely (pip install ".[shapely]" or pip install shapely)') from exc
    try:
        return shapely.from_wkt(value)
    except Exception as exc:  # shapely's GEOSException: a message naming the place
        raise ValueError(f"{name}: expected WKT text, got {value[:60]!r} ({exc})") from None


def _parts(name: str, shape, kinds: tuple[str, ...]) -> list:
    """The simple parts of a shape (a multi-part or collection split), each of ``kinds``."""
    if shape.geom_type.startswith("Multi") or shape.geom_type == "GeometryCollection":
        return [part for sub in shape.geoms for part in _parts(name, sub, kinds)]
    if shape.geom_type not in kinds:
        raise ValueError(f"{name}: expected {' or '.join(kinds)} geometries, got a {shape.geom_type}")
    return [shape]


def _ring(ring) -> np.ndarray:
    """A ring's vertices without the closing repeat of the first, counter-clockwise as given."""
    xy = np.asarray(ring.coords, dtype=np.float64)[:, :2]
    return xy[:-1] if len(xy) > 1 and np.array_equal(xy[0], xy[-1]) else xy


def polygons(name: str, value) -> list[np.ndarray]:
    """The outlines of a (multi)polygon, or of a sequence of them, as ``(k, 2)`` vertex arrays;
    ValueError for holes (give what fills a hole as polygons of their own)."""
    shapes = [value] if is_geometry(value) else list(value)
    found = []
    for i, shape in enumerate(shapes):
        where = name if is_geometry(value) else f"{name}[{i}]"
        for part in _parts(where, geometry(where, shape), ("Polygon",)):
            if len(part.interiors):
                raise ValueError(f"{where}: expected polygons without holes (an obstacle is the filled outline), "
                                 f"got one with {len(part.interiors)}")
            found.append(_ring(part.exterior))
    return found


def segments(name: str, value) -> np.ndarray:
    """Walls from lines, rings or polygons' outlines (each edge a wall), or a sequence of
    them, as ``(m, 4)`` x0, y0, x1, y1."""
    shapes = [value] if is_geometry(value) else list(value)
    rows = []
    for i, shape in enumerate(shapes):
        where = name if is_geometry(value) else f"{name}[{i}]"
        for part in _parts(where, geometry(where, shape), ("LineString", "LinearRing", "Polygon")):
            lines = [part.exterior, *part.interiors] if part.geom_type == "Polygon" else [part]
            for line in lines:
                xy = np.asarray(line.coords, dtype=np.float64)[:, :2]
                rows.append(np.hstack([xy[:-1], xy[1:]]))
    return np.concatenate(rows) if rows else np.zeros((0, 4))


def rectangles(name: str, value) -> np.ndarray:
    """Axis-aligned rectangles (polygons equal to their bounding box) as ``(m, 4)`` xmin,
    ymin, xmax, ymax; ValueError for any other shape."""
    rows = []
    for outline in polygons(name, value):
        low, high = outline.min(axis=0), outline.max(axis=0)
        corners = {(x, y) for x in (low[0], high[0]) for y in (low[1], high[1])}
        if len(outline) != 4 or {tuple(v) for v in outline} != corners:
            raise ValueError(f"{name}: expected axis-aligned rectangles, got a polygon of vertices "
                             f"{outline.tolist()}")
        rows.append([*low, *high])
    return np.asarray(rows, dtype=np.float64).reshape(-1, 4)


def has_geometry(value) -> bool:
    """Whether ``value`` is a geometry or a non-empty list or tuple of them."""
    if is_geometry(value):
        return True
    return isinstance(value, (list, tuple)) and len(value) > 0 and all(is_geometry(v) for v in value)
