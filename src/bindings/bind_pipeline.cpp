// The steering pipeline: behaviours, combine rules, shaping and resolve in one object.
#include <pybind11/stl.h>

#include <algorithm>
#include <numeric>

#include "arrays.hpp"
#include "contextsteer/pipeline/pipeline.hpp"

namespace contextsteer::bindings {

namespace {

std::shared_ptr<Pipeline> make_pipeline(const std::vector<std::shared_ptr<Behavior>>& behaviors, int slots, Real offset,
                                        const std::string& interest_rule, const std::string& danger_rule,
                                        const std::string& danger_mode, Real threshold, Real margin,
                                        const std::string& select, Real blur_interest, Real blur_danger, Real smooth,
                                        Real hysteresis, Real turn_back, Real turn_back_wait) {
  PipelineConfig c;
  c.slots = slots;
  c.offset = offset;
  c.interest_rule = parse_combine_rule(interest_rule, "interest_rule");
  c.danger_rule = parse_combine_rule(danger_rule, "danger_rule");
  c.resolve.danger_mode = parse_danger_mode(danger_mode, "danger_mode");
  c.resolve.threshold = threshold;
  c.resolve.margin = margin;
  c.resolve.select = parse_select_method(select, "select");
  c.blur_interest = blur_interest;
  c.blur_danger = blur_danger;
  c.smooth = smooth;
  c.resolve.hysteresis = hysteresis;
  c.turn_back = turn_back;
  c.turn_back_wait = turn_back_wait;
  return std::make_shared<Pipeline>(c,
                                    std::vector<std::shared_ptr<const Behavior>>(behaviors.begin(), behaviors.end()));
}

// Evaluates the pipeline once for a batch of agents outside any world; no smoothing
// (there is no previous step). Returns a dict of NumPy arrays.
py::dict evaluate_py(const Pipeline& p, const RealArray& positions, const RealArray& velocities,
                     const RealArray& radius, const RealArray& obstacles) {
  require_shape(positions, "positions", {-1, 2});
  const py::ssize_t n = positions.shape(0);
  const py::ssize_t s = p.config().slots;
  require_shape(velocities, "velocities", {n, 2});
  require_shape(radius, "radius", {n});
  Obstacles scene_obstacles;
  scene_obstacles.add_circles(circles_from(obstacles, "obstacles"));

  py::array_t<Real> interest({n, s}), danger({n, s}), final_map({n, s}), direction({n, py::ssize_t(2)});
  py::array_t<Real> strength(n), slot(n);
  py::array_t<bool> blocked(n);
  SceneView scene;
  scene.agents = static_cast<int>(n);
  scene.positions = positions.data();
  scene.velocities = velocities.data();
  scene.radius = radius.data();
  scene.obstacles = &scene_obstacles;
  Real max_radius = 0;
  for (py::ssize_t a = 0; a < n; ++a) max_radius = std::max(max_radius, radius.data()[a]);
  scene.max_radius = max_radius;
  DecisionBatch out{direction.mutable_data(), strength.mutable_data(), slot.mutable_data(),
                    reinterpret_cast<std::uint8_t*>(blocked.mutable_data()), final_map.mutable_data()};
  MapBatch i_maps{interest.mutable_data(), static_cast<int>(n), static_cast<int>(s)};
  MapBatch d_maps{danger.mutable_data(), static_cast<int>(n), static_cast<int>(s)};
  {
    // Safe: inputs are held by this frame, outputs are not yet visible to Python, and
    // the pipeline's settings are held for reading.
    py::gil_scoped_release release;
    p.begin_reading();
    struct EndReading {
      const Pipeline& p;
      ~EndReading() { p.end_reading(); }
    } end_reading{p};
    SpatialGrid grid;
    // With the agents' radii: kernels read a neighbor's radius from the grid. Rows sized
    // as a world sizes them, by the radius of all but a few large agents.
    const Real smallest = n > 0 ? *std::min_element(radius.data(), radius.data() + n) : Real(0);
    const Real usual_radius = SpatialGrid::usual_radius_of(radius.data(), static_cast<int>(n), smallest, max_radius);
    grid.build(positions.data(), static_cast<int>(n), std::max(p.neighbor_radius() + 2 * usual_radius, Real(1e-3)),
               radius.data());
    // Behaviours that look at agents read every agent of a cell from each agent in it.
    if (p.neighbor_radius() > 0) {
      grid.check_pile(positions.data(), "an evaluation",
                      "spread the agents out, or evaluate them in several smaller batches");
    }
    scene.grid = &grid;
    std::vector<int> agents(n);
    std::iota(agents.begin(), agents.end(), 0);
    Pipeline::Scratch scratch = p.make_scratch();
    p.evaluate(scene, agents.data(), static_cast<int>(n), i_maps, d_maps, out, false, scratch);
  }
  py::dict result;
  result["interest"] = interest;
  result["danger"] = danger;
  result["final"] = final_map;
  result["direction"] = direction;
  result["strength"] = strength;
  result["slot"] = slot;
  result["blocked"] = blocked;
  return result;
}

// A setting of the pipeline as a property: read from its config, and set through
// set_config (checked, taking effect at the next evaluation).
template <class T>
void setting(py::class_<Pipeline, std::shared_ptr<Pipeline>>& c, const char* name, T (*get)(const PipelineConfig&),
             void (*set)(PipelineConfig&, T)) {
  c.def_property(
      name, [get](const Pipeline& p) { return get(p.config()); },
      [set, name](Pipeline& p, T value) {
        PipelineConfig changed = p.config();
        set(changed, value);
        p.set_config(changed, name);
      });
}

template <class E>
void named_setting(py::class_<Pipeline, std::shared_ptr<Pipeline>>& c, const char* name, E& (*at)(PipelineConfig&),
                   E (*parse)(const std::string&, const char*)) {
  c.def_property(
      name, [at](const Pipeline& p) { return std::string(name_of(at(const_cast<PipelineConfig&>(p.config())))); },
      [at, parse, name](Pipeline& p, const std::string& value) {
        PipelineConfig changed = p.config();
        at(changed) = parse(value, name);
        p.set_config(changed, name);
      });
}

}  // namespace

void bind_pipeline(py::module_& m) {
  py::class_<Pipeline, std::shared_ptr<Pipeline>> c(m, "Pipeline");
  c.def(py::init(&make_pipeline), py::arg("behaviors"), py::arg("slots"), py::arg("offset"), py::arg("interest_rule"),
        py::arg("danger_rule"), py::arg("danger_mode"), py::arg("threshold"), py::arg("margin"), py::arg("select"),
        py::arg("blur_interest"), py::arg("blur_danger"), py::arg("smooth"), py::arg("hysteresis"),
        py::arg("turn_back"), py::arg("turn_back_wait"))
      .def_property_readonly("slots", [](const Pipeline& p) { return p.config().slots; })
      .def_property_readonly("offset", [](const Pipeline& p) { return p.config().offset; })
      .def_property_readonly("behaviors",
                             [](const Pipeline& p) {
                               py::list out;
                               for (const auto& b : p.behaviors()) out.append(std::const_pointer_cast<Behavior>(b));
                               return out;
                             })
      .def("evaluate", &evaluate_py, py::arg("positions"), py::arg("velocities"), py::arg("radius"),
           py::arg("obstacles"));
  using C = PipelineConfig;
  setting<Real>(c, "offset", [](const C& k) { return k.offset; }, [](C& k, Real v) { k.offset = v; });
  setting<Real>(
      c, "threshold", [](const C& k) { return k.resolve.threshold; }, [](C& k, Real v) { k.resolve.threshold = v; });
  setting<Real>(c, "margin", [](const C& k) { return k.resolve.margin; }, [](C& k, Real v) { k.resolve.margin = v; });
  setting<Real>(
      c, "hysteresis", [](const C& k) { return k.resolve.hysteresis; }, [](C& k, Real v) { k.resolve.hysteresis = v; });
  setting<Real>(c, "turn_back", [](const C& k) { return k.turn_back; }, [](C& k, Real v) { k.turn_back = v; });
  setting<Real>(
      c, "turn_back_wait", [](const C& k) { return k.turn_back_wait; }, [](C& k, Real v) { k.turn_back_wait = v; });
  setting<Real>(
      c, "blur_interest", [](const C& k) { return k.blur_interest; }, [](C& k, Real v) { k.blur_interest = v; });
  setting<Real>(c, "blur_danger", [](const C& k) { return k.blur_danger; }, [](C& k, Real v) { k.blur_danger = v; });
  setting<Real>(c, "smooth", [](const C& k) { return k.smooth; }, [](C& k, Real v) { k.smooth = v; });
  named_setting<CombineRule>(
      c, "interest_rule", [](C& k) -> CombineRule& { return k.interest_rule; }, &parse_combine_rule);
  named_setting<CombineRule>(c, "danger_rule", [](C& k) -> CombineRule& { return k.danger_rule; }, &parse_combine_rule);
  named_setting<DangerMode>(
      c, "danger_mode", [](C& k) -> DangerMode& { return k.resolve.danger_mode; }, &parse_danger_mode);
  named_setting<SelectMethod>(
      c, "select", [](C& k) -> SelectMethod& { return k.resolve.select; }, &parse_select_method);
}

}  // namespace contextsteer::bindings
