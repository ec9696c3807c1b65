// One call at a time on an object that several threads can reach.
//
// The Python bindings release the GIL while a world steps, so another Python thread can
// call into the same world meanwhile. A call that would change the world (or rebuild
// its grid) under a running step would corrupt it or crash the interpreter; with this
// flag it throws instead, naming itself, what holds the world, and whether the call came
// from another thread or from inside the holding call on its own thread (a behaviour's
// Python code).
#pragma once

#include <atomic>
#include <stdexcept>
#include <string>
#include <thread>

namespace contextsteer {

class BusyFlag {
 public:
  // Raises the flag for its lifetime; throws std::runtime_error naming `call` when the
  // flag is already up (another call holds it), leaving it to that call. `call` is a
  // string that outlives the hold (a literal).
  class Hold {
   public:
    Hold(BusyFlag& flag, const char* call) : flag_(flag) {
      if (flag_.busy_.exchange(true, std::memory_order_acquire)) throw flag_.busy_error(call);
      flag_.holder_.store(call, std::memory_order_relaxed);
      flag_.holder_thread_.store(std::this_thread::get_id(), std::memory_order_relaxed);
    }
    ~Hold() {
      flag_.holder_thread_.store(std::thread::id(), std::memory_order_relaxed);
      flag_.busy_.store(false, std::memory_order_release);
    }
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
  // Says what holds the flag, and whether `call` came from the holder's own thread (a
  // behaviour's Python code, inside the step) or another. The holder is read as it is
  // now: a hold just taken by another thread may not show its name yet.
  std::runtime_error busy_error(const char* call) const {
    const char* holder = holder_.load(std::memory_order_relaxed);
    const std::string what = holder ? std::string(holder) + "()" : "step() or run()";
    if (holder_thread_.load(std::memory_order_relaxed) == std::this_thread::get_id()) {
      return std::runtime_error(std::string(call) + ": the world is busy with " + what +
                                ", and this call came from inside it, on the same thread (from a behaviour's Python "
                                "code): a behaviour may read the world it is evaluated in, not change it");
    }
    return std::runtime_error(std::string(call) + ": the world is busy with " + what +
                              " in another thread; call again once it returns");
  }

  std::atomic<bool> busy_{false};
  std::atomic<const char*> holder_{nullptr};      // the call holding the flag
  std::atomic<std::thread::id> holder_thread_{};  // and its thread (none while idle)
};

}  // namespace contextsteer
