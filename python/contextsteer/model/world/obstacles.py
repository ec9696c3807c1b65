"""A world's static obstacles on their layers: circles, walls, polygons, and the navigation
field planned round them.

These functions are methods of :class:`~contextsteer.World` (bound in its
class body); ``self`` is the world."""

from __future__ import annotations

from ..._internal import validation as check
from ..navigation import NavigationField

ALL_LAYERS = 0xFFFFFFFF


def layer_mask(name: str, value) -> int:
    """A bit mask of layers: a whole number from 0 to ALL_LAYERS."""
    return check.count(name, value, minimum=0, maximum=ALL_LAYERS)


def add_circles(self, circles, *, layer: int = 1) -> None:
    """Add circle obstacles.

    Parameters
    ----------
    circles : array_like, shape (m, 3)
        x, y, radius in metres.
    layer : int, default 1
        Bit mask of the layers they are on.

    Examples
    --------
    >>> import contextsteer as cs
    >>> world = cs.World(cs.Pipeline([cs.Seek()]))
    >>> world.add_circles([[2.0, 0.0, 0.5]], layer=2)
    >>> world.circles
    array([[2. , 0. , 0.5]], dtype=float32)
    """
    self._core.add_circles(check.points("circles", circles, columns=3), layer_mask("layer", layer))


def add_segments(self, segments, *, layer: int = 1) -> None:
    """Add walls.

    Parameters
    ----------
    segments : array_like, shape (m, 4), or shapely geometry or WKT text
        Each x0, y0, x1, y1 in metres; or shapely lines, rings or polygons (each edge a
        wall), or their WKT (the ``shapely`` extra).
    layer : int, default 1
        Bit mask of the layers they are on.

    Examples
    --------
    >>> import contextsteer as cs
    >>> world = cs.World(cs.Pipeline([cs.Seek()]))
    >>> world.add_segments([[0.0, 1.0, 5.0, 1.0]])
    >>> world.segments
    array([[0., 1., 5., 1.]], dtype=float32)
    """
    self._core.add_segments(check.segments("segments", segments), layer_mask("layer", layer))


def add_polygon(self, vertices, *, layer: int = 1) -> None:
    """Add a polygon, ``(k, 2)`` vertices in order (k >= 3, convex or concave); its edges
    are walls and its inside counts as penetrated.

    Parameters
    ----------
    vertices : array_like, shape (k, 2), or shapely Polygon or WKT text
        The vertices in order, metres; or a shapely polygon without holes, or its WKT (the
        ``shapely`` extra), as its outline.
    layer : int, default 1
        Bit mask of the layers it is on.

    Examples
    --------
    >>> import contextsteer as cs
    >>> world = cs.World(cs.Pipeline([cs.Seek()]))
    >>> world.add_polygon([[0.0, 0.0], [2.0, 0.0], [1.0, 1.5]])
    >>> len(world.polygons)
    1
    """
    self._core.add_polygon(check.polygon("vertices", vertices), layer_mask("layer", layer))


def clear_obstacles(self) -> None:
    """Remove every circle, segment, polygon and the bounds.

    Examples
    --------
    >>> import contextsteer as cs
    >>> world = cs.World(cs.Pipeline([cs.Seek()]), circles=[[2.0, 0.0, 0.5]], bounds=(0, 0, 4, 4))
    >>> world.clear_obstacles()
    >>> world.circles.shape, world.bounds
    ((0, 3), None)
    """
    self._core.clear_obstacles()


def navigation_field(self, goals=None, *, goal_areas=None, area=None, cell: float = 0.25,
                     clearance: float = 0.0, keep_right: float = 0.0, layers: int = ALL_LAYERS):
    """A :class:`~contextsteer.NavigationField` round this world's obstacles as they stand now.

    The field is a snapshot: build another after adding or removing obstacles.

    Parameters
    ----------
    goals : array_like, shape (k, 2), optional
        Goal points, metres (give these, ``goal_areas`` or both).
    goal_areas : array_like, shape (k, 4), optional
        Goal rectangles ``(xmin, ymin, xmax, ymax)``, metres.
    area : array_like, shape (4,), optional
        The rectangle the field covers, metres (the world's bounds when not given; one
        of them is needed).
    cell : float, default 0.25
        Cell size, metres.
    clearance : float, default 0
        Metres kept from the obstacles, as for the field.
    keep_right : float, default 0
        Metres, as for the field.
    layers : int, default ALL_LAYERS
        Bit mask: the obstacles on these layers block the field (the bounds always
        do); pass an agent's sense mask to plan for what it senses.

    Returns
    -------
    NavigationField
        The field.

    Raises
    ------
    ValueError
        No ``area`` and no bounds, no goal, or a bad value.

    Examples
    --------
    >>> import contextsteer as cs
    >>> world = cs.World(cs.Pipeline([cs.Seek()]), bounds=(0, 0, 10, 4), circles=[[5.0, 2.0, 0.5]])
    >>> field = world.navigation_field([[9.0, 2.0]], cell=0.25)
    >>> round(field.distance_at([1.0, 2.0]), 1)  # round the circle: more than the 8 m straight
    8.2
    """
    if area is None:
        area = self.bounds
        if area is None:
            raise ValueError("area: expected (xmin, ymin, xmax, ymax), the rectangle the field covers, "
                             "as this world has no bounds; got None")
    return NavigationField._of_world(self._core, layer_mask("layers", layers), goals, goal_areas, area, cell,
                                     clearance, keep_right)
