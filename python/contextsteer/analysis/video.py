"""Videos of a run: the scene with its agents and their paths, beside one agent's context
maps, frame by frame, written to MP4 (with the ffmpeg of ``imageio-ffmpeg``, installed by
pip) or GIF (with Pillow, which matplotlib brings)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .._internal import validation as check

SUFFIXES = (".mp4", ".gif")
WIDTH = 1280  # pixels of a frame; its height follows the scene's proportions, a multiple of 16


@dataclass(frozen=True)
class Frame:
    """What one frame shows: ``(n, 2)`` positions (metres) at ``time`` seconds, the
    watched agent's ``(S,)`` interest, danger and final maps, ``(2,)`` direction and
    strength, and the moving obstacles' shapes (:meth:`World.moving_shapes
    <contextsteer.World.moving_shapes>`)."""

    time: float
    positions: np.ndarray
    interest: np.ndarray
    danger: np.ndarray
    final: np.ndarray
    direction: np.ndarray
    strength: float
    moving: tuple = ()


def frame_of(world, time: float, watch: int) -> Frame:
    """The frame of ``world`` as it stands, watching the agent of row ``watch``."""
    return Frame(time, world.positions.copy(), world.interest[watch].copy(), world.danger[watch].copy(),
                 world.final[watch].copy(), world.direction[watch].copy(), float(world.strength[watch]),
                 tuple(world.moving_shapes()) if world.moving_count else ())


class MapsPanel:
    """The watched agent's interest, danger and final maps on the polar axis ``polar``,
    with its chosen direction as an arrow whose length is its strength (capped at 1) times
    the radial scale ``top``: drawn once by :func:`~contextsteer.plotting.plot_context_maps`,
    then :meth:`show` changes only their data, frame by frame (the video's and the live
    view's panel).

    :meth:`show` raises the scale to the frame's largest value when it grows past ``top``
    (a video passes the largest of all its frames, so its scale stays fixed)."""

    MAPS = ("interest", "danger", "final")

    def __init__(self, polar, frame: Frame, *, watch: int, top: float = 1.0):
        from .plotting import plot_context_maps

        self.polar: Any = polar  # PolarAxes
        self.top = max(float(top), self.top_of(frame))
        plot_context_maps({name: getattr(frame, name) for name in self.MAPS}, polar,
                          direction=frame.direction if np.any(frame.direction) else [1.0, 0.0], strength=1.0)
        polar.set_rlim(0.0, self.top)
        self.curves = list(polar.lines)[:len(self.MAPS)]
        self.arrow: Any = next(a for a in polar.texts if hasattr(a, "arrow_patch"))  # an Annotation
        self.legend = polar.get_legend()
        self.strength_text = self.legend.get_texts()[len(self.MAPS)]
        polar.set_title(f"agent {watch}", fontsize="small", pad=16)
        self.show(frame)

    @classmethod
    def top_of(cls, frame: Frame) -> float:
        """The radial scale ``frame`` needs: its largest map value, at least 1."""
        return max(1.0, *(float(np.max(getattr(frame, name), initial=0.0)) for name in cls.MAPS))

    @property
    def artists(self) -> list:
        """What :meth:`show` changes: the three curves, the arrow and the legend."""
        return [*self.curves, self.arrow, self.legend]

    def show(self, frame: Frame) -> list:
        """Draws ``frame``'s maps and direction; returns :attr:`artists`."""
        top = self.top_of(frame)
        if top > self.top:
            self.top = top
            self.polar.set_rlim(0.0, top)
        for curve, name in zip(self.curves, self.MAPS):
            values = getattr(frame, name)
            curve.set_ydata(np.maximum(0.0, np.append(values, values[0])))
        share = min(frame.strength, 1.0)
        self.arrow.set_visible(share > 0.0 and bool(np.any(frame.direction)))
        self.arrow.xy = (float(np.arctan2(frame.direction[1], frame.direction[0])), self.top * share)
        self.strength_text.set_text(f"chosen direction, strength {frame.strength:.2g}")
        return self.artists


def check_path(path: str | os.PathLike) -> Path:
    """``path`` as a Path, ValueError when its suffix is not one this module writes."""
    path = Path(path)
    if path.suffix.lower() not in SUFFIXES:
        raise ValueError(f"video: expected a file ending in {' or '.join(SUFFIXES)}, got {str(path)!r}")
    return path


def render(scenario, frames: list[Frame], *, watch: int, radius) -> Iterator[np.ndarray]:
    """``(height, WIDTH, 3)`` uint8 images, one per frame: the scene (circles, walls,
    polygons, targets, the moving obstacles where they stand), every agent as a disc of
    ``radius`` metres (a number or ``(n,)``) with its path so far, the watched one (row
    ``watch``) in red, and its maps."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt
    from matplotlib.collections import EllipseCollection, LineCollection

    from .plotting import plot_moving_obstacles, plot_scenario

    x0, y0, x1, y1 = scenario.bounds
    height = min(max(9.0 * (y1 - y0) / (x1 - x0), 3.0), 7.0) + 0.8
    pixels = 16 * round(height * WIDTH / 13.0 / 16)
    fig = plt.figure(figsize=(13.0, pixels * 13.0 / WIDTH), dpi=WIDTH / 13.0, layout="constrained")
    try:
        grid = fig.add_gridspec(1, 2, width_ratios=(9.0, 3.5))
        ax = fig.add_subplot(grid[0, 0])
        plot_scenario(scenario, ax)
        n = len(frames[0].positions)
        radii = np.broadcast_to(np.asarray(radius, dtype=np.float64), (n,))
        colours = np.tile([[0.12, 0.47, 0.71, 1.0]], (n, 1))
        colours[watch] = [0.84, 0.15, 0.16, 1.0]
        paths = LineCollection([], colors=colours, linewidths=0.6, alpha=0.5)
        ax.add_collection(paths)
        discs = EllipseCollection(2 * radii, 2 * radii, np.zeros(n), units="xy", offsets=frames[0].positions,
                                  offset_transform=ax.transData, facecolors=colours, edgecolors="0.2",
                                  linewidths=0.4)
        ax.add_collection(discs)
        ax.set_xlim(x0, x1)
        ax.set_ylim(y0, y1)
        ax.set_aspect("equal")
        ax.set_xlabel("x (m)")
        ax.set_ylabel("y (m)")
        polar = fig.add_subplot(grid[0, 1], projection="polar")
        trail = np.stack([f.positions for f in frames])
        # The maps on one radial scale for the whole video (the largest value of any frame).
        top = max(MapsPanel.top_of(f) for f in frames)
        panel = MapsPanel(polar, frames[0], watch=watch, top=top)
        title = ax.set_title(f"{scenario.name}: t = {frames[-1].time:.2f} s")
        # Blitting: what changes is drawn anew on each frame over the rest, drawn once (the
        # axes, ticks and fixed scene), laid out once for the longest title.
        moving_parts = [(ax, [paths, discs, title]), (polar, panel.artists)]
        for _, parts in moving_parts:
            for artist in parts:
                artist.set_animated(True)
        fig.canvas.draw()
        fig.set_layout_engine("none")
        background = fig.canvas.copy_from_bbox(fig.bbox)  # type: ignore[attr-defined]  # Agg's
        bodies: list = []
        for i, frame in enumerate(frames):
            for artist in bodies:
                artist.remove()
            bodies = plot_moving_obstacles(frame.moving, ax)
            discs.set_offsets(frame.positions)
            paths.set_segments(list(np.swapaxes(trail[:i + 1], 0, 1)) if i else [])
            title.set_text(f"{scenario.name}: t = {frame.time:.2f} s")
            panel.show(frame)
            fig.canvas.restore_region(background)  # type: ignore[attr-defined]
            for body in bodies:
                ax.draw_artist(body)
            for axis, parts in moving_parts:
                for artist in parts:
                    axis.draw_artist(artist)
            yield np.asarray(fig.canvas.buffer_rgba())[:, :, :3].copy()  # type: ignore[attr-defined]  # Agg's
    finally:
        plt.close(fig)


def write(path: str | os.PathLike, images: Iterator[np.ndarray], fps: float) -> int:
    """Writes ``images`` (equal ``(h, w, 3)`` uint8) to ``path``, ``fps`` frames per second:
    MP4 (H.264 through imageio-ffmpeg's ffmpeg) or GIF (Pillow); returns how many frames."""
    path = check_path(path)
    fps = check.number("fps", fps, above=0.0)
    if path.suffix.lower() == ".gif":
        from PIL import Image

        pictures = [Image.fromarray(image) for image in images]
        if not pictures:
            raise ValueError("images: expected at least one frame, got none")
        pictures[0].save(path, save_all=True, append_images=pictures[1:], duration=1000.0 / fps, loop=0)
        return len(pictures)
    try:
        import imageio_ffmpeg  # type: ignore[import-untyped]
    except ImportError as exc:
        raise ImportError("an MP4 video needs imageio-ffmpeg (pip install imageio-ffmpeg), or write a .gif") from exc
    writer, count = None, 0
    try:
        for image in images:
            if writer is None:
                height, width = image.shape[:2]
                writer = imageio_ffmpeg.write_frames(str(path), (width, height), fps=fps, macro_block_size=16,
                                                     pix_fmt_out="yuv420p")
                writer.send(None)  # starts ffmpeg
            writer.send(np.ascontiguousarray(image))
            count += 1
    finally:
        if writer is not None:
            writer.close()
    if count == 0:
        raise ValueError("images: expected at least one frame, got none")
    return count
