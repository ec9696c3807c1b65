"""The ``run`` and ``live`` commands: a scenario file run to its metrics, a video and a
recording, or animated in a window that follows the file's every save."""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import math
import sys
from pathlib import Path

import numpy as np

RECORD_SUFFIXES = (".parquet", ".npz")
MOST_STEPS = 2**31 - 1  # a world's step count in one call
MOST_THREADS = 1024
LEAST_FPS, MOST_FPS = 0.01, 1000.0  # frames a second of a video
MOST_EVERY = 10_000  # live: steps per frame, each frame drawn as they end
# The packages an output needs, by the file's suffix: (option, suffix) -> (module, what pip
# installs, the extra that brings it or None for contextsteer's own dependencies).
# pyarrow before pandas, which imports it if it can (a broken one breaks pandas's import).
NEEDS = {("--record", ".parquet"): (("pyarrow", "pyarrow", "cli"), ("pyarrow.parquet", "pyarrow", "cli"),
                                    ("pandas", "pandas", None)),
         ("--video", ".mp4"): (("matplotlib.pyplot", "matplotlib", None), ("imageio_ffmpeg", "imageio-ffmpeg", "cli")),
         ("--video", ".gif"): (("matplotlib.pyplot", "matplotlib", None), ("PIL.Image", "pillow", None))}
RUN_NEEDS = (("tqdm.auto", "tqdm", None),)  # the progress bar of every run
LIVE_NEEDS = (("matplotlib.pyplot", "matplotlib", None),)  # the window
WATCH_NEEDS = (("watchfiles", "watchfiles", "cli"),)  # the live window follows the file's saves


def unimportable(needs, what: str) -> str | None:
    """The one-line message of the first of ``needs`` ((module, pip name, extra) each) that
    cannot be imported, for any reason (not installed, or broken: an ImportError, or any
    other exception its import raises, such as a NumPy ABI mismatch), else None. Imported
    here, before a run, so that a run fails at once rather than after its simulation."""
    for module, package, extra in needs:
        try:
            importlib.import_module(module)
        except Exception as error:  # noqa: BLE001 - whatever a broken package raises on import
            reason = " ".join(str(error).split())[:160] or "no message"
            install = (f"install the {extra} extra (pip install \".[{extra}]\" in a checkout of contextsteer, or pip "
                       f"install {package})"
                       if extra else f"reinstall it (pip install --force-reinstall {package})")
            kind = "is not installed" if isinstance(error, ModuleNotFoundError) and error.name in (
                module, module.split(".")[0]) else f"cannot be imported ({type(error).__name__}: {reason})"
            return f"{what}: needs {package}, which {kind}; {install}"
    return None


def missing_package(option: str, path: str | None) -> str | None:
    """The one-line message of an output ``path`` (given to ``option``) whose packages
    cannot be imported (:func:`unimportable`), else None."""
    if path is None:
        return None
    return unimportable(NEEDS.get((option, Path(path).suffix.lower()), ()), f"{option} {path}")


def print_metrics(table: dict) -> None:
    """The measures of :func:`~contextsteer.metrics.crowd_metrics`, one a line with its unit
    (the share arrived as a percentage; n/a for a measure the run cannot tell)."""
    from ..analysis.metrics.crowd import UNITS

    for name, value in table.items():
        unit = UNITS.get(name, "")
        if unit == "share of agents":
            value, unit = 100.0 * value, "% of agents"
        shown = f"{value:>10.4g} {unit}" if math.isfinite(value) else f"{'n/a':>10}"  # e.g. no 3 s to judge
        print(f"  {name:<28}{shown}".rstrip())


def builtin_list() -> str:
    """The built-in scenes' names, for the help."""
    from ..scenes.scenario_file import builtin_names

    return ", ".join(builtin_names())


def scenario_path(text: str) -> Path:
    """A scenario file, or the name of a built-in scene (its file in the package)."""
    from ..scenes.scenario_file import builtin_names, builtin_path

    path = Path(text)
    if not path.exists() and text in builtin_names():
        return builtin_path(text)
    return path


def add_commands(commands) -> None:
    run = commands.add_parser("run", help="run a scenario file and print its metrics",
                              description="Run a scenario file (or a built-in scene by name) and print its metrics.")
    run.add_argument("scene", help=f"the scenario file (TOML), or the name of a built-in scene: {builtin_list()}")
    length = run.add_mutually_exclusive_group()
    length.add_argument("--steps", type=int, help="steps to run (default: the file's [run] steps)")
    length.add_argument("--duration", type=float, help="seconds to run (default: the file's)")
    run.add_argument("--video", help="write an animation of the run: a .mp4 or .gif file")
    run.add_argument("--record", help="write the trajectories: a .parquet or .npz file")
    run.add_argument("--watch", type=int, default=0, help="the agent (row) whose maps the video shows (default: 0)")
    run.add_argument("--fps", type=float, default=20.0, help="frames per second of the video (default: 20)")
    run.add_argument("--speed", type=float, default=1.0,
                     help="simulated seconds per second of video (default: 1, real time)")
    run.add_argument("--threads", type=int, default=1, help="worker threads (results are the same for any)")
    run.add_argument("--quiet", action="store_true", help="no progress bar")
    live = commands.add_parser("live", help="animate a scenario file in a window, reloaded on every save",
                               description="Animate a scenario file in a window; each save of the file changes the "
                                           "parameters at the next step (or restarts, for new geometry or agents).")
    live.add_argument("scene", help=f"the scenario file (TOML), or the name of a built-in scene: {builtin_list()}")
    live.add_argument("--every", type=int, default=1, help="steps per frame (default: 1)")


def _fail(parser, message: str) -> int:
    """``message`` as the one line of a user error, as argparse writes its own (exit code 2)."""
    print(f"{parser.prog}: error: {message}", file=sys.stderr)
    return 2


def positive_number(option: str, value: float, least: float = 0.0, most: float = math.inf) -> str | None:
    """The message of a bad ``option``: not a finite number above 0, from ``least`` (when
    above 0) and at most ``most``."""
    if not (math.isfinite(value) and value > 0 and least <= value <= most):
        low = f"from {least:g}" if least > 0 else "above 0"
        limit = f" to {most:g}" if math.isfinite(most) else ""
        return f"{option}: expected a finite number {low}{limit}, got {value}"
    return None


def count_within(option: str, value: int, lowest: int, most: int) -> str | None:
    """The message of a bad ``option``: not an integer from ``lowest`` to ``most``."""
    if not lowest <= value <= most:
        return f"{option}: expected an integer from {lowest} to {most}, got {value}"
    return None


def unwritable(option: str, text: str) -> str | None:
    """The message of an ``option`` path that cannot be written, found by opening it for
    writing (and removing it again when it was not there): checked before a run."""
    path = Path(text)
    if path.is_dir():
        return f"{option}: cannot write {text}: it is a directory"
    existed = path.exists()
    try:
        with open(path, "ab"):
            pass
    except OSError as error:
        return f"{option}: cannot write {text}: {error.strerror or error}"
    if not existed:
        path.unlink(missing_ok=True)
    return None


def unreadable_scene(text: str, error: OSError) -> str:
    """The message of a scene that names no readable file nor a built-in scene."""
    from ..scenes.scenario_file import builtin_names

    if isinstance(error, FileNotFoundError):
        return f"{text}: no such file, nor a built-in scene (one of {', '.join(builtin_names())})"
    return f"{text}: cannot read it: {error.strerror or error}"


def memory_needed(option: str, needed: int, what: str, advice: str) -> str | None:
    """The message when ``needed`` bytes are more than this machine has available."""
    from ..model.recording import available_bytes

    available = available_bytes()
    if available is not None and needed > available:
        return (f"{option}: {what} would need {needed / 1e9:.3g} GB, more than the {available / 1e9:.3g} GB this "
                f"machine has available; {advice}")
    return None


def _option_errors(args) -> str | None:
    """The first bad number or path of ``run``'s options, before anything is read or run."""
    checks = [lambda: count_within("--steps", args.steps, 1, MOST_STEPS) if args.steps is not None else None,
              lambda: positive_number("--duration", args.duration) if args.duration is not None else None,
              lambda: positive_number("--fps", args.fps, LEAST_FPS, MOST_FPS),
              lambda: positive_number("--speed", args.speed),
              lambda: count_within("--threads", args.threads, 1, MOST_THREADS),
              lambda: count_within("--watch", args.watch, 0, MOST_STEPS)]
    if args.video is not None and Path(args.video).suffix.lower() not in (".mp4", ".gif"):
        return f"--video: expected a file ending in .mp4 or .gif, got {args.video!r}"
    if args.record is not None and Path(args.record).suffix.lower() not in RECORD_SUFFIXES:
        return f"--record: expected a file ending in .parquet or .npz, got {args.record!r}"
    checks += [lambda: unwritable("--video", args.video) if args.video else None,
               lambda: unwritable("--record", args.record) if args.record else None]
    return next((message for check in checks if (message := check()) is not None), None)


def _run_memory(args, world, settings, steps: int, every: int) -> str | None:
    """The message when the run's recording (its parts, then the whole they are joined
    into) and its video's frames would not fit in this machine's memory."""
    from ..analysis.video import WIDTH
    from ..model.recording import bytes_per_step

    names = tuple(dict.fromkeys(("positions", *settings.record_names)))
    needed = 2 * (steps + 1) * bytes_per_step(names, len(world), world.slots, world.moving_count)
    if args.video:
        frames = steps // every + 1
        # A frame keeps the positions and the watched maps; a GIF holds every picture (at most
        # WIDTH x WIDTH x 3 bytes) until it is written.
        picture = WIDTH * WIDTH * 3 if args.video.lower().endswith(".gif") else 0
        needed += frames * (8 * len(world) + 12 * world.slots + 64 + picture)
    option = "--steps" if args.steps is not None else "--duration" if args.duration is not None else args.scene
    return memory_needed(option, needed, f"a run of {steps} steps of {len(world)} agents",
                         "run fewer steps, record less ([run] record) or make a shorter video")


def _frame_every(args, settings, steps: int) -> int:
    """Steps between the video's frames (--speed simulated seconds per second of video at
    --fps frames a second), or between the progress bar's updates without a video."""
    if not args.video:
        return max(1, steps // 100)
    ratio = args.speed / (args.fps * settings.dt)
    return steps if not ratio < steps else max(1, round(ratio))


def run_command(args, parser) -> int:
    from ..analysis import metrics
    from ..scenes.scenario_file import RunSettings, ScenarioFileError, load

    message = _option_errors(args)
    if message is not None:
        return _fail(parser, message)
    for option, path in (("--record", args.record), ("--video", args.video)):
        if (missing := missing_package(option, path)) is not None:
            return _fail(parser, missing)
    if (missing := unimportable(RUN_NEEDS, "run")) is not None:
        return _fail(parser, missing)
    try:
        scenario = load(scenario_path(args.scene))
        if scenario.steering is None:
            return _fail(parser, f"{args.scene}: the scenario has no pipeline to steer its agents")
        settings = scenario.run or RunSettings()
        world = scenario.world(threads=args.threads)
    except OSError as error:
        return _fail(parser, unreadable_scene(args.scene, error))
    except (ScenarioFileError, ValueError, TypeError) as error:
        return _fail(parser, str(error))
    steps = _steps(args, settings)
    if isinstance(steps, str):
        return _fail(parser, steps)
    if not 0 <= args.watch < len(world):
        return _fail(parser, f"--watch: expected an agent row from 0 to {len(world) - 1}, got {args.watch}")
    every = _frame_every(args, settings, steps)
    message = _run_memory(args, world, settings, steps, every)
    if message is not None:
        return _fail(parser, message)
    # One bar over the steps and then the video's frames, drawn before the report is printed.
    bar = progress(steps + (-(-steps // every) if args.video else 0), args)
    try:
        recording, frames = _run(world, settings, steps, every, args, bar)
        count = _write_video(args, scenario, frames, world.radius, bar) if args.video and frames else 0
    except OSError as error:  # the disk filled, or the path went away during the run
        return _fail(parser, f"cannot write {error.filename or 'the output'}: {error.strerror or error}")
    finally:
        bar.close()
    taken = recording.steps_run
    if not recording.complete:
        print(f"interrupted: {taken} of {steps} steps ran", file=sys.stderr)
    trajectory = recording.positions.astype(np.float64)
    table = metrics.crowd_metrics(trajectory, dt=settings.dt, radius=world.radius, max_speed=world.max_speed,
                                  targets=scenario.targets, segments=scenario.segments,
                                  polygons=list(scenario.polygons), within=settings.within)
    print(f"{scenario.name}: {taken} steps of {settings.dt:g} s, {len(world)} agents")
    print_metrics(table)
    try:
        if args.record:
            if recording.scene is not None:  # the world's scene, with the file's name and run
                recording.scene = dataclasses.replace(recording.scene, name=scenario.name, run=settings)
            if args.record.lower().endswith(".npz"):
                recording.save(args.record)
            else:
                recording.to_parquet(args.record)
            print(f"recording written to {args.record}")
        if count:
            print(f"video of {count} frames written to {args.video}")
    except OSError as error:  # the disk filled, or the path went away during the run
        return _fail(parser, f"cannot write {error.filename or 'the output'}: {error.strerror or error}")
    return 0 if recording.complete else 130


def _steps(args, settings) -> int | str:
    """The steps to run (--steps, --duration in steps of the file's dt, or the file's), or
    the message of a --duration of more than MOST_STEPS steps."""
    if args.steps is not None:
        return args.steps
    if args.duration is not None:
        steps = args.duration / settings.dt
        if not steps <= MOST_STEPS:
            return (f"--duration: expected at most {MOST_STEPS} steps of {settings.dt:g} s, got {args.duration:g} s "
                    f"({steps:.3g} steps)")
        return max(1, round(steps))
    return settings.steps


def progress(total: int, args):
    """The command's progress bar on stderr (none with --quiet): ``total`` steps and frames."""
    from tqdm.auto import tqdm

    return tqdm(total=total, unit="step", disable=args.quiet or None, file=sys.stderr,
                desc="simulating and drawing" if args.video else "simulating")


def _write_video(args, scenario, frames: list, radius, bar) -> int:
    """Draws ``frames`` and writes them to ``args.video``, the bar counting each; returns how many."""
    from ..analysis import video

    def counted(images):
        for image in images:
            bar.update(1)
            yield image

    return video.write(args.video, counted(video.render(scenario, frames, watch=args.watch, radius=radius)),
                       args.fps)


def _run(world, settings, steps: int, every: int, args, bar):
    """The run, ``every`` steps per call, a frame after each when a video is wanted, counted on
    ``bar``; Ctrl-C keeps what finished. Returns the recording and the frames."""
    from ..analysis.video import frame_of
    from ..model.recording import Recording

    names = tuple(dict.fromkeys(("positions", *settings.record_names)))
    parts: list = []
    frames: list = []
    first = world.steps_taken
    try:
        while (done := world.steps_taken - first) < steps:
            part = world.run(min(every, steps - done), settings.dt, substeps=settings.substeps, record=names,
                             include_start=not parts)  # the start's row once, first
            parts.append(part)
            bar.update(world.steps_taken - first - done)
            if world.steps_taken - first > done and args.video:
                frames.append(frame_of(world, float(world.time), args.watch))
            if not part.complete:
                break
    except KeyboardInterrupt:
        pass
    if not parts:
        start = world.run(0, settings.dt, record=names)  # the start's row alone
        start.complete = False
        return start, frames
    recording = Recording.joined(parts)
    recording.complete = world.steps_taken - first == steps
    return recording, frames


def live_command(args, parser) -> int:
    from ..scenes.scenario_file import ScenarioFileError
    from .live import LiveRun, has_display, show

    message = count_within("--every", args.every, 1, MOST_EVERY)
    if message is not None:
        return _fail(parser, message)
    if (missing := unimportable(LIVE_NEEDS, "live")) is not None:
        return _fail(parser, missing)
    display = has_display()
    if display and (missing := unimportable(WATCH_NEEDS, "live")) is not None:  # it follows the file's saves
        return _fail(parser, missing)
    try:  # the file's own errors first; the watcher starts only where there is a display
        live = LiveRun(scenario_path(args.scene), every=args.every, watch=display)
    except OSError as error:
        return _fail(parser, unreadable_scene(args.scene, error))
    except (ScenarioFileError, ValueError, TypeError) as error:
        return _fail(parser, str(error))
    if not display:
        return _fail(parser, "no display to open a window on (matplotlib found none); run it on a desktop, "
                             "or write a video: contextsteer run SCENE --video run.mp4")
    with live:
        show(live)
    return 0


def dispatch(args, parser: argparse.ArgumentParser) -> int:
    """Runs ``args.command`` (``run`` or ``live``) of the parser made with :func:`add_commands`;
    user errors are named as the command's own parser names them."""
    command = run_command if args.command == "run" else live_command
    return command(args, argparse.ArgumentParser(prog=f"{parser.prog} {args.command}"))
