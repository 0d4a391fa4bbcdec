// OnceCheck: a verification that runs once per reader, the first time
// something needs it, from whichever thread gets there first; every later
// call returns the same result after one atomic load.
//
// Thread safety: Run() may be called concurrently; callers that arrive while
// the check runs wait for it (std::call_once).
#ifndef SIMDEX_ENGINE_INDEX_ONCE_CHECK_H_
#define SIMDEX_ENGINE_INDEX_ONCE_CHECK_H_

#include <atomic>
#include <mutex>

#include "simdex/status.h"

namespace simdex::index {

class OnceCheck {
 public:
  // Runs check() unless it has run, and returns its result.
  template <typename Check>
  const Status& Run(Check&& check) const {
    if (!done_.load(std::memory_order_acquire)) [[unlikely]] {
      std::call_once(once_, [&] {
        status_ = check();
        done_.store(true, std::memory_order_release);
      });
    }
    return status_;
  }

 private:
  mutable std::once_flag once_;
  mutable Status status_;
  mutable std::atomic<bool> done_{false};
};

}  // namespace simdex::index

#endif  // SIMDEX_ENGINE_INDEX_ONCE_CHECK_H_
