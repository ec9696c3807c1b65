"""Why the exit flow is low at narrow exits: the bottleneck of bottleneck_flow.py run with the
crowd steering's pipeline built by hand, one part changed at a time.

The hand-built pipeline is the crowd steering's own (FollowField along the crowd's field,
Avoid of the walls, Anticipate of the agents, the same pipeline settings, goals and
contact; the first row checks that it gives the default's flows to the bit). Each other
row changes one thing: Anticipate's ``make_way``, ``responsibility`` or ``horizon``, the
contact stage's ``motion_share``, the goals' settling of face-offs, the pipeline's ``turn_back``, the field's
clearance, or the agents' radius. For each: the flow (mean over the seeds), the stalls
(gaps of more than 3 s between two crossings, summed over the seeds), the longest gap,
and when the last agent was out. ``--widths`` gives the exits (default 0.8 m alone).
"""

from __future__ import annotations

import bottleneck_flow
import data
import measures
import numpy as np
import report

import contextsteer as cs

STALL = 3.0  # seconds: a gap between two crossings longer than this is a stall
# The crowd steering's goals without its settling of face-offs (patience 3 s there).
NO_FACE_OFFS = cs.Goals(arrival="give_way")


def hand_world(room, *, make_way=None, responsibility=0.9, horizon=0.5, motion_share=0.5, goals=None,
               clearance=None, radius=bottleneck_flow.RADIUS, turn_back=0.5):
    """The crowd steering's world of ``room`` built by hand, with the parts given changed
    (``make_way`` None: the crowd steering's, from the exit's width; ``clearance`` None:
    the crowd's field)."""
    crowd = cs.crowd_steering(room, radius=bottleneck_flow.RADIUS)
    field = crowd.fields[0]
    if clearance is not None:
        field = cs.NavigationField(goal_areas=room.goal_areas, area=room.bounds, cell=field.cell,
                                   clearance=clearance, segments=room.segments)
    anticipate = crowd.pipeline.behaviors[2]
    pipeline = cs.Pipeline([
        cs.FollowField(field, sideways=0.5, to_target=True, slowing_radius=1.0),
        cs.Avoid(max_distance=0.5, wall_arc=1.0),
        cs.Anticipate(radius=3.0, horizon=horizon, keep_right=0.3,
                      make_way=anticipate.make_way if make_way is None else make_way,
                      responsibility=responsibility, arc_edges=True)],
        slots=16, select="blend", danger_mode="multiply", hysteresis=1.0, turn_back=turn_back, turn_back_wait=10.0)
    contact = cs.Contact(slop=1e-5, events=False, motion_share=motion_share)
    return room.world(pipeline, groups=crowd.groups, goals=crowd.goals if goals is None else goals, contact=contact,
                      radius=radius, max_speed=bottleneck_flow.FREE_SPEED, threads=1)


VARIANTS = {
    "crowd steering (default)": bottleneck_flow.default_world,
    "built by hand, as the default": hand_world,
    "make_way 0": lambda room: hand_world(room, make_way=0.0),
    "make_way 0.6": lambda room: hand_world(room, make_way=0.6),
    "responsibility 0.5": lambda room: hand_world(room, responsibility=0.5),
    "responsibility 1.0": lambda room: hand_world(room, responsibility=1.0),
    "motion_share 0": lambda room: hand_world(room, motion_share=0.0),
    "motion_share 1": lambda room: hand_world(room, motion_share=1.0),
    "turn_back 0": lambda room: hand_world(room, turn_back=0.0),
    "field clearance 0.15 m": lambda room: hand_world(room, clearance=0.15),
    "goals: no face-offs settled (patience inf)": lambda room: hand_world(room, goals=NO_FACE_OFFS),
    "no face-offs settled, make_way 0": lambda room: hand_world(room, goals=NO_FACE_OFFS, make_way=0.0),
    "no face-offs settled, make_way 0.6": lambda room: hand_world(room, goals=NO_FACE_OFFS, make_way=0.6),
    "radius 0.225 m": lambda room: hand_world(room, radius=0.225),
    "radius 0.2 m": lambda room: hand_world(room, radius=0.2),
}


SHOWN = ("crowd steering (default)", "goals: no face-offs settled (patience inf)", "radius 0.2 m")


def figure(width: float, rows: list, first_crossings: dict, reference: float | None):
    """Left: the agents out against time in the first seed's run of each of :data:`SHOWN`
    (a stall is a flat step). Right: each variant's flow beside the experiments' mean."""
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.6), gridspec_kw={"width_ratios": [1, 1.25]})
    for name, color in zip(SHOWN, ("#e7298a", "#1b9e77", "#7570b3")):
        if name in first_crossings:
            t = np.sort(first_crossings[name][np.isfinite(first_crossings[name])])
            left.step(t, np.arange(1, len(t) + 1), where="post", color=color, label=name)
    if reference is not None:
        left.plot([0, bottleneck_flow.AGENTS / reference], [0, bottleneck_flow.AGENTS], "k--", lw=1,
                  label=f"the experiments' {reference:.2f} /s")
    left.set_xlabel("time (s)")
    left.set_ylabel("agents out")
    left.set_title(f"Exit {width:g} m, seed {first_crossings.get('seed', 0)}", fontsize=10)
    left.legend(fontsize=8, frameon=False, loc="lower right")
    left.grid(alpha=0.3)
    names = [r[0] for r in rows][::-1]
    flows = [r[1] for r in rows][::-1]
    right.barh(names, flows, color=["#e7298a" if n.startswith("crowd") else "0.55" for n in names])
    if reference is not None:
        right.axvspan(reference - data.FLOW_TOLERANCE, reference + data.FLOW_TOLERANCE, color="0.88", zorder=0)
        right.axvline(reference, color="k", lw=1)
    right.set_xlabel("flow (persons/s), mean of the seeds; line and grey: the experiments' mean $\\pm$ 0.5")
    right.tick_params(axis="y", labelsize=8)
    right.grid(alpha=0.3, axis="x")
    right.set_title("One change at a time", fontsize=10)
    fig.tight_layout()
    return fig


def main(argv=None) -> int:
    p = report.parser(__doc__.split("\n\n")[0])
    p.add_argument("--widths", type=float, nargs="+", default=[0.8], help="exit widths, metres (default 0.8)")
    p.add_argument("--variants", nargs="+", choices=list(VARIANTS), metavar="NAME",
                   help=f"the rows to run (default: all): {', '.join(VARIANTS)}")
    p.add_argument("--time", type=float, default=300.0, help="seconds simulated at most per run (default 300)")
    args = p.parse_args(argv)
    seeds = report.seeds_of(args)
    for w in args.widths:
        print(f"\nexit {w:g} m: {bottleneck_flow.AGENTS} agents, seeds {' '.join(map(str, seeds))}; experiments' mean "
              f"{data.experiment_flow(w)} /s")
        rows, first_crossings = [], {"seed": seeds[0]}
        for name in args.variants or VARIANTS:
            flows, stalls, longest, last, inside = [], 0, 0.0, [], 0
            for seed in seeds:
                crossings, _ = bottleneck_flow.run(VARIANTS[name](bottleneck_flow.scene(w, seed=seed)), args.time)
                result = measures.exit_flow(crossings)
                first_crossings.setdefault(name, crossings)
                gaps = np.diff(np.sort(crossings[np.isfinite(crossings)]))
                flows.append(result.flow)
                stalls += int((gaps > STALL).sum())
                longest = max(longest, float(gaps.max(initial=0.0)))
                last.append(result.last)
                inside += result.agents - result.crossed
            rows.append([name, float(np.mean(flows)), f"{min(flows):.2f}-{max(flows):.2f}", stalls, longest,
                         f"{np.mean(last):.0f} s", inside])
            print(f"  {name}: {np.mean(flows):.2f} /s", flush=True)
        print(report.table(["variant", "flow (1/s)", "seeds' range", f"stalls > {STALL:g} s", "longest gap (s)",
                            "last out", "left inside (all seeds)"], rows))
        report.save(figure(w, rows, first_crossings, data.experiment_flow(w)), args.out,
                    f"bottleneck_variants_{w:g}m")
    return 0


if __name__ == "__main__":
    report.exit_with(main())
