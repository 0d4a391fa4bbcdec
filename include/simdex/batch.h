// Batch jobs over documents (de-duplication, fingerprinting, signing), as
// the simdex command runs them.
//
// BatchProgress: what a long job reports as it runs, for a front end to
// show (the command's progress line; Python's callbacks). Its calls come
// from the thread that runs the job, between pieces of work: an
// implementation may be slow to draw, never to return.
#ifndef SIMDEX_BATCH_H_
#define SIMDEX_BATCH_H_

#include <cstdint>
#include <string_view>

namespace simdex {

class BatchProgress {
 public:
  virtual ~BatchProgress() = default;
  // Documents read so far, and the bytes of input they took (decompressed).
  virtual void Update(uint64_t documents, uint64_t bytes) = 0;
  // A stage after the reading: "joining 1000000 documents", "confirming pairs".
  virtual void Update(std::string_view status) = 0;
};

// A BatchProgress that reports nothing.
class NoProgress : public BatchProgress {
 public:
  void Update(uint64_t, uint64_t) override {}
  void Update(std::string_view) override {}
};

}  // namespace simdex

#endif  // SIMDEX_BATCH_H_
