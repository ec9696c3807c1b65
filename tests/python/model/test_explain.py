"""World.explain: why a slot was chosen, every behaviour's own map is the one it
contributed, and an explanation's plot.

Each behaviour's own maps, combined by the pipeline's rules and weights, equal the merged
maps explain reports, in worlds of 1, 2, 3 and 1,000 agents (a few agents, and most of a
grid evaluated at once, take different paths through Avoid and the other neighbor
behaviours)."""

from __future__ import annotations

import numpy as np
import pytest
from behavior_maps import lobe
from placement import clear

import contextsteer as cs


def field() -> cs.NavigationField:
    return cs.NavigationField([[8.0, 0.0]], area=(-40.0, -40.0, 40.0, 40.0), cell=1.0, circles=[[4.0, 4.0, 1.0]])


BEHAVIORS = {
    "Chase": lambda: cs.Chase([[6.0, 1.0]], max_distance=30.0),
    "Chase(own)": lambda: cs.Chase(sideways=0.3),
    "Avoid(agents)": lambda: cs.Avoid(agents=True, max_distance=3.0),
    "Avoid(agents, circles)": lambda: cs.Avoid([[2.0, 1.0, 0.5]], agents=True, max_distance=3.0),
    "Avoid(scene)": lambda: cs.Avoid(max_distance=4.0),
    "Flee": lambda: cs.Flee([[1.0, 1.0]], radius=8.0),
    "Forward": lambda: cs.Forward(strength=0.7),
    "Pursue": lambda: cs.Pursue(),
    "Evade": lambda: cs.Evade(radius=6.0),
    "Arrive": lambda: cs.Arrive([[3.0, 0.0]], slowing_radius=8.0),
    "Leave": lambda: cs.Leave([[1.0, 0.0]]),
    "Separation": lambda: cs.Separation(radius=3.0),
    "Alignment": lambda: cs.Alignment(radius=4.0),
    "Cohesion": lambda: cs.Cohesion(radius=4.0),
    "Wander": lambda: cs.Wander(seed=3),
    "FollowField": lambda: cs.FollowField(field()),
    "FollowPath": lambda: cs.FollowPath([[0.0, 0.0], [10.0, 0.0], [10.0, 10.0]]),
    "Rays": lambda: cs.Rays(length=4.0),
    "TimeToCollision": lambda: cs.TimeToCollision(radius=6.0),
    "PythonBehavior": lambda: cs.PythonBehavior(lambda batch, interest, danger: danger.__setitem__(
        slice(None), np.abs(batch.slot_directions[:, 0])[None, :] * 0.5), fills="danger"),
}
SIZES = [1, 2, 3, 1000]
OBSTACLES = {"circles": [[3.0, -2.0, 1.0]], "segments": [[-5.0, 3.0, 5.0, 3.0]]}


def world_of(behavior, n: int) -> cs.World:
    rng = np.random.default_rng(n)
    if n <= 3:
        positions = np.array([[0.0, 0.0], [1.5, 0.0], [0.5, 1.2]])[:n]
    else:  # bodies (of radius 0.5) clear of the obstacles, at their starts and their targets
        drawn = rng.uniform(-15.0, 15.0, (2 * n, 2))
        both = clear(drawn, 0.5, **OBSTACLES) & clear(-drawn + 0.5, 0.5, **OBSTACLES)
        positions = drawn[both][:n]
    targets = -positions + 0.5
    pipeline = cs.Pipeline([cs.Chase(weight=0.8), behavior, cs.Avoid(agents=True, max_distance=2.0, weight=0.6)],
                           slots=16, danger_rule="max", interest_rule="sum")
    world = cs.World(pipeline, positions, targets=targets, **OBSTACLES, velocities=rng.normal(0.0, 0.5, (n, 2)))
    world.step(0.05)
    return world


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("name", BEHAVIORS)
def test_own_maps_combine_to_the_merged_maps(name, n):
    world = world_of(BEHAVIORS[name](), n)
    for agent in sorted({0, n // 2, n - 1}):
        e = world.explain(int(world.ids[agent]))
        for kind, merged, rule in (("interest", e.interest, "sum"), ("danger", e.danger, "max")):
            own = [(b.weight, values) for b, k, values in e.behaviors if k == kind]
            expected = (cs.combine([v for _, v in own], rule, np.array([w for w, _ in own]))
                        if own else np.zeros_like(merged))
            np.testing.assert_allclose(expected, merged, rtol=1e-5, atol=1e-6, err_msg=f"{name}, {kind}, agent {agent}")


def test_avoid_own_danger_in_a_world_of_two():
    p = cs.Pipeline([cs.Chase(), cs.Avoid(agents=True, max_distance=3.0)], slots=16)
    w = cs.World(p, [[0.0, 0.0], [1.5, 0.0]], targets=[[10.0, 0.0], [-10.0, 0.0]])
    w.step(0.05)
    e = w.explain(0)
    (avoid, kind, own), = [b for b in e.behaviors if b[1] == "danger"]
    assert own.max() > 0.5
    np.testing.assert_array_equal(own, e.danger)


def test_explain_shows_why_a_slot_was_chosen():
    chase, avoid = cs.Chase([10.0, 0.0]), cs.Avoid([[3.0, 0.0, 1.0]], max_distance=4.0)
    pipeline = cs.Pipeline([chase, avoid], slots=8, danger_mode="threshold", threshold=0.3)
    world = cs.World(pipeline, [[0.0, 0.0]], max_speed=1.0)
    world.step(0.01)
    e = world.explain(0)
    assert [(b, kind) for b, kind, _ in e.behaviors] == [(chase, "interest"), (avoid, "danger")]
    np.testing.assert_allclose(e.behaviors[0][2], lobe([1, 0]), atol=1e-6)
    assert e.danger[0] > 0.3 and e.masked[0] and not e.masked[4]  # east is masked by the obstacle
    assert e.slot != 0 and not e.blocked
    np.testing.assert_allclose(e.final, world.final[0], atol=1e-6)
    # Its repr is the decision and where each map peaks, not every number of every map.
    lines = repr(e).splitlines()
    assert lines[0].startswith("Explanation(agent 0: direction (") and lines[0].endswith(
        f"; {int(e.masked.sum())} of 8 slots masked")
    assert lines[1] == "  Chase([[10, 0]]) interest: peak 1 at slot 0"
    assert lines[2].startswith("  Avoid([[3, 0, 1]], max_distance=4) danger: peak ") and lines[2].endswith("at slot 0")
    classic_world = cs.World(cs.classic.Steering([cs.classic.Seek([1.0, 1.0])]), [[0.0, 0.0]])
    assert isinstance(classic_world.explain(0), cs.ClassicExplanation)  # outputs, no maps
    artists = e.plot()
    assert [a.get_label() for a in artists[:3]] == ["interest", "danger", "final"]


def test_an_explanation_plots_each_behaviours_map_beneath_the_merged_ones():
    import matplotlib.pyplot as plt
    from matplotlib.colors import to_rgba

    # Two behaviours of each kind, one of them twice: each map drawn as it was filled
    # (before weighting), broken, in its kind's colour, named by its class.
    avoid_circle, avoid_agents = cs.Avoid([[3.0, 0.0, 1.0]], max_distance=4.0), cs.Avoid(agents=True, weight=0.5)
    behaviours = [cs.Chase([10.0, 0.0]), cs.Forward(weight=0.5), avoid_circle, avoid_agents]
    world = cs.World(cs.Pipeline(behaviours, slots=16), [[0.0, 0.0], [0.0, 1.5]], max_speed=1.0)
    world.step(0.01)
    e = world.explain(0)
    artists = e.plot(behaviors=True)
    lines = [a for a in artists if hasattr(a, "get_ydata")]
    assert [line.get_label() for line in lines] == [
        "Chase (interest)", "Forward (interest)", "Avoid (danger)", "Avoid (danger) #2", "interest", "danger", "final"]
    for line, (_, kind, values) in zip(lines, e.behaviors):
        np.testing.assert_array_equal(line.get_ydata(), np.maximum(0, np.append(values, values[0])))
        assert to_rgba(line.get_color()) == to_rgba({"interest": "tab:green", "danger": "tab:red"}[kind])
        assert line.get_linestyle() != "-" and line.get_linewidth() < lines[-1].get_linewidth()
    assert lines[2].get_linestyle() != lines[3].get_linestyle()   # the two Avoids tell apart
    np.testing.assert_array_equal(lines[5].get_ydata()[:-1], np.maximum(0, e.danger))
    # The legend lists every map, the chosen direction with its strength and the masked
    # slots, beside the circle rather than over it.
    polar = lines[0].axes
    polar.figure.canvas.draw()
    legend = polar.get_legend()
    assert [t.get_text() for t in legend.get_texts()] == [line.get_label() for line in lines] + [
        f"chosen direction, strength {e.strength:.2g}", "masked slots"]
    assert legend.get_window_extent().x0 > polar.get_window_extent().x1
    plt.close(polar.figure)
    with pytest.raises(TypeError, match="behaviors"):
        e.plot(behaviors="yes")


PIPELINE = cs.Pipeline([cs.Chase([5.0, 0.0]), cs.Avoid()])


def test_explain_and_neighbors_refuse_bad_state_as_a_step_does():
    # explain once read an unknown target id written into the view past the end of the
    # id table (a crash), and neighbors failed on a NaN position with a vector's length error.
    world = cs.World(PIPELINE, [[0.0, 0.0], [1.0, 1.0]])
    world.target_ids[0] = 10**12
    with pytest.raises(IndexError, match="target_ids: .* got 1000000000000 for agent 0"):
        world.explain(0)
    world.target_ids[0] = -1
    world.positions[1, 0] = np.nan
    with pytest.raises(ValueError, match="positions: .* for agent 1"):
        world.neighbors([0.0, 0.0], 2.0)
    with pytest.raises(ValueError, match="positions: .* for agent 1"):
        world.explain(0)
    world.positions[1, 0] = 1.0
    assert world.neighbors([0.0, 0.0], 2.0).tolist() == [0, 1]
    # A classic agent's explanation reads the same state.
    classic_world = cs.World(cs.classic.Steering([cs.classic.Seek()]), [[0.0, 0.0], [1.0, 1.0]])
    classic_world.positions[1, 1] = np.inf
    with pytest.raises(ValueError, match="positions: .* for agent 1"):
        classic_world.explain(0)
