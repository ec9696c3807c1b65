"""
C++ core of contextsteer. Use the contextsteer package, which checks inputs first.
"""
from __future__ import annotations
import collections.abc
import numpy
import numpy.typing
import typing
__all__: list[str] = ['AGENT_COLUMNS', 'Alignment', 'Anticipate', 'Arrive', 'Avoid', 'Behavior', 'CONTACT_FIELDS', 'Chase', 'ClassicBehavior', 'ClassicSteering', 'Cohesion', 'ContactParams', 'Evade', 'Flee', 'FollowField', 'FollowPath', 'Forward', 'GOAL_FIELDS', 'GoalParams', 'Leave', 'MAX_MAGNITUDE', 'MIN_MASS', 'MIN_TIME_STEP', 'NavigationField', 'Pipeline', 'Pursue', 'PythonBehavior', 'RacingLanes', 'Rays', 'Separation', 'TimeToCollision', 'Track', 'Wander', 'World', 'blur', 'combine', 'resample', 'resolve', 'slot_directions', 'smooth', 'try_combine', 'try_resolve', 'widest_way']
class NavigationField:
    @staticmethod
    def from_world(world: World, layers: typing.SupportsInt | typing.SupportsIndex, goals: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], goal_areas: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], area: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], cell: typing.SupportsFloat | typing.SupportsIndex, clearance: typing.SupportsFloat | typing.SupportsIndex, keep_right: typing.SupportsFloat | typing.SupportsIndex) -> NavigationField:
        ...
    def __getstate__(self) -> tuple:
        ...
    def __init__(self, goals: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], goal_areas: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], area: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], cell: typing.SupportsFloat | typing.SupportsIndex, clearance: typing.SupportsFloat | typing.SupportsIndex, keep_right: typing.SupportsFloat | typing.SupportsIndex, circles: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], segments: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], polygons: collections.abc.Sequence[typing.Annotated[numpy.typing.ArrayLike, numpy.float32]], bounds: typing.Annotated[numpy.typing.ArrayLike, numpy.float32] | None) -> None:
        ...
    def __setstate__(self, state: tuple) -> None:
        ...
    def direction_at(self, points: typing.Annotated[numpy.typing.ArrayLike, numpy.float32]) -> numpy.typing.NDArray[numpy.float32]:
        ...
    def distance_at(self, points: typing.Annotated[numpy.typing.ArrayLike, numpy.float32]) -> numpy.typing.NDArray[numpy.float32]:
        ...
    def path_from(self, start: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], step: typing.SupportsFloat | typing.SupportsIndex, max_length: typing.SupportsFloat | typing.SupportsIndex) -> numpy.typing.NDArray[numpy.float32]:
        ...
    @property
    def blocked(self) -> typing.Any:
        ...
    @property
    def cell(self) -> float:
        ...
    @property
    def clearance(self) -> float:
        ...
    @property
    def columns(self) -> int:
        ...
    @property
    def costs(self) -> numpy.ndarray:
        ...
    @property
    def directions(self) -> numpy.ndarray:
        ...
    @property
    def distances(self) -> numpy.ndarray:
        ...
    @property
    def goal_areas(self) -> numpy.typing.NDArray[numpy.float32]:
        ...
    @property
    def goals(self) -> numpy.typing.NDArray[numpy.float32]:
        ...
    @property
    def origin(self) -> tuple[float, float]:
        ...
    @property
    def rows(self) -> int:
        ...
class Behavior:
    @property
    def fills_danger(self) -> bool:
        ...
    @property
    def fills_interest(self) -> bool:
        ...
    @property
    def weight(self) -> float:
        ...
class Chase(Behavior):
    class Params:
        def __init__(self) -> None:
            ...
        @property
        def combine(self) -> typing.Any:
            """
            'max' goes for the best target, 'sum' for the centre between them
            """
        @combine.setter
        def combine(self, arg1: typing.Any) -> None:
            ...
        @property
        def falloff(self) -> typing.Any:
            """
            how strength fades with distance / max_distance
            """
        @falloff.setter
        def falloff(self, arg1: typing.Any) -> None:
            ...
        @property
        def max_distance(self) -> typing.Any:
            """
            farther targets are ignored; infinite by default
            """
        @max_distance.setter
        def max_distance(self, arg1: typing.Any) -> None:
            ...
        @property
        def sideways(self) -> typing.Any:
            """
            the lobe's share of its peak at right angles, in [0, 1)
            """
        @sideways.setter
        def sideways(self, arg1: typing.Any) -> None:
            ...
        @property
        def weight(self) -> typing.Any:
            """
            factor the pipeline's combine rule applies to this behaviour's maps
            """
        @weight.setter
        def weight(self, arg1: typing.Any) -> None:
            ...
    _fields: typing.ClassVar[list]
    def __init__(self, targets: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], agent_target: bool, params: Chase.Params) -> None:
        ...
    @property
    def combine(self) -> typing.Any:
        """
        'max' goes for the best target, 'sum' for the centre between them
        """
    @combine.setter
    def combine(self, arg1: typing.Any) -> None:
        ...
    @property
    def falloff(self) -> typing.Any:
        """
        how strength fades with distance / max_distance
        """
    @falloff.setter
    def falloff(self, arg1: typing.Any) -> None:
        ...
    @property
    def max_distance(self) -> typing.Any:
        """
        farther targets are ignored; infinite by default
        """
    @max_distance.setter
    def max_distance(self, arg1: typing.Any) -> None:
        ...
    @property
    def sideways(self) -> typing.Any:
        """
        the lobe's share of its peak at right angles, in [0, 1)
        """
    @sideways.setter
    def sideways(self, arg1: typing.Any) -> None:
        ...
    @property
    def targets(self) -> numpy.typing.NDArray[numpy.float32]:
        ...
    @targets.setter
    def targets(self, arg1: typing.Annotated[numpy.typing.ArrayLike, numpy.float32]) -> None:
        ...
    @property
    def weight(self) -> typing.Any:
        """
        factor the pipeline's combine rule applies to this behaviour's maps
        """
    @weight.setter
    def weight(self, arg1: typing.Any) -> None:
        ...
class Avoid(Behavior):
    class Params:
        def __init__(self) -> None:
            ...
        @property
        def agents(self) -> typing.Any:
            """
            also avoid the other agents it senses
            """
        @agents.setter
        def agents(self, arg1: typing.Any) -> None:
            ...
        @property
        def falloff(self) -> typing.Any:
            """
            how danger fades with clearance / max_distance
            """
        @falloff.setter
        def falloff(self, arg1: typing.Any) -> None:
            ...
        @property
        def keep_right(self) -> typing.Any:
            """
            other agents' bearings turned counter-clockwise by it, within +-pi/4
            """
        @keep_right.setter
        def keep_right(self, arg1: typing.Any) -> None:
            ...
        @property
        def max_distance(self) -> typing.Any:
            """
            clearance beyond which an obstacle is ignored
            """
        @max_distance.setter
        def max_distance(self, arg1: typing.Any) -> None:
            ...
        @property
        def wall_arc(self) -> typing.Any:
            """
            share of each slot's arc over which walls are measured
            """
        @wall_arc.setter
        def wall_arc(self, arg1: typing.Any) -> None:
            ...
        @property
        def weight(self) -> typing.Any:
            """
            factor the pipeline's combine rule applies to this behaviour's maps
            """
        @weight.setter
        def weight(self, arg1: typing.Any) -> None:
            ...
        @property
        def world_obstacles(self) -> typing.Any:
            """
            also avoid the scene's obstacles
            """
        @world_obstacles.setter
        def world_obstacles(self, arg1: typing.Any) -> None:
            ...
    _fields: typing.ClassVar[list] = [{'name': 'max_distance', 'kind': 'number', 'default': 5.0, 'unit': 'm', 'doc': 'clearance beyond which an obstacle is ignored', 'bounds': {'above': 0.0}}, {'name': 'falloff', 'kind': 'name', 'default': 'linear', 'unit': '', 'doc': 'how danger fades with clearance / max_distance', 'choices': ['step', 'linear', 'smoothstep', 'inverse_square', 'exponential']}, {'name': 'world_obstacles', 'kind': 'flag', 'default': True, 'unit': '', 'doc': "also avoid the scene's obstacles"}, {'name': 'agents', 'kind': 'flag', 'default': False, 'unit': '', 'doc': 'also avoid the other agents it senses'}, {'name': 'keep_right', 'kind': 'number', 'default': 0.0, 'unit': 'rad', 'doc': "other agents' bearings turned counter-clockwise by it, within +-pi/4", 'bounds': {'minimum': -0.7853981852531433, 'maximum': 0.7853981852531433}}, {'name': 'wall_arc', 'kind': 'number', 'default': 1.0, 'unit': '', 'doc': "share of each slot's arc over which walls are measured", 'bounds': {'above': 0.0, 'maximum': 1.0}}, {'name': 'weight', 'kind': 'number', 'default': 1.0, 'unit': '', 'doc': "factor the pipeline's combine rule applies to this behaviour's maps", 'bounds': {}}]
    def __init__(self, circles: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], params: Avoid.Params) -> None:
        ...
    @property
    def agents(self) -> typing.Any:
        """
        also avoid the other agents it senses
        """
    @agents.setter
    def agents(self, arg1: typing.Any) -> None:
        ...
    @property
    def circles(self) -> numpy.typing.NDArray[numpy.float32]:
        ...
    @property
    def falloff(self) -> typing.Any:
        """
        how danger fades with clearance / max_distance
        """
    @falloff.setter
    def falloff(self, arg1: typing.Any) -> None:
        ...
    @property
    def keep_right(self) -> typing.Any:
        """
        other agents' bearings turned counter-clockwise by it, within +-pi/4
        """
    @keep_right.setter
    def keep_right(self, arg1: typing.Any) -> None:
        ...
    @property
    def max_distance(self) -> typing.Any:
        """
        clearance beyond which an obstacle is ignored
        """
    @max_distance.setter
    def max_distance(self, arg1: typing.Any) -> None:
        ...
    @property
    def wall_arc(self) -> typing.Any:
        """
        share of each slot's arc over which walls are measured
        """
    @wall_arc.setter
    def wall_arc(self, arg1: typing.Any) -> None:
        ...
    @property
    def weight(self) -> typing.Any:
        """
        factor the pipeline's combine rule applies to this behaviour's maps
        """
    @weight.setter
    def weight(self, arg1: typing.Any) -> None:
        ...
    @property
    def world_obstacles(self) -> typing.Any:
        """
        also avoid the scene's obstacles
        """
    @world_obstacles.setter
    def world_obstacles(self, arg1: typing.Any) -> None:
        ...
class Flee(Behavior):
    class Params:
        def __init__(self) -> None:
            ...
        @property
        def falloff(self) -> typing.Any:
            """
            how strength fades with distance / radius
            """
        @falloff.setter
        def falloff(self, arg1: typing.Any) -> None:
            ...
        @property
        def radius(self) -> typing.Any:
            """
            farther threats are ignored
            """
        @radius.setter
        def radius(self, arg1: typing.Any) -> None:
            ...
        @property
        def sideways(self) -> typing.Any:
            """
            the lobe's share of its peak at right angles, in [0, 1)
            """
        @sideways.setter
        def sideways(self, arg1: typing.Any) -> None:
            ...
        @property
        def weight(self) -> typing.Any:
            """
            factor the pipeline's combine rule applies to this behaviour's maps
            """
        @weight.setter
        def weight(self, arg1: typing.Any) -> None:
            ...
    _fields: typing.ClassVar[list] = [{'name': 'radius', 'kind': 'number', 'default': 10.0, 'unit': 'm', 'doc': 'farther threats are ignored', 'bounds': {'above': 0.0}}, {'name': 'falloff', 'kind': 'name', 'default': 'linear', 'unit': '', 'doc': 'how strength fades with distance / radius', 'choices': ['step', 'linear', 'smoothstep', 'inverse_square', 'exponential']}, {'name': 'sideways', 'kind': 'number', 'default': 0.0, 'unit': '', 'doc': "the lobe's share of its peak at right angles, in [0, 1)", 'bounds': {'minimum': 0.0, 'below': 1.0}}, {'name': 'weight', 'kind': 'number', 'default': 1.0, 'unit': '', 'doc': "factor the pipeline's combine rule applies to this behaviour's maps", 'bounds': {}}]
    def __init__(self, threats: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], agent_target: bool, params: Flee.Params) -> None:
        ...
    @property
    def falloff(self) -> typing.Any:
        """
        how strength fades with distance / radius
        """
    @falloff.setter
    def falloff(self, arg1: typing.Any) -> None:
        ...
    @property
    def radius(self) -> typing.Any:
        """
        farther threats are ignored
        """
    @radius.setter
    def radius(self, arg1: typing.Any) -> None:
        ...
    @property
    def sideways(self) -> typing.Any:
        """
        the lobe's share of its peak at right angles, in [0, 1)
        """
    @sideways.setter
    def sideways(self, arg1: typing.Any) -> None:
        ...
    @property
    def weight(self) -> typing.Any:
        """
        factor the pipeline's combine rule applies to this behaviour's maps
        """
    @weight.setter
    def weight(self, arg1: typing.Any) -> None:
        ...
class Forward(Behavior):
    class Params:
        def __init__(self) -> None:
            ...
        @property
        def strength(self) -> typing.Any:
            """
            the lobe's peak
            """
        @strength.setter
        def strength(self, arg1: typing.Any) -> None:
            ...
        @property
        def weight(self) -> typing.Any:
            """
            factor the pipeline's combine rule applies to this behaviour's maps
            """
        @weight.setter
        def weight(self, arg1: typing.Any) -> None:
            ...
    _fields: typing.ClassVar[list] = [{'name': 'strength', 'kind': 'number', 'default': 1.0, 'unit': '', 'doc': "the lobe's peak", 'bounds': {'minimum': 0.0}}, {'name': 'weight', 'kind': 'number', 'default': 1.0, 'unit': '', 'doc': "factor the pipeline's combine rule applies to this behaviour's maps", 'bounds': {}}]
    def __init__(self, params: Forward.Params) -> None:
        ...
    @property
    def strength(self) -> typing.Any:
        """
        the lobe's peak
        """
    @strength.setter
    def strength(self, arg1: typing.Any) -> None:
        ...
    @property
    def weight(self) -> typing.Any:
        """
        factor the pipeline's combine rule applies to this behaviour's maps
        """
    @weight.setter
    def weight(self, arg1: typing.Any) -> None:
        ...
class Pursue(Behavior):
    class Params:
        def __init__(self) -> None:
            ...
        @property
        def max_prediction(self) -> typing.Any:
            """
            the longest look ahead at the target's motion
            """
        @max_prediction.setter
        def max_prediction(self, arg1: typing.Any) -> None:
            ...
        @property
        def sideways(self) -> typing.Any:
            """
            the lobe's share of its peak at right angles, in [0, 1)
            """
        @sideways.setter
        def sideways(self, arg1: typing.Any) -> None:
            ...
        @property
        def weight(self) -> typing.Any:
            """
            factor the pipeline's combine rule applies to this behaviour's maps
            """
        @weight.setter
        def weight(self, arg1: typing.Any) -> None:
            ...
    _fields: typing.ClassVar[list] = [{'name': 'max_prediction', 'kind': 'number', 'default': 1.0, 'unit': 's', 'doc': "the longest look ahead at the target's motion", 'bounds': {'above': 0.0}}, {'name': 'sideways', 'kind': 'number', 'default': 0.0, 'unit': '', 'doc': "the lobe's share of its peak at right angles, in [0, 1)", 'bounds': {'minimum': 0.0, 'below': 1.0}}, {'name': 'weight', 'kind': 'number', 'default': 1.0, 'unit': '', 'doc': "factor the pipeline's combine rule applies to this behaviour's maps", 'bounds': {}}]
    def __init__(self, params: Pursue.Params) -> None:
        ...
    @property
    def max_prediction(self) -> typing.Any:
        """
        the longest look ahead at the target's motion
        """
    @max_prediction.setter
    def max_prediction(self, arg1: typing.Any) -> None:
        ...
    @property
    def sideways(self) -> typing.Any:
        """
        the lobe's share of its peak at right angles, in [0, 1)
        """
    @sideways.setter
    def sideways(self, arg1: typing.Any) -> None:
        ...
    @property
    def weight(self) -> typing.Any:
        """
        factor the pipeline's combine rule applies to this behaviour's maps
        """
    @weight.setter
    def weight(self, arg1: typing.Any) -> None:
        ...
class Evade(Behavior):
    class Params:
        def __init__(self) -> None:
            ...
        @property
        def falloff(self) -> typing.Any:
            """
            how strength fades with distance / radius
            """
        @falloff.setter
        def falloff(self, arg1: typing.Any) -> None:
            ...
        @property
        def max_prediction(self) -> typing.Any:
            """
            the longest look ahead at the target's motion
            """
        @max_prediction.setter
        def max_prediction(self, arg1: typing.Any) -> None:
            ...
        @property
        def radius(self) -> typing.Any:
            """
            an aim point farther away is ignored
            """
        @radius.setter
        def radius(self, arg1: typing.Any) -> None:
            ...
        @property
        def sideways(self) -> typing.Any:
            """
            the lobe's share of its peak at right angles, in [0, 1)
            """
        @sideways.setter
        def sideways(self, arg1: typing.Any) -> None:
            ...
        @property
        def weight(self) -> typing.Any:
            """
            factor the pipeline's combine rule applies to this behaviour's maps
            """
        @weight.setter
        def weight(self, arg1: typing.Any) -> None:
            ...
    _fields: typing.ClassVar[list] = [{'name': 'max_prediction', 'kind': 'number', 'default': 1.0, 'unit': 's', 'doc': "the longest look ahead at the target's motion", 'bounds': {'above': 0.0}}, {'name': 'radius', 'kind': 'number', 'default': 10.0, 'unit': 'm', 'doc': 'an aim point farther away is ignored', 'bounds': {'above': 0.0}}, {'name': 'falloff', 'kind': 'name', 'default': 'linear', 'unit': '', 'doc': 'how strength fades with distance / radius', 'choices': ['step', 'linear', 'smoothstep', 'inverse_square', 'exponential']}, {'name': 'sideways', 'kind': 'number', 'default': 0.0, 'unit': '', 'doc': "the lobe's share of its peak at right angles, in [0, 1)", 'bounds': {'minimum': 0.0, 'below': 1.0}}, {'name': 'weight', 'kind': 'number', 'default': 1.0, 'unit': '', 'doc': "factor the pipeline's combine rule applies to this behaviour's maps", 'bounds': {}}]
    def __init__(self, params: Evade.Params) -> None:
        ...
    @property
    def falloff(self) -> typing.Any:
        """
        how strength fades with distance / radius
        """
    @falloff.setter
    def falloff(self, arg1: typing.Any) -> None:
        ...
    @property
    def max_prediction(self) -> typing.Any:
        """
        the longest look ahead at the target's motion
        """
    @max_prediction.setter
    def max_prediction(self, arg1: typing.Any) -> None:
        ...
    @property
    def radius(self) -> typing.Any:
        """
        an aim point farther away is ignored
        """
    @radius.setter
    def radius(self, arg1: typing.Any) -> None:
        ...
    @property
    def sideways(self) -> typing.Any:
        """
        the lobe's share of its peak at right angles, in [0, 1)
        """
    @sideways.setter
    def sideways(self, arg1: typing.Any) -> None:
        ...
    @property
    def weight(self) -> typing.Any:
        """
        factor the pipeline's combine rule applies to this behaviour's maps
        """
    @weight.setter
    def weight(self, arg1: typing.Any) -> None:
        ...
class Arrive(Behavior):
    class Params:
        def __init__(self) -> None:
            ...
        @property
        def sideways(self) -> typing.Any:
            """
            the lobe's share of its peak at right angles, in [0, 1)
            """
        @sideways.setter
        def sideways(self, arg1: typing.Any) -> None:
            ...
        @property
        def slowing_radius(self) -> typing.Any:
            """
            strength distance / slowing_radius within it
            """
        @slowing_radius.setter
        def slowing_radius(self, arg1: typing.Any) -> None:
            ...
        @property
        def target_radius(self) -> typing.Any:
            """
            no interest within it: arrived
            """
        @target_radius.setter
        def target_radius(self, arg1: typing.Any) -> None:
            ...
        @property
        def weight(self) -> typing.Any:
            """
            factor the pipeline's combine rule applies to this behaviour's maps
            """
        @weight.setter
        def weight(self, arg1: typing.Any) -> None:
            ...
    _fields: typing.ClassVar[list] = [{'name': 'target_radius', 'kind': 'number', 'default': 0.5, 'unit': 'm', 'doc': 'no interest within it: arrived', 'bounds': {'minimum': 0.0}}, {'name': 'slowing_radius', 'kind': 'number', 'default': 3.0, 'unit': 'm', 'doc': 'strength distance / slowing_radius within it', 'bounds': {'above': 0.0}}, {'name': 'sideways', 'kind': 'number', 'default': 0.0, 'unit': '', 'doc': "the lobe's share of its peak at right angles, in [0, 1)", 'bounds': {'minimum': 0.0, 'below': 1.0}}, {'name': 'weight', 'kind': 'number', 'default': 1.0, 'unit': '', 'doc': "factor the pipeline's combine rule applies to this behaviour's maps", 'bounds': {}}]
    def __init__(self, targets: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], agent_target: bool, params: Arrive.Params) -> None:
        ...
    @property
    def sideways(self) -> typing.Any:
        """
        the lobe's share of its peak at right angles, in [0, 1)
        """
    @sideways.setter
    def sideways(self, arg1: typing.Any) -> None:
        ...
    @property
    def slowing_radius(self) -> typing.Any:
        """
        strength distance / slowing_radius within it
        """
    @slowing_radius.setter
    def slowing_radius(self, arg1: typing.Any) -> None:
        ...
    @property
    def target_radius(self) -> typing.Any:
        """
        no interest within it: arrived
        """
    @target_radius.setter
    def target_radius(self, arg1: typing.Any) -> None:
        ...
    @property
    def weight(self) -> typing.Any:
        """
        factor the pipeline's combine rule applies to this behaviour's maps
        """
    @weight.setter
    def weight(self, arg1: typing.Any) -> None:
        ...
class Leave(Behavior):
    class Params:
        def __init__(self) -> None:
            ...
        @property
        def danger_radius(self) -> typing.Any:
            """
            nothing beyond it; strength 1 - distance / danger_radius within it
            """
        @danger_radius.setter
        def danger_radius(self, arg1: typing.Any) -> None:
            ...
        @property
        def escape_radius(self) -> typing.Any:
            """
            strength 1 within it
            """
        @escape_radius.setter
        def escape_radius(self, arg1: typing.Any) -> None:
            ...
        @property
        def sideways(self) -> typing.Any:
            """
            the lobe's share of its peak at right angles, in [0, 1)
            """
        @sideways.setter
        def sideways(self, arg1: typing.Any) -> None:
            ...
        @property
        def weight(self) -> typing.Any:
            """
            factor the pipeline's combine rule applies to this behaviour's maps
            """
        @weight.setter
        def weight(self, arg1: typing.Any) -> None:
            ...
    _fields: typing.ClassVar[list] = [{'name': 'escape_radius', 'kind': 'number', 'default': 1.0, 'unit': 'm', 'doc': 'strength 1 within it', 'bounds': {'minimum': 0.0}}, {'name': 'danger_radius', 'kind': 'number', 'default': 5.0, 'unit': 'm', 'doc': 'nothing beyond it; strength 1 - distance / danger_radius within it', 'bounds': {'above': 0.0}}, {'name': 'sideways', 'kind': 'number', 'default': 0.0, 'unit': '', 'doc': "the lobe's share of its peak at right angles, in [0, 1)", 'bounds': {'minimum': 0.0, 'below': 1.0}}, {'name': 'weight', 'kind': 'number', 'default': 1.0, 'unit': '', 'doc': "factor the pipeline's combine rule applies to this behaviour's maps", 'bounds': {}}]
    def __init__(self, threats: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], agent_target: bool, params: Leave.Params) -> None:
        ...
    @property
    def danger_radius(self) -> typing.Any:
        """
        nothing beyond it; strength 1 - distance / danger_radius within it
        """
    @danger_radius.setter
    def danger_radius(self, arg1: typing.Any) -> None:
        ...
    @property
    def escape_radius(self) -> typing.Any:
        """
        strength 1 within it
        """
    @escape_radius.setter
    def escape_radius(self, arg1: typing.Any) -> None:
        ...
    @property
    def sideways(self) -> typing.Any:
        """
        the lobe's share of its peak at right angles, in [0, 1)
        """
    @sideways.setter
    def sideways(self, arg1: typing.Any) -> None:
        ...
    @property
    def weight(self) -> typing.Any:
        """
        factor the pipeline's combine rule applies to this behaviour's maps
        """
    @weight.setter
    def weight(self, arg1: typing.Any) -> None:
        ...
class Separation(Behavior):
    class Params:
        def __init__(self) -> None:
            ...
        @property
        def falloff(self) -> typing.Any:
            """
            how strength fades with distance / radius
            """
        @falloff.setter
        def falloff(self, arg1: typing.Any) -> None:
            ...
        @property
        def radius(self) -> typing.Any:
            """
            farther neighbors are not sensed
            """
        @radius.setter
        def radius(self, arg1: typing.Any) -> None:
            ...
        @property
        def weight(self) -> typing.Any:
            """
            factor the pipeline's combine rule applies to this behaviour's maps
            """
        @weight.setter
        def weight(self, arg1: typing.Any) -> None:
            ...
    _fields: typing.ClassVar[list] = [{'name': 'radius', 'kind': 'number', 'default': 2.0, 'unit': 'm', 'doc': 'farther neighbors are not sensed', 'bounds': {'above': 0.0}}, {'name': 'falloff', 'kind': 'name', 'default': 'linear', 'unit': '', 'doc': 'how strength fades with distance / radius', 'choices': ['step', 'linear', 'smoothstep', 'inverse_square', 'exponential']}, {'name': 'weight', 'kind': 'number', 'default': 1.0, 'unit': '', 'doc': "factor the pipeline's combine rule applies to this behaviour's maps", 'bounds': {}}]
    def __init__(self, params: Separation.Params) -> None:
        ...
    @property
    def falloff(self) -> typing.Any:
        """
        how strength fades with distance / radius
        """
    @falloff.setter
    def falloff(self, arg1: typing.Any) -> None:
        ...
    @property
    def radius(self) -> typing.Any:
        """
        farther neighbors are not sensed
        """
    @radius.setter
    def radius(self, arg1: typing.Any) -> None:
        ...
    @property
    def weight(self) -> typing.Any:
        """
        factor the pipeline's combine rule applies to this behaviour's maps
        """
    @weight.setter
    def weight(self, arg1: typing.Any) -> None:
        ...
class Alignment(Behavior):
    class Params:
        def __init__(self) -> None:
            ...
        @property
        def radius(self) -> typing.Any:
            """
            farther neighbors are not sensed
            """
        @radius.setter
        def radius(self, arg1: typing.Any) -> None:
            ...
        @property
        def weight(self) -> typing.Any:
            """
            factor the pipeline's combine rule applies to this behaviour's maps
            """
        @weight.setter
        def weight(self, arg1: typing.Any) -> None:
            ...
    _fields: typing.ClassVar[list] = [{'name': 'radius', 'kind': 'number', 'default': 5.0, 'unit': 'm', 'doc': 'farther neighbors are not sensed', 'bounds': {'above': 0.0}}, {'name': 'weight', 'kind': 'number', 'default': 1.0, 'unit': '', 'doc': "factor the pipeline's combine rule applies to this behaviour's maps", 'bounds': {}}]
    def __init__(self, params: Alignment.Params) -> None:
        ...
    @property
    def radius(self) -> typing.Any:
        """
        farther neighbors are not sensed
        """
    @radius.setter
    def radius(self, arg1: typing.Any) -> None:
        ...
    @property
    def weight(self) -> typing.Any:
        """
        factor the pipeline's combine rule applies to this behaviour's maps
        """
    @weight.setter
    def weight(self, arg1: typing.Any) -> None:
        ...
class Cohesion(Behavior):
    class Params:
        def __init__(self) -> None:
            ...
        @property
        def radius(self) -> typing.Any:
            """
            farther neighbors are not sensed
            """
        @radius.setter
        def radius(self, arg1: typing.Any) -> None:
            ...
        @property
        def weight(self) -> typing.Any:
            """
            factor the pipeline's combine rule applies to this behaviour's maps
            """
        @weight.setter
        def weight(self, arg1: typing.Any) -> None:
            ...
    _fields: typing.ClassVar[list] = [{'name': 'radius', 'kind': 'number', 'default': 5.0, 'unit': 'm', 'doc': 'farther neighbors are not sensed', 'bounds': {'above': 0.0}}, {'name': 'weight', 'kind': 'number', 'default': 1.0, 'unit': '', 'doc': "factor the pipeline's combine rule applies to this behaviour's maps", 'bounds': {}}]
    def __init__(self, params: Cohesion.Params) -> None:
        ...
    @property
    def radius(self) -> typing.Any:
        """
        farther neighbors are not sensed
        """
    @radius.setter
    def radius(self, arg1: typing.Any) -> None:
        ...
    @property
    def weight(self) -> typing.Any:
        """
        factor the pipeline's combine rule applies to this behaviour's maps
        """
    @weight.setter
    def weight(self, arg1: typing.Any) -> None:
        ...
class Wander(Behavior):
    class Params:
        def __init__(self) -> None:
            ...
        @property
        def rate(self) -> typing.Any:
            """
            how fast the wander angle drifts, in noise cycles
            """
        @rate.setter
        def rate(self, arg1: typing.Any) -> None:
            ...
        @property
        def seed(self) -> typing.Any:
            """
            the noise's seed: the same seed gives the same maps
            """
        @seed.setter
        def seed(self, arg1: typing.Any) -> None:
            ...
        @property
        def spread(self) -> typing.Any:
            """
            the largest turn from the heading
            """
        @spread.setter
        def spread(self, arg1: typing.Any) -> None:
            ...
        @property
        def strength(self) -> typing.Any:
            """
            the lobe's peak
            """
        @strength.setter
        def strength(self, arg1: typing.Any) -> None:
            ...
        @property
        def weight(self) -> typing.Any:
            """
            factor the pipeline's combine rule applies to this behaviour's maps
            """
        @weight.setter
        def weight(self, arg1: typing.Any) -> None:
            ...
    _fields: typing.ClassVar[list] = [{'name': 'seed', 'kind': 'seed', 'default': 0, 'unit': '', 'doc': "the noise's seed: the same seed gives the same maps", 'bounds': {}}, {'name': 'rate', 'kind': 'number', 'default': 0.5, 'unit': 'Hz', 'doc': 'how fast the wander angle drifts, in noise cycles', 'bounds': {'above': 0.0}}, {'name': 'spread', 'kind': 'number', 'default': 1.0, 'unit': 'rad', 'doc': 'the largest turn from the heading', 'bounds': {'minimum': 0.0}}, {'name': 'strength', 'kind': 'number', 'default': 1.0, 'unit': '', 'doc': "the lobe's peak", 'bounds': {'minimum': 0.0}}, {'name': 'weight', 'kind': 'number', 'default': 1.0, 'unit': '', 'doc': "factor the pipeline's combine rule applies to this behaviour's maps", 'bounds': {}}]
    def __init__(self, params: Wander.Params) -> None:
        ...
    def offset(self, id: typing.SupportsInt | typing.SupportsIndex, time: typing.SupportsFloat | typing.SupportsIndex) -> float:
        ...
    @property
    def rate(self) -> typing.Any:
        """
        how fast the wander angle drifts, in noise cycles
        """
    @rate.setter
    def rate(self, arg1: typing.Any) -> None:
        ...
    @property
    def seed(self) -> typing.Any:
        """
        the noise's seed: the same seed gives the same maps
        """
    @seed.setter
    def seed(self, arg1: typing.Any) -> None:
        ...
    @property
    def spread(self) -> typing.Any:
        """
        the largest turn from the heading
        """
    @spread.setter
    def spread(self, arg1: typing.Any) -> None:
        ...
    @property
    def strength(self) -> typing.Any:
        """
        the lobe's peak
        """
    @strength.setter
    def strength(self, arg1: typing.Any) -> None:
        ...
    @property
    def weight(self) -> typing.Any:
        """
        factor the pipeline's combine rule applies to this behaviour's maps
        """
    @weight.setter
    def weight(self, arg1: typing.Any) -> None:
        ...
class FollowField(Behavior):
    class Params:
        def __init__(self) -> None:
            ...
        @property
        def arrive_radius(self) -> typing.Any:
            """
            no interest within it of a goal (by the field's distance)
            """
        @arrive_radius.setter
        def arrive_radius(self, arg1: typing.Any) -> None:
            ...
        @property
        def crowd_counterflow(self) -> typing.Any:
            """
            metres added to each metre of way per agent per m^2 walking 1 m/s against it (0: none)
            """
        @crowd_counterflow.setter
        def crowd_counterflow(self, arg1: typing.Any) -> None:
            ...
        @property
        def crowd_density(self) -> typing.Any:
            """
            metres added to each metre of way per agent per m^2 (0: none)
            """
        @crowd_density.setter
        def crowd_density(self, arg1: typing.Any) -> None:
            ...
        @property
        def crowd_every(self) -> typing.Any:
            """
            seconds of world time between updates of the fields (0: every step)
            """
        @crowd_every.setter
        def crowd_every(self, arg1: typing.Any) -> None:
            ...
        @property
        def crowd_radius(self) -> typing.Any:
            """
            metres each agent's weight is spread over
            """
        @crowd_radius.setter
        def crowd_radius(self, arg1: typing.Any) -> None:
            ...
        @property
        def sideways(self) -> typing.Any:
            """
            the lobe's share of its peak at right angles, in [0, 1)
            """
        @sideways.setter
        def sideways(self, arg1: typing.Any) -> None:
            ...
        @property
        def slowing_radius(self) -> typing.Any:
            """
            strength distance / slowing_radius within it
            """
        @slowing_radius.setter
        def slowing_radius(self, arg1: typing.Any) -> None:
            ...
        @property
        def to_target(self) -> typing.Any:
            """
            the way ends at each agent's own target (World.targets), straight from the field's goal
            """
        @to_target.setter
        def to_target(self, arg1: typing.Any) -> None:
            ...
        @property
        def weight(self) -> typing.Any:
            """
            factor the pipeline's combine rule applies to this behaviour's maps
            """
        @weight.setter
        def weight(self, arg1: typing.Any) -> None:
            ...
    _fields: typing.ClassVar[list] = [{'name': 'arrive_radius', 'kind': 'number', 'default': 0.5, 'unit': 'm', 'doc': "no interest within it of a goal (by the field's distance)", 'bounds': {'minimum': 0.0}}, {'name': 'slowing_radius', 'kind': 'number', 'default': 3.0, 'unit': 'm', 'doc': 'strength distance / slowing_radius within it', 'bounds': {'above': 0.0}}, {'name': 'sideways', 'kind': 'number', 'default': 0.0, 'unit': '', 'doc': "the lobe's share of its peak at right angles, in [0, 1)", 'bounds': {'minimum': 0.0, 'below': 1.0}}, {'name': 'weight', 'kind': 'number', 'default': 1.0, 'unit': '', 'doc': "factor the pipeline's combine rule applies to this behaviour's maps", 'bounds': {}}, {'name': 'to_target', 'kind': 'flag', 'default': False, 'unit': '', 'doc': "the way ends at each agent's own target (World.targets), straight from the field's goal"}, {'name': 'crowd_density', 'kind': 'number', 'default': 0.0, 'unit': 'm^2', 'doc': 'metres added to each metre of way per agent per m^2 (0: none)', 'bounds': {'minimum': 0.0}}, {'name': 'crowd_counterflow', 'kind': 'number', 'default': 0.0, 'unit': 'm s', 'doc': 'metres added to each metre of way per agent per m^2 walking 1 m/s against it (0: none)', 'bounds': {'minimum': 0.0}}, {'name': 'crowd_every', 'kind': 'number', 'default': 0.5, 'unit': 's', 'doc': 'seconds of world time between updates of the fields (0: every step)', 'bounds': {'minimum': 0.0}}, {'name': 'crowd_radius', 'kind': 'number', 'default': 1.0, 'unit': 'm', 'doc': "metres each agent's weight is spread over", 'bounds': {'above': 0.0}}]
    def __init__(self, fields: collections.abc.Sequence[NavigationField], per_group: bool, params: FollowField.Params) -> None:
        ...
    def crowd_fields(self, world: World) -> typing.Any:
        ...
    @property
    def arrive_radius(self) -> typing.Any:
        """
        no interest within it of a goal (by the field's distance)
        """
    @arrive_radius.setter
    def arrive_radius(self, arg1: typing.Any) -> None:
        ...
    @property
    def crowd_counterflow(self) -> typing.Any:
        """
        metres added to each metre of way per agent per m^2 walking 1 m/s against it (0: none)
        """
    @crowd_counterflow.setter
    def crowd_counterflow(self, arg1: typing.Any) -> None:
        ...
    @property
    def crowd_density(self) -> typing.Any:
        """
        metres added to each metre of way per agent per m^2 (0: none)
        """
    @crowd_density.setter
    def crowd_density(self, arg1: typing.Any) -> None:
        ...
    @property
    def crowd_every(self) -> typing.Any:
        """
        seconds of world time between updates of the fields (0: every step)
        """
    @crowd_every.setter
    def crowd_every(self, arg1: typing.Any) -> None:
        ...
    @property
    def crowd_radius(self) -> typing.Any:
        """
        metres each agent's weight is spread over
        """
    @crowd_radius.setter
    def crowd_radius(self, arg1: typing.Any) -> None:
        ...
    @property
    def fields(self) -> list[NavigationField]:
        ...
    @property
    def per_group(self) -> bool:
        ...
    @property
    def sideways(self) -> typing.Any:
        """
        the lobe's share of its peak at right angles, in [0, 1)
        """
    @sideways.setter
    def sideways(self, arg1: typing.Any) -> None:
        ...
    @property
    def slowing_radius(self) -> typing.Any:
        """
        strength distance / slowing_radius within it
        """
    @slowing_radius.setter
    def slowing_radius(self, arg1: typing.Any) -> None:
        ...
    @property
    def to_target(self) -> typing.Any:
        """
        the way ends at each agent's own target (World.targets), straight from the field's goal
        """
    @to_target.setter
    def to_target(self, arg1: typing.Any) -> None:
        ...
    @property
    def weight(self) -> typing.Any:
        """
        factor the pipeline's combine rule applies to this behaviour's maps
        """
    @weight.setter
    def weight(self, arg1: typing.Any) -> None:
        ...
class FollowPath(Behavior):
    class Params:
        def __init__(self) -> None:
            ...
        @property
        def arrive_radius(self) -> typing.Any:
            """
            no interest within it of the last waypoint
            """
        @arrive_radius.setter
        def arrive_radius(self, arg1: typing.Any) -> None:
            ...
        @property
        def lookahead(self) -> typing.Any:
            """
            how far beyond its progress the agent aims
            """
        @lookahead.setter
        def lookahead(self, arg1: typing.Any) -> None:
            ...
        @property
        def loop(self) -> typing.Any:
            """
            the path goes on from its last waypoint back to the first
            """
        @loop.setter
        def loop(self, arg1: typing.Any) -> None:
            ...
        @property
        def sideways(self) -> typing.Any:
            """
            the lobe's share of its peak at right angles, in [0, 1)
            """
        @sideways.setter
        def sideways(self, arg1: typing.Any) -> None:
            ...
        @property
        def slowing_radius(self) -> typing.Any:
            """
            strength distance / slowing_radius within it of the last waypoint
            """
        @slowing_radius.setter
        def slowing_radius(self, arg1: typing.Any) -> None:
            ...
        @property
        def to_target(self) -> typing.Any:
            """
            each agent's path ends at its own target (World.targets) rather than the last waypoint
            """
        @to_target.setter
        def to_target(self, arg1: typing.Any) -> None:
            ...
        @property
        def weight(self) -> typing.Any:
            """
            factor the pipeline's combine rule applies to this behaviour's maps
            """
        @weight.setter
        def weight(self, arg1: typing.Any) -> None:
            ...
        @property
        def window(self) -> typing.Any:
            """
            path after the last progress where the next is sought; more than an agent travels in a step
            """
        @window.setter
        def window(self, arg1: typing.Any) -> None:
            ...
    _fields: typing.ClassVar[list] = [{'name': 'lookahead', 'kind': 'number', 'default': 2.0, 'unit': 'm', 'doc': 'how far beyond its progress the agent aims', 'bounds': {'minimum': 0.0}}, {'name': 'arrive_radius', 'kind': 'number', 'default': 0.5, 'unit': 'm', 'doc': 'no interest within it of the last waypoint', 'bounds': {'minimum': 0.0}}, {'name': 'slowing_radius', 'kind': 'number', 'default': 3.0, 'unit': 'm', 'doc': 'strength distance / slowing_radius within it of the last waypoint', 'bounds': {'above': 0.0}}, {'name': 'window', 'kind': 'number', 'default': 4.0, 'unit': 'm', 'doc': 'path after the last progress where the next is sought; more than an agent travels in a step', 'bounds': {'above': 0.0}}, {'name': 'loop', 'kind': 'flag', 'default': False, 'unit': '', 'doc': 'the path goes on from its last waypoint back to the first'}, {'name': 'to_target', 'kind': 'flag', 'default': False, 'unit': '', 'doc': "each agent's path ends at its own target (World.targets) rather than the last waypoint"}, {'name': 'sideways', 'kind': 'number', 'default': 0.0, 'unit': '', 'doc': "the lobe's share of its peak at right angles, in [0, 1)", 'bounds': {'minimum': 0.0, 'below': 1.0}}, {'name': 'weight', 'kind': 'number', 'default': 1.0, 'unit': '', 'doc': "factor the pipeline's combine rule applies to this behaviour's maps", 'bounds': {}}]
    def __init__(self, waypoints: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], params: FollowPath.Params) -> None:
        ...
    def progress(self, point: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], last: typing.SupportsFloat | typing.SupportsIndex) -> float:
        ...
    @property
    def arrive_radius(self) -> typing.Any:
        """
        no interest within it of the last waypoint
        """
    @arrive_radius.setter
    def arrive_radius(self, arg1: typing.Any) -> None:
        ...
    @property
    def length(self) -> float:
        ...
    @property
    def lookahead(self) -> typing.Any:
        """
        how far beyond its progress the agent aims
        """
    @lookahead.setter
    def lookahead(self, arg1: typing.Any) -> None:
        ...
    @property
    def loop(self) -> typing.Any:
        """
        the path goes on from its last waypoint back to the first
        """
    @loop.setter
    def loop(self, arg1: typing.Any) -> None:
        ...
    @property
    def sideways(self) -> typing.Any:
        """
        the lobe's share of its peak at right angles, in [0, 1)
        """
    @sideways.setter
    def sideways(self, arg1: typing.Any) -> None:
        ...
    @property
    def slowing_radius(self) -> typing.Any:
        """
        strength distance / slowing_radius within it of the last waypoint
        """
    @slowing_radius.setter
    def slowing_radius(self, arg1: typing.Any) -> None:
        ...
    @property
    def to_target(self) -> typing.Any:
        """
        each agent's path ends at its own target (World.targets) rather than the last waypoint
        """
    @to_target.setter
    def to_target(self, arg1: typing.Any) -> None:
        ...
    @property
    def waypoints(self) -> numpy.typing.NDArray[numpy.float32]:
        ...
    @property
    def weight(self) -> typing.Any:
        """
        factor the pipeline's combine rule applies to this behaviour's maps
        """
    @weight.setter
    def weight(self, arg1: typing.Any) -> None:
        ...
    @property
    def window(self) -> typing.Any:
        """
        path after the last progress where the next is sought; more than an agent travels in a step
        """
    @window.setter
    def window(self, arg1: typing.Any) -> None:
        ...
class Rays(Behavior):
    class Params:
        def __init__(self) -> None:
            ...
        @property
        def length(self) -> typing.Any:
            """
            each ray's length
            """
        @length.setter
        def length(self, arg1: typing.Any) -> None:
            ...
        @property
        def mode(self) -> typing.Any:
            """
            'binary': 1 on a hit; 'distance': 1 - t / length
            """
        @mode.setter
        def mode(self, arg1: typing.Any) -> None:
            ...
        @property
        def weight(self) -> typing.Any:
            """
            factor the pipeline's combine rule applies to this behaviour's maps
            """
        @weight.setter
        def weight(self, arg1: typing.Any) -> None:
            ...
    _fields: typing.ClassVar[list] = [{'name': 'length', 'kind': 'number', 'default': 5.0, 'unit': 'm', 'doc': "each ray's length", 'bounds': {'above': 0.0}}, {'name': 'mode', 'kind': 'name', 'default': 'distance', 'unit': '', 'doc': "'binary': 1 on a hit; 'distance': 1 - t / length", 'choices': ['binary', 'distance']}, {'name': 'weight', 'kind': 'number', 'default': 1.0, 'unit': '', 'doc': "factor the pipeline's combine rule applies to this behaviour's maps", 'bounds': {}}]
    def __init__(self, params: Rays.Params) -> None:
        ...
    @property
    def length(self) -> typing.Any:
        """
        each ray's length
        """
    @length.setter
    def length(self, arg1: typing.Any) -> None:
        ...
    @property
    def mode(self) -> typing.Any:
        """
        'binary': 1 on a hit; 'distance': 1 - t / length
        """
    @mode.setter
    def mode(self, arg1: typing.Any) -> None:
        ...
    @property
    def weight(self) -> typing.Any:
        """
        factor the pipeline's combine rule applies to this behaviour's maps
        """
    @weight.setter
    def weight(self, arg1: typing.Any) -> None:
        ...
class Track:
    def __init__(self, centreline: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], half_width: typing.SupportsFloat | typing.SupportsIndex, racing_line: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], closed: bool) -> None:
        ...
    def locate(self, points: typing.Annotated[numpy.typing.ArrayLike, numpy.float32]) -> numpy.typing.NDArray[numpy.float32]:
        ...
    def point_at(self, s: typing.SupportsFloat | typing.SupportsIndex, lateral: typing.SupportsFloat | typing.SupportsIndex) -> tuple[float, float]:
        ...
    @property
    def closed(self) -> bool:
        ...
    @property
    def half_width(self) -> float:
        ...
    @property
    def length(self) -> float:
        ...
class RacingLanes(Behavior):
    class Params:
        def __init__(self) -> None:
            ...
        @property
        def falloff(self) -> typing.Any:
            """
            how a car ahead's danger fades with ds / lookahead
            """
        @falloff.setter
        def falloff(self, arg1: typing.Any) -> None:
            ...
        @property
        def lanes(self) -> typing.Any:
            """
            lateral offsets across the track
            """
        @lanes.setter
        def lanes(self, arg1: typing.Any) -> None:
            ...
        @property
        def line_width(self) -> typing.Any:
            """
            over which interest falls to 0 away from the racing line; None: the track's whole width
            """
        @line_width.setter
        def line_width(self, arg1: typing.Any) -> None:
            ...
        @property
        def lookahead(self) -> typing.Any:
            """
            how far ahead of the car the lanes lie
            """
        @lookahead.setter
        def lookahead(self, arg1: typing.Any) -> None:
            ...
        @property
        def weight(self) -> typing.Any:
            """
            factor the pipeline's combine rule applies to this behaviour's maps
            """
        @weight.setter
        def weight(self, arg1: typing.Any) -> None:
            ...
        @property
        def window(self) -> typing.Any:
            """
            track after the car's last place where the next is sought; more than a car travels in a step
            """
        @window.setter
        def window(self, arg1: typing.Any) -> None:
            ...
    _fields: typing.ClassVar[list] = [{'name': 'lanes', 'kind': 'count', 'default': 7, 'unit': 'lanes', 'doc': 'lateral offsets across the track', 'bounds': {'minimum': 1.0, 'maximum': 256.0}}, {'name': 'lookahead', 'kind': 'number', 'default': 10.0, 'unit': 'm', 'doc': 'how far ahead of the car the lanes lie', 'bounds': {'above': 0.0}}, {'name': 'line_width', 'kind': 'number', 'default': None, 'unit': 'm', 'doc': "over which interest falls to 0 away from the racing line; None: the track's whole width", 'bounds': {'above': 0.0, 'absent': True}}, {'name': 'window', 'kind': 'number', 'default': 20.0, 'unit': 'm', 'doc': "track after the car's last place where the next is sought; more than a car travels in a step", 'bounds': {'above': 0.0}}, {'name': 'falloff', 'kind': 'name', 'default': 'linear', 'unit': '', 'doc': "how a car ahead's danger fades with ds / lookahead", 'choices': ['step', 'linear', 'smoothstep', 'inverse_square', 'exponential']}, {'name': 'weight', 'kind': 'number', 'default': 1.0, 'unit': '', 'doc': "factor the pipeline's combine rule applies to this behaviour's maps", 'bounds': {}}]
    def __init__(self, track: Track, params: RacingLanes.Params) -> None:
        ...
    def lane_maps(self, positions: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], radius: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], by_grid: bool = False) -> dict:
        ...
    @property
    def falloff(self) -> typing.Any:
        """
        how a car ahead's danger fades with ds / lookahead
        """
    @falloff.setter
    def falloff(self, arg1: typing.Any) -> None:
        ...
    @property
    def lanes(self) -> typing.Any:
        """
        lateral offsets across the track
        """
    @lanes.setter
    def lanes(self, arg1: typing.Any) -> None:
        ...
    @property
    def line_width(self) -> typing.Any:
        """
        over which interest falls to 0 away from the racing line; None: the track's whole width
        """
    @line_width.setter
    def line_width(self, arg1: typing.Any) -> None:
        ...
    @property
    def lookahead(self) -> typing.Any:
        """
        how far ahead of the car the lanes lie
        """
    @lookahead.setter
    def lookahead(self, arg1: typing.Any) -> None:
        ...
    @property
    def weight(self) -> typing.Any:
        """
        factor the pipeline's combine rule applies to this behaviour's maps
        """
    @weight.setter
    def weight(self, arg1: typing.Any) -> None:
        ...
    @property
    def window(self) -> typing.Any:
        """
        track after the car's last place where the next is sought; more than a car travels in a step
        """
    @window.setter
    def window(self, arg1: typing.Any) -> None:
        ...
class TimeToCollision(Behavior):
    class Params:
        def __init__(self) -> None:
            ...
        @property
        def falloff(self) -> typing.Any:
            """
            how danger fades with t* / horizon
            """
        @falloff.setter
        def falloff(self, arg1: typing.Any) -> None:
            ...
        @property
        def horizon(self) -> typing.Any:
            """
            the latest closest approach looked at
            """
        @horizon.setter
        def horizon(self, arg1: typing.Any) -> None:
            ...
        @property
        def radius(self) -> typing.Any:
            """
            farther neighbors are not sensed
            """
        @radius.setter
        def radius(self, arg1: typing.Any) -> None:
            ...
        @property
        def weight(self) -> typing.Any:
            """
            factor the pipeline's combine rule applies to this behaviour's maps
            """
        @weight.setter
        def weight(self, arg1: typing.Any) -> None:
            ...
    _fields: typing.ClassVar[list] = [{'name': 'radius', 'kind': 'number', 'default': 10.0, 'unit': 'm', 'doc': 'farther neighbors are not sensed', 'bounds': {'above': 0.0}}, {'name': 'horizon', 'kind': 'number', 'default': 3.0, 'unit': 's', 'doc': 'the latest closest approach looked at', 'bounds': {'above': 0.0}}, {'name': 'falloff', 'kind': 'name', 'default': 'linear', 'unit': '', 'doc': 'how danger fades with t* / horizon', 'choices': ['step', 'linear', 'smoothstep', 'inverse_square', 'exponential']}, {'name': 'weight', 'kind': 'number', 'default': 1.0, 'unit': '', 'doc': "factor the pipeline's combine rule applies to this behaviour's maps", 'bounds': {}}]
    def __init__(self, params: TimeToCollision.Params) -> None:
        ...
    @property
    def falloff(self) -> typing.Any:
        """
        how danger fades with t* / horizon
        """
    @falloff.setter
    def falloff(self, arg1: typing.Any) -> None:
        ...
    @property
    def horizon(self) -> typing.Any:
        """
        the latest closest approach looked at
        """
    @horizon.setter
    def horizon(self, arg1: typing.Any) -> None:
        ...
    @property
    def radius(self) -> typing.Any:
        """
        farther neighbors are not sensed
        """
    @radius.setter
    def radius(self, arg1: typing.Any) -> None:
        ...
    @property
    def weight(self) -> typing.Any:
        """
        factor the pipeline's combine rule applies to this behaviour's maps
        """
    @weight.setter
    def weight(self, arg1: typing.Any) -> None:
        ...
class Anticipate(Behavior):
    class Params:
        def __init__(self) -> None:
            ...
        @property
        def arc_edges(self) -> typing.Any:
            """
            a slot's danger is the least along its direction and its arc's two edges
            """
        @arc_edges.setter
        def arc_edges(self, arg1: typing.Any) -> None:
            ...
        @property
        def horizon(self) -> typing.Any:
            """
            how far ahead a touch counts
            """
        @horizon.setter
        def horizon(self, arg1: typing.Any) -> None:
            ...
        @property
        def keep_right(self) -> typing.Any:
            """
            neighbors turned counter-clockwise by this
            """
        @keep_right.setter
        def keep_right(self, arg1: typing.Any) -> None:
            ...
        @property
        def make_way(self) -> typing.Any:
            """
            interest of an agent that standing would not keep clear
            """
        @make_way.setter
        def make_way(self, arg1: typing.Any) -> None:
            ...
        @property
        def radius(self) -> typing.Any:
            """
            farther neighbors are not sensed
            """
        @radius.setter
        def radius(self, arg1: typing.Any) -> None:
            ...
        @property
        def responsibility(self) -> typing.Any:
            """
            share of avoiding another agent taken on by this one (1/2: reciprocal)
            """
        @responsibility.setter
        def responsibility(self, arg1: typing.Any) -> None:
            ...
        @property
        def right_of_way(self) -> typing.Any:
            """
            neighbors of its group farther back along their way are taken as standing
            """
        @right_of_way.setter
        def right_of_way(self, arg1: typing.Any) -> None:
            ...
        @property
        def weight(self) -> typing.Any:
            """
            factor the pipeline's combine rule applies to this behaviour's maps
            """
        @weight.setter
        def weight(self, arg1: typing.Any) -> None:
            ...
    _fields: typing.ClassVar[list] = [{'name': 'radius', 'kind': 'number', 'default': 3.0, 'unit': 'm', 'doc': 'farther neighbors are not sensed', 'bounds': {'above': 0.0}}, {'name': 'horizon', 'kind': 'number', 'default': 1.5, 'unit': 's', 'doc': 'how far ahead a touch counts', 'bounds': {'above': 0.0}}, {'name': 'keep_right', 'kind': 'number', 'default': 0.0, 'unit': 'rad', 'doc': 'neighbors turned counter-clockwise by this', 'bounds': {'minimum': -0.7853981852531433, 'maximum': 0.7853981852531433}}, {'name': 'make_way', 'kind': 'number', 'default': 0.0, 'unit': '', 'doc': 'interest of an agent that standing would not keep clear', 'bounds': {'minimum': 0.0, 'maximum': 1.0}}, {'name': 'responsibility', 'kind': 'number', 'default': 1.0, 'unit': '', 'doc': 'share of avoiding another agent taken on by this one (1/2: reciprocal)', 'bounds': {'above': 0.0, 'maximum': 1.0}}, {'name': 'arc_edges', 'kind': 'flag', 'default': False, 'unit': '', 'doc': "a slot's danger is the least along its direction and its arc's two edges"}, {'name': 'right_of_way', 'kind': 'flag', 'default': False, 'unit': '', 'doc': 'neighbors of its group farther back along their way are taken as standing'}, {'name': 'weight', 'kind': 'number', 'default': 1.0, 'unit': '', 'doc': "factor the pipeline's combine rule applies to this behaviour's maps", 'bounds': {}}]
    def __init__(self, params: Anticipate.Params) -> None:
        ...
    @property
    def arc_edges(self) -> typing.Any:
        """
        a slot's danger is the least along its direction and its arc's two edges
        """
    @arc_edges.setter
    def arc_edges(self, arg1: typing.Any) -> None:
        ...
    @property
    def horizon(self) -> typing.Any:
        """
        how far ahead a touch counts
        """
    @horizon.setter
    def horizon(self, arg1: typing.Any) -> None:
        ...
    @property
    def keep_right(self) -> typing.Any:
        """
        neighbors turned counter-clockwise by this
        """
    @keep_right.setter
    def keep_right(self, arg1: typing.Any) -> None:
        ...
    @property
    def make_way(self) -> typing.Any:
        """
        interest of an agent that standing would not keep clear
        """
    @make_way.setter
    def make_way(self, arg1: typing.Any) -> None:
        ...
    @property
    def radius(self) -> typing.Any:
        """
        farther neighbors are not sensed
        """
    @radius.setter
    def radius(self, arg1: typing.Any) -> None:
        ...
    @property
    def responsibility(self) -> typing.Any:
        """
        share of avoiding another agent taken on by this one (1/2: reciprocal)
        """
    @responsibility.setter
    def responsibility(self, arg1: typing.Any) -> None:
        ...
    @property
    def right_of_way(self) -> typing.Any:
        """
        neighbors of its group farther back along their way are taken as standing
        """
    @right_of_way.setter
    def right_of_way(self, arg1: typing.Any) -> None:
        ...
    @property
    def weight(self) -> typing.Any:
        """
        factor the pipeline's combine rule applies to this behaviour's maps
        """
    @weight.setter
    def weight(self, arg1: typing.Any) -> None:
        ...
class PythonBehavior(Behavior):
    class Params:
        def __init__(self) -> None:
            ...
        @property
        def neighbor_radius(self) -> typing.Any:
            """
            within which it will ask batch.neighbors, so that the world's grid covers it
            """
        @neighbor_radius.setter
        def neighbor_radius(self, arg1: typing.Any) -> None:
            ...
        @property
        def weight(self) -> typing.Any:
            """
            factor the pipeline's combine rule applies to this behaviour's maps
            """
        @weight.setter
        def weight(self, arg1: typing.Any) -> None:
            ...
    _fields: typing.ClassVar[list] = [{'name': 'neighbor_radius', 'kind': 'number', 'default': 0.0, 'unit': 'm', 'doc': "within which it will ask batch.neighbors, so that the world's grid covers it", 'bounds': {'minimum': 0.0}}, {'name': 'weight', 'kind': 'number', 'default': 1.0, 'unit': '', 'doc': "factor the pipeline's combine rule applies to this behaviour's maps", 'bounds': {}}]
    def __init__(self, callback: typing.Any, fills_interest: bool, fills_danger: bool, memory_width: typing.SupportsInt | typing.SupportsIndex, params: PythonBehavior.Params) -> None:
        ...
    @property
    def neighbor_radius(self) -> typing.Any:
        """
        within which it will ask batch.neighbors, so that the world's grid covers it
        """
    @neighbor_radius.setter
    def neighbor_radius(self, arg1: typing.Any) -> None:
        ...
    @property
    def weight(self) -> typing.Any:
        """
        factor the pipeline's combine rule applies to this behaviour's maps
        """
    @weight.setter
    def weight(self, arg1: typing.Any) -> None:
        ...
class Pipeline:
    danger_mode: str
    danger_rule: str
    interest_rule: str
    select: str
    def __init__(self, behaviors: collections.abc.Sequence[Behavior], slots: typing.SupportsInt | typing.SupportsIndex, offset: typing.SupportsFloat | typing.SupportsIndex, interest_rule: str, danger_rule: str, danger_mode: str, threshold: typing.SupportsFloat | typing.SupportsIndex, margin: typing.SupportsFloat | typing.SupportsIndex, select: str, blur_interest: typing.SupportsFloat | typing.SupportsIndex, blur_danger: typing.SupportsFloat | typing.SupportsIndex, smooth: typing.SupportsFloat | typing.SupportsIndex, hysteresis: typing.SupportsFloat | typing.SupportsIndex, turn_back: typing.SupportsFloat | typing.SupportsIndex, turn_back_wait: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    def evaluate(self, positions: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], velocities: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], radius: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], obstacles: typing.Annotated[numpy.typing.ArrayLike, numpy.float32]) -> dict:
        ...
    @property
    def behaviors(self) -> list:
        ...
    @property
    def blur_danger(self) -> float:
        ...
    @blur_danger.setter
    def blur_danger(self, arg1: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def blur_interest(self) -> float:
        ...
    @blur_interest.setter
    def blur_interest(self, arg1: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def hysteresis(self) -> float:
        ...
    @hysteresis.setter
    def hysteresis(self, arg1: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def margin(self) -> float:
        ...
    @margin.setter
    def margin(self, arg1: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def offset(self) -> float:
        ...
    @offset.setter
    def offset(self, arg1: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def slots(self) -> int:
        ...
    @property
    def smooth(self) -> float:
        ...
    @smooth.setter
    def smooth(self, arg1: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def threshold(self) -> float:
        ...
    @threshold.setter
    def threshold(self, arg1: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def turn_back(self) -> float:
        ...
    @turn_back.setter
    def turn_back(self, arg1: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def turn_back_wait(self) -> float:
        ...
    @turn_back_wait.setter
    def turn_back_wait(self, arg1: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
class ClassicBehavior:
    def __init__(self, kind: str, weight: typing.SupportsFloat | typing.SupportsIndex, priority: typing.SupportsInt | typing.SupportsIndex, target: typing.Annotated[numpy.typing.ArrayLike, numpy.float32] | None, target_radius: typing.SupportsFloat | typing.SupportsIndex, slowing_radius: typing.SupportsFloat | typing.SupportsIndex, time_to_target: typing.SupportsFloat | typing.SupportsIndex, escape_radius: typing.SupportsFloat | typing.SupportsIndex, danger_radius: typing.SupportsFloat | typing.SupportsIndex, max_prediction: typing.SupportsFloat | typing.SupportsIndex, align_tolerance: typing.SupportsFloat | typing.SupportsIndex, horizon: typing.SupportsFloat | typing.SupportsIndex, margin: typing.SupportsFloat | typing.SupportsIndex, feeler_angle: typing.SupportsFloat | typing.SupportsIndex, radius: typing.SupportsFloat | typing.SupportsIndex, lookahead: typing.SupportsFloat | typing.SupportsIndex, path: typing.Annotated[numpy.typing.ArrayLike, numpy.float32] | None, loop: bool, field: NavigationField | None) -> None:
        ...
    @property
    def kind(self) -> str:
        ...
    @property
    def priority(self) -> int:
        ...
    @property
    def weight(self) -> float:
        ...
class ClassicSteering:
    def __init__(self, behaviors: collections.abc.Sequence[ClassicBehavior], combiner: str, epsilon: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def behaviors(self) -> list[ClassicBehavior]:
        ...
    @property
    def steers_heading(self) -> bool:
        ...
class GoalParams:
    def __init__(self) -> None:
        ...
    @property
    def arrival(self) -> typing.Any:
        """
        what an agent does at its goal: stay, give_way or leave
        """
    @arrival.setter
    def arrival(self, arg1: typing.Any) -> None:
        ...
    @property
    def arrival_radius(self) -> typing.Any:
        """
        an agent within it of its target has arrived
        """
    @arrival_radius.setter
    def arrival_radius(self, arg1: typing.Any) -> None:
        ...
    @property
    def give_way_time(self) -> typing.Any:
        """
        seconds an agent gives way for
        """
    @give_way_time.setter
    def give_way_time(self, arg1: typing.Any) -> None:
        ...
    @property
    def patience(self) -> typing.Any:
        """
        seconds waiting before an agent settles a face-off (inf: never)
        """
    @patience.setter
    def patience(self, arg1: typing.Any) -> None:
        ...
    @property
    def progress_distance(self) -> typing.Any:
        """
        how far an agent must move from where it last progressed to progress again
        """
    @progress_distance.setter
    def progress_distance(self, arg1: typing.Any) -> None:
        ...
    @property
    def reach(self) -> typing.Any:
        """
        gap between two discs within which one blocks the other
        """
    @reach.setter
    def reach(self, arg1: typing.Any) -> None:
        ...
    @property
    def stall_time(self) -> typing.Any:
        """
        seconds without progress before an agent is waiting
        """
    @stall_time.setter
    def stall_time(self, arg1: typing.Any) -> None:
        ...
class ContactParams:
    def __init__(self) -> None:
        ...
    @property
    def events(self) -> typing.Any:
        """
        whether each contact deeper than slop is an event (agent_contact, obstacle_contact)
        """
    @events.setter
    def events(self, arg1: typing.Any) -> None:
        ...
    @property
    def iterations(self) -> typing.Any:
        """
        passes of agent-agent position correction per step
        """
    @iterations.setter
    def iterations(self, arg1: typing.Any) -> None:
        ...
    @property
    def motion_share(self) -> typing.Any:
        """
        share of each overlap's correction split by how far each agent moved into it, not by mass
        """
    @motion_share.setter
    def motion_share(self, arg1: typing.Any) -> None:
        ...
    @property
    def slop(self) -> typing.Any:
        """
        agent-agent overlap left uncorrected (and not reported)
        """
    @slop.setter
    def slop(self, arg1: typing.Any) -> None:
        ...
class World:
    contact: ContactParams | None
    goals: GoalParams
    keep_maps: bool
    def __init__(self, steering: typing.Any) -> None:
        ...
    def add_agents(self, columns: dict, steering: typing.SupportsInt | typing.SupportsIndex) -> int:
        ...
    def add_circles(self, circles: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], layer: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def add_moving_circles(self, circles: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], velocities: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], layer: typing.SupportsInt | typing.SupportsIndex) -> int:
        ...
    def add_moving_polygon(self, vertices: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], vx: typing.SupportsFloat | typing.SupportsIndex, vy: typing.SupportsFloat | typing.SupportsIndex, angular_velocity: typing.SupportsFloat | typing.SupportsIndex, layer: typing.SupportsInt | typing.SupportsIndex) -> int:
        ...
    def add_moving_segments(self, segments: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], velocities: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], layer: typing.SupportsInt | typing.SupportsIndex) -> int:
        ...
    def add_polygon(self, vertices: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], layer: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def add_segments(self, segments: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], layer: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def add_steering(self, steering: typing.Any) -> int:
        ...
    def clear_bounds(self) -> None:
        ...
    def clear_moving_obstacles(self) -> None:
        ...
    def clear_obstacle_path(self, bodies: typing.Annotated[numpy.typing.ArrayLike, numpy.int64]) -> None:
        ...
    def clear_obstacles(self) -> None:
        ...
    def copy(self) -> World:
        ...
    def explain(self, index: typing.SupportsInt | typing.SupportsIndex) -> dict:
        ...
    def explain_classic(self, index: typing.SupportsInt | typing.SupportsIndex, dt: typing.SupportsFloat | typing.SupportsIndex) -> dict:
        ...
    def index_of(self, ids: typing.Annotated[numpy.typing.ArrayLike, numpy.int64]) -> numpy.typing.NDArray[numpy.int64]:
        ...
    def load_moving(self, state: bytes) -> None:
        ...
    def moving_overlap(self) -> numpy.typing.NDArray[numpy.float32]:
        ...
    def moving_path(self, body: typing.SupportsInt | typing.SupportsIndex) -> typing.Any:
        ...
    def moving_shape(self, body: typing.SupportsInt | typing.SupportsIndex) -> numpy.typing.NDArray[numpy.float32]:
        ...
    def moving_state(self) -> bytes:
        ...
    def neighbors(self, point: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], radius: typing.SupportsFloat | typing.SupportsIndex, mask: typing.SupportsInt | typing.SupportsIndex, exclude: typing.SupportsInt | typing.SupportsIndex) -> numpy.typing.NDArray[numpy.int32]:
        ...
    def place_moving_obstacles(self) -> None:
        ...
    def remove_agents(self, ids: typing.Annotated[numpy.typing.ArrayLike, numpy.int64]) -> None:
        ...
    def reset(self) -> None:
        ...
    def restore_state(self, state: tuple) -> None:
        ...
    def run(self, steps: typing.SupportsInt | typing.SupportsIndex, dt: typing.SupportsFloat | typing.SupportsIndex, substeps: typing.SupportsInt | typing.SupportsIndex, record: dict, time: typing.Annotated[numpy.typing.ArrayLike, numpy.float64] | None = None, ids: typing.Annotated[numpy.typing.ArrayLike, numpy.int64] | None = None) -> dict:
        ...
    def saved_state(self) -> tuple:
        ...
    def set_bounds(self, bounds: typing.Annotated[numpy.typing.ArrayLike, numpy.float32]) -> None:
        ...
    def set_obstacle_path(self, bodies: typing.Annotated[numpy.typing.ArrayLike, numpy.int64], waypoints: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], speed: typing.SupportsFloat | typing.SupportsIndex, back_and_forth: bool) -> None:
        ...
    def set_steering(self, index: typing.SupportsInt | typing.SupportsIndex, steering: typing.Any) -> None:
        ...
    def steering(self, index: typing.SupportsInt | typing.SupportsIndex) -> typing.Any:
        ...
    def step(self, dt: typing.SupportsFloat | typing.SupportsIndex, substeps: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def agent_count(self) -> int:
        ...
    @property
    def angular_velocity(self) -> numpy.ndarray:
        ...
    @property
    def arrival_time(self) -> numpy.ndarray:
        ...
    @property
    def blocked(self) -> numpy.ndarray:
        ...
    @property
    def bounds(self) -> typing.Any:
        ...
    @property
    def circles(self) -> numpy.typing.NDArray[numpy.float32]:
        ...
    @property
    def contact_correction(self) -> dict:
        ...
    @property
    def danger(self) -> numpy.ndarray:
        ...
    @property
    def direction(self) -> numpy.ndarray:
        ...
    @property
    def events(self) -> dict:
        ...
    @property
    def final(self) -> numpy.ndarray:
        ...
    @property
    def give_way(self) -> numpy.ndarray:
        ...
    @property
    def give_way_left(self) -> numpy.ndarray:
        ...
    @property
    def groups(self) -> numpy.ndarray:
        ...
    @property
    def heading(self) -> numpy.ndarray:
        ...
    @property
    def ids(self) -> numpy.ndarray:
        ...
    @property
    def interest(self) -> numpy.ndarray:
        ...
    @property
    def layers(self) -> numpy.ndarray:
        ...
    @property
    def mass(self) -> numpy.ndarray:
        ...
    @property
    def max_acceleration(self) -> numpy.ndarray:
        ...
    @property
    def max_force(self) -> numpy.ndarray:
        ...
    @property
    def max_speed(self) -> numpy.ndarray:
        ...
    @property
    def max_turn_rate(self) -> numpy.ndarray:
        ...
    @property
    def moving_angles(self) -> numpy.ndarray:
        ...
    @property
    def moving_angular_velocities(self) -> numpy.ndarray:
        ...
    @property
    def moving_count(self) -> int:
        ...
    @property
    def moving_kinds(self) -> numpy.typing.NDArray[numpy.int32]:
        ...
    @property
    def moving_layers(self) -> numpy.typing.NDArray[numpy.uint32]:
        ...
    @property
    def moving_positions(self) -> numpy.ndarray:
        ...
    @property
    def moving_velocities(self) -> numpy.ndarray:
        ...
    @property
    def obstacle_layers(self) -> tuple[numpy.typing.NDArray[numpy.uint32], numpy.typing.NDArray[numpy.uint32], numpy.typing.NDArray[numpy.uint32]]:
        ...
    @property
    def overlap(self) -> numpy.ndarray:
        ...
    @property
    def penetration(self) -> numpy.ndarray:
        ...
    @property
    def polygons(self) -> list:
        ...
    @property
    def positions(self) -> numpy.ndarray:
        ...
    @property
    def progress_anchor(self) -> numpy.ndarray:
        ...
    @property
    def radius(self) -> numpy.ndarray:
        ...
    @property
    def segments(self) -> numpy.typing.NDArray[numpy.float32]:
        ...
    @property
    def sense_masks(self) -> numpy.ndarray:
        ...
    @property
    def slot(self) -> numpy.ndarray:
        ...
    @property
    def slots(self) -> int:
        ...
    @property
    def stage_times(self) -> dict:
        ...
    @property
    def state(self) -> numpy.ndarray:
        ...
    @property
    def steering_count(self) -> int:
        ...
    @property
    def steering_index(self) -> numpy.ndarray:
        ...
    @property
    def steps_taken(self) -> int:
        ...
    @property
    def strength(self) -> numpy.ndarray:
        ...
    @property
    def target_ids(self) -> numpy.ndarray:
        ...
    @property
    def targets(self) -> numpy.ndarray:
        ...
    @property
    def threads(self) -> int:
        ...
    @threads.setter
    def threads(self, arg1: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def time(self) -> float:
        ...
    @property
    def velocities(self) -> numpy.ndarray:
        ...
    @property
    def waiting_time(self) -> numpy.ndarray:
        ...
def blur(maps: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], width: typing.SupportsFloat | typing.SupportsIndex) -> numpy.typing.NDArray[numpy.float32]:
    ...
def combine(maps: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], rule: str, weights: typing.Annotated[numpy.typing.ArrayLike, numpy.float32] | None = None) -> numpy.typing.NDArray[numpy.float32]:
    ...
def resample(maps: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], slots: typing.SupportsInt | typing.SupportsIndex, method: str) -> numpy.typing.NDArray[numpy.float32]:
    ...
def resolve(interest: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], danger: typing.Annotated[numpy.typing.ArrayLike, numpy.float32] | None, danger_mode: str, threshold: typing.SupportsFloat | typing.SupportsIndex, margin: typing.SupportsFloat | typing.SupportsIndex, select: str, offset: typing.SupportsFloat | typing.SupportsIndex, hysteresis: typing.SupportsFloat | typing.SupportsIndex = 0.0, current: typing.Annotated[numpy.typing.ArrayLike, numpy.float32] | None = None) -> tuple:
    ...
def slot_directions(slots: typing.SupportsInt | typing.SupportsIndex, offset: typing.SupportsFloat | typing.SupportsIndex = 0.0) -> numpy.typing.NDArray[numpy.float32]:
    ...
def smooth(maps: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], previous: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], factor: typing.SupportsFloat | typing.SupportsIndex) -> numpy.typing.NDArray[numpy.float32]:
    ...
def try_combine(maps: typing.Any, rule: typing.Any, weights: typing.Any) -> typing.Any:
    ...
def try_resolve(decision: typing.Any, interest: typing.Any, danger: typing.Any, danger_mode: typing.Any, threshold: typing.Any, margin: typing.Any, select: typing.Any, offset: typing.Any, hysteresis: typing.Any, current: typing.Any) -> typing.Any:
    ...
def widest_way(goal_areas: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], area: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], cell: typing.SupportsFloat | typing.SupportsIndex, starts: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], cap: typing.SupportsFloat | typing.SupportsIndex, circles: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], segments: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], polygons: collections.abc.Sequence[typing.Annotated[numpy.typing.ArrayLike, numpy.float32]]) -> float:
    ...
AGENT_COLUMNS: tuple
CONTACT_FIELDS: list = [{'name': 'iterations', 'kind': 'count', 'default': 64, 'unit': 'passes', 'doc': 'passes of agent-agent position correction per step', 'bounds': {'minimum': 1.0, 'maximum': 1000.0}}, {'name': 'slop', 'kind': 'number', 'default': 0.0010000000474974513, 'unit': 'm', 'doc': 'agent-agent overlap left uncorrected (and not reported)', 'bounds': {'minimum': 0.0, 'maximum': 1.0}}, {'name': 'events', 'kind': 'flag', 'default': True, 'unit': '', 'doc': 'whether each contact deeper than slop is an event (agent_contact, obstacle_contact)'}, {'name': 'motion_share', 'kind': 'number', 'default': 0.0, 'unit': '', 'doc': "share of each overlap's correction split by how far each agent moved into it, not by mass", 'bounds': {'minimum': 0.0, 'maximum': 1.0}}]
GOAL_FIELDS: list
MAX_MAGNITUDE: float = 1000000000.0
MIN_MASS: float = 9.999999717180685e-10
MIN_TIME_STEP: float = 9.999999974752427e-07
