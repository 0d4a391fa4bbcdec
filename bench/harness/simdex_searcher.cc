#include "bench/harness/simdex_searcher.h"

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <utility>

namespace simdex::bench {

SimdexSearcher::SimdexSearcher(BuildOptions build_options, std::string path, ReaderOptions reader_options)
    : build_options_(std::move(build_options)), path_(std::move(path)), reader_options_(reader_options) {}

SimdexSearcher::~SimdexSearcher() {
  reader_.reset();
  if (built_ && !keep_file_) std::remove(path_.c_str());
}

Status SimdexSearcher::Build(std::span<const uint64_t> fps) {
  std::unique_ptr<IndexBuilder> builder;
  SIMDEX_RETURN_IF_ERROR(IndexBuilder::Create(path_, build_options_, &builder));
  // Ids 0..n-1 in slices, so no id array as large as the input is needed.
  constexpr size_t kSlice = size_t{1} << 16;
  std::vector<uint64_t> ids;
  for (size_t start = 0; start < fps.size(); start += kSlice) {
    const size_t len = std::min(kSlice, fps.size() - start);
    ids.resize(len);
    for (size_t i = 0; i < len; ++i) ids[i] = start + i;
    SIMDEX_RETURN_IF_ERROR(builder->Add(ids, fps.subspan(start, len)));
  }
  SIMDEX_RETURN_IF_ERROR(builder->Finish());
  built_ = true;
  build_stats_ = builder->stats();
  return IndexReader::Open(path_, reader_options_, &reader_);
}

Status SimdexSearcher::Search(uint64_t q, int k, std::vector<Match>* out) const {
  assert(reader_ != nullptr);
  return reader_->Search(q, k, out);
}

void SimdexSearcher::Close() { reader_.reset(); }

Status SimdexSearcher::Reopen() {
  reader_.reset();
  return IndexReader::Open(path_, reader_options_, &reader_);
}

}  // namespace simdex::bench
