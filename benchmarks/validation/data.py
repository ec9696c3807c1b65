"""The human experiments the validation suite compares the crowd steering with, and the
tolerances of issue 61.

Bottleneck flows (persons per second through an exit of width ``w``), as JuPedSim keeps
them in its validation test 13 (``systemtest/Validation/test_13/experiments``):

- Seyfried et al. 2009, "New insights into pedestrian flow through bottlenecks",
  Transportation Science 43(3): 395-406 (``2009Seyfried.txt``);
- Kretz et al. 2006, "Experimental study of pedestrian flow through a bottleneck",
  J. Stat. Mech. P10014 (``2006Kretz.txt``; several runs at one width);
- Liddle et al. 2011, "Microscopic insights into pedestrian motion through a bottleneck,
  resolving spatial and temporal variations", arXiv:1105.1532: the 2006 Jülich bottleneck
  runs of widths 0.9 to 2.5 m (``2006EG.txt``).

The corridors' point clouds (density, speed) are in ``data/`` beside this module, each
file's header naming its paper: Zhang et al. 2011 (one-way, 3.0 m) and Zhang et al. 2012
(two-way, 3.6 m).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

DATA = Path(__file__).resolve().parent / "data"

# width (m) -> flows (1/s), every run the paper reports at that width
SEYFRIED_2009 = {0.8: [1.288], 0.9: [1.674], 1.0: [1.900], 1.1: [2.123], 1.2: [2.364]}
KRETZ_2006 = {0.4: [0.879, 0.899], 0.5: [1.007, 1.036], 0.6: [1.124], 0.7: [1.222, 1.251],
              0.8: [1.388, 1.417, 1.456], 0.9: [1.534, 1.583, 1.632], 1.0: [1.710, 1.808, 1.876, 2.023],
              1.2: [2.033, 2.111, 2.287]}
LIDDLE_2011 = {0.9: [1.593], 1.0: [1.832], 1.1: [1.988], 1.2: [2.312], 1.4: [2.706], 1.6: [2.842], 1.8: [3.551],
               2.0: [3.549], 2.2: [4.063], 2.5: [5.116]}
BOTTLENECK_DATA = {"Seyfried et al. 2009": SEYFRIED_2009, "Kretz et al. 2006": KRETZ_2006,
                   "Liddle et al. 2011": LIDDLE_2011}

FLOW_TOLERANCE = 0.5  # persons/s: the model's flow against the experiments' mean at each width
SPEED_TOLERANCE = 0.15  # m/s: the model's speed against Weidmann's at each density

# Free speed (m/s) and the density of a standing jam (1/m^2) of Weidmann's fit.
WEIDMANN_FREE_SPEED = 1.34
WEIDMANN_JAM_DENSITY = 5.4
WEIDMANN_GAMMA = 1.913  # 1/m^2


def weidmann_speed(density) -> np.ndarray:
    """Weidmann 1993 (Transporttechnik der Fussgaenger, ETH Zurich, Schriftenreihe IVT 90):
    the speed (m/s) of a crowd of ``density`` persons per m^2, walking one way,
    ``1.34 (1 - exp(-1.913 (1/rho - 1/5.4)))``, 0 at and above 5.4 /m^2."""
    rho = np.asarray(density, dtype=float)
    with np.errstate(divide="ignore"):
        v = WEIDMANN_FREE_SPEED * (1 - np.exp(-WEIDMANN_GAMMA * (1 / rho - 1 / WEIDMANN_JAM_DENSITY)))
    return np.clip(v, 0.0, None)


def experiment_flow(width: float) -> float | None:
    """The mean flow (1/s) of every experiment's runs at ``width`` metres (each paper's runs
    averaged first, then the papers), or None where none measured that width."""
    means = [np.mean(runs[w]) for runs in BOTTLENECK_DATA.values() for w in runs if abs(w - width) < 1e-9]
    return float(np.mean(means)) if means else None


def corridor_points(name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(run, density, speed)`` of a corridor data file (``"zhang2011_uo"`` or
    ``"zhang2012_bo"``): the run names and their density (1/m^2) and speed (m/s) rows."""
    rows = [line.split() for line in (DATA / f"{name}.txt").read_text().splitlines()
            if line.strip() and not line.startswith("#")]
    run = np.array([r[0] for r in rows])
    values = np.array([[float(r[1]), float(r[2])] for r in rows])
    return run, values[:, 0], values[:, 1]
