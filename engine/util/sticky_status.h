// StickyStatus: the first error of a builder or merger, which every later
// call returns, and whether it is done (finished or abandoned), after which
// it takes no call.
#ifndef SIMDEX_ENGINE_UTIL_STICKY_STATUS_H_
#define SIMDEX_ENGINE_UTIL_STICKY_STATUS_H_

#include "simdex/status.h"

namespace simdex::util {

struct StickyStatus {
  Status status;
  bool done = false;

  // `status` after an error; once done, InvalidArgument(refusal), which
  // then sticks; else OK.
  Status Check(const char* refusal) {
    if (!status.ok()) return status;
    if (done) return status = Status::InvalidArgument(refusal);
    return Status::OK();
  }
};

}  // namespace simdex::util

#endif  // SIMDEX_ENGINE_UTIL_STICKY_STATUS_H_
