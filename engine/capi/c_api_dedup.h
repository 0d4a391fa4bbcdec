// The parts of the C interface's de-duplication (c_api_minhash_dedup.cc)
// that do not depend on the method, for SimHash's (DeduplicateBySimHash,
// include/simdex/batch.h) to share: option checks, records copied by
// range, and pairs read once into memory that the result keeps.
#ifndef SIMDEX_ENGINE_CAPI_C_API_DEDUP_H_
#define SIMDEX_ENGINE_CAPI_C_API_DEDUP_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/capi/c_api_internal.h"
#include "simdex/simdex_c.h"
#include "simdex/status.h"

namespace simdex::capi {

// InvalidArgument unless every reserved field of an options struct is 0
// (what its init function sets), so that a later version may give them a
// meaning whose 0 is today's behaviour.
template <size_t N>
Status CheckReserved(int32_t reserved32, const uint64_t (&reserved)[N], std::string_view what) {
  if (reserved32 != 0) {
    return Status::InvalidArgument(std::string(what) +
                                   ": reserved32 is not 0 (initialise the options with their init function)");
  }
  for (size_t i = 0; i < N; ++i) {
    if (reserved[i] != 0) {
      return Status::InvalidArgument(std::string(what) + ": reserved[" + std::to_string(i) +
                                     "] is not 0 (initialise the options with their init function)");
    }
  }
  return Status::OK();
}

// The readers behind `count` index handles (reader_of(handle)), appended
// to *out; InvalidArgument for a NULL array or handle.
template <typename Handle, typename Reader, typename ReaderOf>
Status AgainstReaders(const Handle* const* handles, size_t count, std::vector<Reader>* out, ReaderOf&& reader_of) {
  if (handles == nullptr && count > 0) return Status::InvalidArgument("against is NULL with against_count > 0");
  for (size_t i = 0; i < count; ++i) {
    if (handles[i] == nullptr) return Status::InvalidArgument("against[" + std::to_string(i) + "] is NULL");
    out->push_back(reader_of(handles[i]));
  }
  return Status::OK();
}

// Copies records first .. first + count - 1 (record_of(ordinal) gives each)
// to out; SIMDEX_INVALID_ARGUMENT without a result, for a range past
// `size`, or a NULL out with count > 0.
template <typename Result, typename CRecord, typename RecordOf>
simdex_code CopyRecords(const Result* result, uint64_t first, size_t count, CRecord* out, RecordOf&& record_of) {
  if (result == nullptr || (out == nullptr && count > 0)) return SIMDEX_INVALID_ARGUMENT;
  const uint64_t size = result->size();
  if (first > size || count > size - first) return SIMDEX_INVALID_ARGUMENT;
  for (size_t i = 0; i < count; ++i) out[i] = record_of(*result, first + i);
  return SIMDEX_OK;
}

// A result's pairs, which the C++ result streams once from its sorted
// spill: read into memory at the first call and kept, so that the caller
// may ask again.
template <typename Pair>
class PairCache {
 public:
  bool read() const { return read_; }

  // On the first call, fill(&pairs) reads them; then sets *pairs (NULL
  // when there are none) and *count.
  template <typename Fill>
  simdex_code Read(const Pair** pairs, size_t* count, char** errmsg, Fill&& fill) {
    if (!read_) {
      std::vector<Pair> got;
      const Status s = fill(&got);
      if (!s.ok()) return FromStatus(s, errmsg);
      pairs_ = std::move(got);
      read_ = true;
    }
    *pairs = pairs_.empty() ? nullptr : pairs_.data();
    *count = pairs_.size();
    return Succeed(errmsg);
  }

 private:
  std::vector<Pair> pairs_;
  bool read_ = false;
};

}  // namespace simdex::capi

#endif  // SIMDEX_ENGINE_CAPI_C_API_DEDUP_H_
