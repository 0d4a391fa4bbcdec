// Timeline: when each sequence number was assigned, to the second, for the
// docId service's retention window.
//
// The service gives every article a sequence number under its decision
// lock and stamps it with the clock, never going back in time, so seconds
// are non-decreasing in seq. The timeline keeps one (second, first seq of
// that second) point per second that saw an article: at most one point a
// second (172,800 for a 48-hour window), whatever the rate. The entries of
// a window are then the seqs from FirstSeqAfter(now - window) on.
//
// Thread safety: every method may be called from any thread.
#ifndef SIMDEX_ENGINE_SERVICE_TIMELINE_H_
#define SIMDEX_ENGINE_SERVICE_TIMELINE_H_

#include <cstdint>
#include <mutex>
#include <vector>

namespace simdex::service {

class Timeline {
 public:
  struct Point {
    int64_t second;
    uint64_t first_seq;
  };

  // Records that `seq` was assigned at `second` (a new point when the
  // second is). REQUIRES: second and seq not smaller than those recorded
  // before.
  void Record(int64_t second, uint64_t seq);

  // The first seq assigned at a second later than `second`, or `next_seq`
  // (the first seq not yet assigned) when none was.
  uint64_t FirstSeqAfter(int64_t second, uint64_t next_seq) const;

  // The latest second recorded (INT64_MIN when empty).
  int64_t last_second() const;

  // Forgets the points of seconds <= `second`, keeping what FirstSeqAfter
  // answers for every later second.
  void DropThrough(int64_t second);

 private:
  mutable std::mutex mu_;
  std::vector<Point> points_;  // increasing seconds
  size_t dropped_ = 0;         // points_[0, dropped_) are forgotten
};

}  // namespace simdex::service

#endif  // SIMDEX_ENGINE_SERVICE_TIMELINE_H_
