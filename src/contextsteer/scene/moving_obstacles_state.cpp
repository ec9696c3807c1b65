// MovingObstacles::save and load: every column as its length and its bytes, in a fixed
// order, so that a loaded set steps on to the bit as the saved one would.
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "contextsteer/scene/moving_obstacles.hpp"

namespace contextsteer {
namespace {

class Writer {
 public:
  template <class T>
  void put(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto* p = reinterpret_cast<const unsigned char*>(&value);
    bytes.insert(bytes.end(), p, p + sizeof(T));
  }
  template <class T>
  void put(const std::vector<T>& values) {
    put(static_cast<std::uint64_t>(values.size()));
    for (const T& v : values) put(v);
  }
  void put(const std::vector<ObstaclePath>& paths) {
    put(static_cast<std::uint64_t>(paths.size()));
    for (const ObstaclePath& p : paths)
      put(p.waypoints), put(p.speed), put(p.back_and_forth), put(p.next), put(p.direction);
  }
  std::vector<unsigned char> bytes;
};

class Reader {
 public:
  explicit Reader(const std::vector<unsigned char>& bytes) : bytes_(bytes) {}
  template <class T>
  void get(T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    if (bytes_.size() - at_ < sizeof(T)) fail();
    std::memcpy(&value, bytes_.data() + at_, sizeof(T));
    at_ += sizeof(T);
  }
  template <class T>
  void get(std::vector<T>& values) {
    std::uint64_t n = 0;
    get(n);
    if (n > (bytes_.size() - at_) / sizeof(T)) fail();
    values.resize(n);
    for (T& v : values) get(v);
  }
  void get(std::vector<ObstaclePath>& paths) {
    std::uint64_t n = 0;
    get(n);
    if (n > bytes_.size() - at_) fail();
    paths.resize(n);
    for (ObstaclePath& p : paths) get(p.waypoints), get(p.speed), get(p.back_and_forth), get(p.next), get(p.direction);
  }
  bool done() const { return at_ == bytes_.size(); }
  [[noreturn]] static void fail() {
    throw std::invalid_argument("moving obstacles: expected the bytes of a saved set, got others");
  }

 private:
  const std::vector<unsigned char>& bytes_;
  std::size_t at_ = 0;
};

}  // namespace

std::vector<unsigned char> MovingObstacles::save() const {
  check();  // load() refuses what check() refuses: no bytes are made that cannot be loaded
  Writer w;
  w.put(kind_), w.put(layer_), w.put(local_start_), w.put(local_), w.put(extent_);
  w.put(now_->position), w.put(now_->velocity), w.put(now_->angle), w.put(now_->angular_velocity), w.put(paths_);
  w.put(spawn_position_), w.put(spawn_velocity_), w.put(spawn_angle_), w.put(spawn_angular_velocity_);
  w.put(spawn_paths_);
  return w.bytes;
}

void MovingObstacles::load(const std::vector<unsigned char>& bytes) {
  MovingObstacles m;
  Reader r(bytes);
  r.get(m.kind_), r.get(m.layer_), r.get(m.local_start_), r.get(m.local_), r.get(m.extent_);
  r.get(m.now_->position), r.get(m.now_->velocity), r.get(m.now_->angle), r.get(m.now_->angular_velocity),
      r.get(m.paths_);
  r.get(m.spawn_position_), r.get(m.spawn_velocity_), r.get(m.spawn_angle_), r.get(m.spawn_angular_velocity_);
  r.get(m.spawn_paths_);
  const std::size_t n = m.kind_.size();
  bool fits = r.done() && m.layer_.size() == n && m.local_start_.size() == n + 1 && m.extent_.size() == n &&
              m.now_->position.size() == 2 * n && m.now_->velocity.size() == 2 * n && m.now_->angle.size() == n &&
              m.now_->angular_velocity.size() == n && m.paths_.size() == n && m.spawn_position_.size() == 2 * n &&
              m.spawn_velocity_.size() == 2 * n && m.spawn_angle_.size() == n &&
              m.spawn_angular_velocity_.size() == n && m.spawn_paths_.size() == n && m.local_start_[0] == 0 &&
              static_cast<std::size_t>(m.local_start_[n]) == m.local_.size();
  for (std::size_t b = 0; fits && b < n; ++b) {
    const int size = m.local_start_[b + 1] - m.local_start_[b];
    const auto kind = static_cast<BodyKind>(m.kind_[b]);
    fits = size >= 1 && (kind != BodyKind::kCircle || size == 1) && (kind != BodyKind::kSegment || size == 2) &&
           (kind != BodyKind::kPolygon || size >= 3) && m.kind_[b] >= 0 && m.kind_[b] <= 2;
    for (const ObstaclePath* p : {&m.paths_[b], &m.spawn_paths_[b]}) {
      const int count = static_cast<int>(p->waypoints.size());
      fits = fits && (count == 0 || (p->next >= 0 && p->next < count && (p->direction == 1 || p->direction == -1)));
    }
  }
  if (!fits) Reader::fail();
  m.check();
  m.rebuild_shapes();
  *this = std::move(m);
}

}  // namespace contextsteer
