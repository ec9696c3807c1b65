// One call at a time on an object that several threads can reach.
//
// The Python bindings release the GIL while a world steps, so another Python thread can
// call into the same world meanwhile. A call that would change the world (or rebuild
// its grid) under a running step would corrupt it or crash the interpreter; with this
// flag it throws instead, naming itself.
#pragma once

#include <atomic>
#include <stdexcept>
#include <string>

namespace contextsteer {

class BusyFlag {
 public:
  // Raises the flag for its lifetime; throws std::runtime_error naming `call` when the
  // flag is already up (another call holds it), leaving it to that call.
  class Hold {
   public:
    Hold(BusyFlag& flag, const char* call) : flag_(flag) {
      if (flag_.busy_.exchange(true, std::memory_order_acquire)) throw busy_error(call);
    }
    ~Hold() { flag_.busy_.store(false, std::memory_order_release); }
    Hold(const Hold&) = delete;
    Hold& operator=(const Hold&) = delete;

   private:
    BusyFlag& flag_;
  };

  // Throws std::runtime_error naming `call` while a Hold is alive.
  void check_idle(const char* call) const {
    if (busy_.load(std::memory_order_acquire)) throw busy_error(call);
  }

 private:
  static std::runtime_error busy_error(const char* call) {
    return std::runtime_error(std::string(call) +
                              ": the world is busy with step() or run() in another thread; call again once it returns");
  }

  std::atomic<bool> busy_{false};
};

}  // namespace contextsteer
