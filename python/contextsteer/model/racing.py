"""Racing (Fray's use of context steering): lane maps across the track ahead."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import _core
from .._internal import validation as check
from .._internal.arguments import ShowsArguments
from .behaviors import Behavior


class Track(ShowsArguments):
    """A race track: a centreline, a half-width and a racing line.

    Parameters
    ----------
    centreline : array_like, shape (k, 2)
        Points in the direction of travel, metres (k >= 2).
    half_width : float
        Metres from the centreline to either edge (> 0).
    racing_line : array_like, shape (k,), optional
        Lateral offset of the ideal line at each point, metres, positive to the left of
        the direction of travel (the centreline if None).
    closed : bool, default False
        Whether the last point joins the first (a circuit).

    Raises
    ------
    ValueError, TypeError
        For a bad value, naming the argument.

    Examples
    --------
    >>> import contextsteer as cs
    >>> track = cs.Track([[0.0, 0.0], [20.0, 0.0]], 3.0)
    >>> track.length, track.half_width
    (20.0, 3.0)
    """

    def __init__(self, centreline, half_width: float, *, racing_line=None, closed: bool = False):
        points = check.points("centreline", centreline)
        line = np.zeros(len(points), np.float32) if racing_line is None else check.shaped(
            "racing_line", racing_line, (len(points),))
        self._core = _core.Track(points, check.number("half_width", half_width, above=0.0), line,
                                 check.flag("closed", closed))

    @property
    def length(self) -> float:
        """Length of the centreline, metres."""
        return self._core.length

    @property
    def half_width(self) -> float:
        """Metres from the centreline to either edge."""
        return self._core.half_width

    def locate(self, points) -> np.ndarray:
        """Where points lie along and across the track.

        Parameters
        ----------
        points : array_like, shape (n, 2)
            Metres.

        Returns
        -------
        ndarray of float32, shape (n, 2)
            Arc length along the centreline and lateral offset (left positive), metres.

        Examples
        --------
        >>> import contextsteer as cs
        >>> cs.Track([[0.0, 0.0], [20.0, 0.0]], 3.0).locate([[5.0, 1.0]])
        array([[5., 1.]], dtype=float32)
        """
        return self._core.locate(check.shaped("points", points, (None, 2)))

    def point_at(self, s: float, lateral: float = 0.0) -> np.ndarray:
        """The point at an arc length and lateral offset.

        Parameters
        ----------
        s : float
            Arc length along the centreline, metres.
        lateral : float, default 0
            Offset to the left, metres.

        Returns
        -------
        ndarray, shape (2,)
            Metres.

        Examples
        --------
        >>> import contextsteer as cs
        >>> cs.Track([[0.0, 0.0], [20.0, 0.0]], 3.0).point_at(10.0, -1.0)
        array([10., -1.])
        """
        return np.array(self._core.point_at(check.number("s", s), check.number("lateral", lateral)))


@dataclass(frozen=True)
class LaneMaps:
    """Lane maps of n cars over L lanes (lane 0 at the right edge, lane L-1 at the left).

    Parameters
    ----------
    interest, danger, final : ndarray of float32, shape (n, L)
        The maps.
    lateral : ndarray of float32, shape (n,)
        The chosen offsets, metres.
    target : ndarray of float32, shape (n, 2)
        The track points aimed at, metres.
    strength : ndarray of float32, shape (n,)
        The decisions' strengths.
    blocked : ndarray of bool, shape (n,)
        Whether every lane was masked.

    Examples
    --------
    >>> import contextsteer as cs
    >>> lanes = cs.RacingLanes(cs.Track([[0.0, 0.0], [20.0, 0.0]], 3.0), lanes=5, lookahead=8.0)
    >>> maps = lanes.lane_maps([[2.0, 0.0], [6.0, 0.0]])
    >>> maps.interest.shape, maps.lateral.round(2) + 0.0  # the car behind pulls out
    ((2, 5), array([-2.4,  0. ], dtype=float32))
    """

    interest: np.ndarray
    danger: np.ndarray
    final: np.ndarray
    lateral: np.ndarray
    target: np.ndarray
    strength: np.ndarray
    blocked: np.ndarray


class RacingLanes(Behavior, core=_core.RacingLanes):
    """A context map of lateral offsets across the track ``lookahead`` metres ahead.

    Lane ``j`` of ``lanes`` has its centre at ``e_j = -w + (j + 0.5) * 2w / lanes`` (``w``
    the half-width). Interest ``max(0, 1 - |e_j - racing line| / line_width)`` peaks on the
    racing line ahead; every other car ``ds`` metres ahead (``0 < ds <= lookahead``) puts
    ``falloff(ds / lookahead)`` on the lanes its body (plus this car's) spans. The lanes
    resolve by subtract, the best lane and the parabola through its neighbors into a
    lateral target; the behaviour then fills the pipeline's interest toward that point
    of the track, so it composes with Avoid and the others. Cars sense each other
    through the world's grid, on the layers they sense.

    line_width: metres over which interest falls to 0 away from the line (unset, None:
    the whole width of the track, so the line is a gentle preference that a car ahead
    easily outweighs, and cars pull out to overtake rather than queue).

    window: in a world each car's arc length is kept from step to step and sought along
    the next ``window`` metres of track only, so a track that crosses itself (a figure of
    eight) is driven in order. It must exceed what a car travels in one step (a world's
    step raises ValueError, naming dt, when ``max_speed * dt`` reaches it). Other cars,
    :meth:`lane_maps` and a car's first step locate on the whole track.

    Parameters
    ----------
    track : Track
        The track.

    Examples
    --------
    >>> import contextsteer as cs
    >>> cs.RacingLanes(cs.Track([[0.0, 0.0], [20.0, 0.0]], 3.0), lanes=5, lookahead=8.0)
    RacingLanes(Track([[0, 0], [20, 0]], 3), lanes=5, lookahead=8)
    """

    _core: _core.RacingLanes

    def __init__(self, track: Track, **parameters: Any) -> None:
        if not isinstance(track, Track):
            raise TypeError(f"track: expected a contextsteer.Track, got {type(track).__name__}")
        self.track = track
        self._core = _core.RacingLanes(track._core, self._params(parameters))

    def lane_maps(self, positions, *, radius=0.5) -> LaneMaps:
        """The lane maps and decisions of cars, each seeing the others.

        The same maps as each car gets in a world's first step, in about ``n log n`` time
        however densely the cars crowd the track: for each lane, a car reads the cars along
        the track from its own place and stops at the first that puts danger there (with
        the ``smoothstep`` and ``exponential`` falloffs, at the lookahead).

        Parameters
        ----------
        positions : array_like, shape (n, 2)
            Metres.
        radius : float or array_like, shape (n,), default 0.5
            Metres.

        Returns
        -------
        LaneMaps
            The maps and decisions.

        Examples
        --------
        >>> import contextsteer as cs
        >>> lanes = cs.RacingLanes(cs.Track([[0.0, 0.0], [20.0, 0.0]], 3.0), lanes=5)
        >>> lanes.lane_maps([[2.0, 0.0]]).blocked
        array([False])
        """
        pos = check.shaped("positions", positions, (None, 2))
        out = self._core.lane_maps(pos, check.per_agent("radius", radius, len(pos)))
        return LaneMaps(**out)
