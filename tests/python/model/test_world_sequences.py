"""Random sequences of what users do to a world, run on one thread and on two at once.

Agents are added (in crowds, with random radii, layers and sense masks, some steered
classically), removed, moved by hand, reset; worlds step between. Whatever the sequence,
the twin worlds stay identical to the bit (the pair passes and the agent-by-agent
kernels give the same numbers whichever a world takes; FollowPath's progress, kept per
agent, goes through the same removals and resets), nothing is ever non-finite, speeds
stay within their limits, overlap is never negative, and ids keep naming the agents
they were given to.
"""

import numpy as np
import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

import contextsteer as cs
from contextsteer import classic

# Agents are added anywhere, the pillar included (and pushed out of it): the world names them.
pytestmark = pytest.mark.filterwarnings("ignore:World.*in an obstacle:UserWarning")

def make_pipeline():
    # FollowPath keeps each agent's progress between steps, through removals and resets.
    patrol = cs.FollowPath([[-20, -20], [20, -20], [20, 20], [-20, 20]], loop=True, weight=0.5)
    return cs.Pipeline([cs.Chase(), cs.Avoid(agents=True, max_distance=3.0), cs.Wander(seed=3, spread=0.5), patrol],
                       slots=16, select="blend")


class TwinWorlds(RuleBasedStateMachine):
    @initialize(seed=st.integers(0, 2**16))
    def start(self, seed):
        self.rng = np.random.default_rng(seed)
        pipeline = make_pipeline()
        self.rival = classic.Steering([classic.Arrive(), classic.LookWhereYouGo()])
        self.worlds = []
        for threads in (1, 2):
            w = cs.World(pipeline, bounds=(-40, -40, 40, 40), circles=[[0, 0, 3]])
            w.threads = threads
            self.worlds.append(w)
        self.ids = []

    def each(self, fn):
        return [fn(w) for w in self.worlds]

    @rule(n=st.integers(1, 60), crowded=st.booleans(), classic_share=st.sampled_from([0.0, 0.3]),
          layered=st.booleans())
    def add(self, n, crowded, classic_share, layered):
        spread = 6 if crowded else 35
        positions = self.rng.uniform(-spread, spread, (n, 2))
        targets = self.rng.uniform(-35, 35, (n, 2))
        radius = self.rng.uniform(0.2, 0.9, n)
        layers = self.rng.integers(1, 4, n) if layered else np.ones(n, np.int64)
        senses = self.rng.choice([1, 2, 3, cs.ALL_LAYERS], n) if layered else np.full(n, cs.ALL_LAYERS)
        steering = self.rival if self.rng.random() < classic_share else None
        got = self.each(lambda w: w.add_agents(positions, targets=targets, radius=radius, max_speed=2.0,
                                               max_acceleration=5.0, layers=layers, sense_masks=senses,
                                               steering=steering))
        np.testing.assert_array_equal(got[0], got[1])
        self.ids.extend(got[0].tolist())

    @rule(data=st.data())
    def remove(self, data):
        if not self.ids:
            return
        gone = data.draw(st.lists(st.sampled_from(self.ids), min_size=1, max_size=10, unique=True))
        self.each(lambda w: w.remove_agents(gone))
        self.ids = [i for i in self.ids if i not in gone]

    @rule(steps=st.integers(1, 4))
    def step(self, steps):
        self.each(lambda w: w.run(steps, 0.05, record=None))

    @rule()
    def move_one_by_hand(self):
        if not self.ids:
            return
        row = int(self.rng.integers(len(self.ids)))
        where = self.rng.uniform(-30, 30, 2)
        for w in self.worlds:
            w.positions[row] = where  # a write into the state view, seen by the next step

    @rule()
    def reset(self):
        self.each(lambda w: w.reset())

    @invariant()
    def twins_agree_and_hold_their_limits(self):
        if not hasattr(self, "worlds"):
            return
        a, b = self.worlds
        for name in ("positions", "velocities", "heading", "overlap", "penetration", "danger", "final"):
            np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)
        assert np.isfinite(a.positions).all() and np.isfinite(a.danger).all()
        assert (np.linalg.norm(a.velocities, axis=1) <= a.max_speed * (1 + 1e-5) + 1e-6).all()
        assert (a.overlap >= 0).all()
        assert a.ids.tolist() == self.ids


TwinWorlds.TestCase.settings = settings(max_examples=25, stateful_step_count=12, deadline=None)
test_world_sequences = TwinWorlds.TestCase
