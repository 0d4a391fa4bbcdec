#include "bench/harness/build_child.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#include "bench/harness/child_process.h"

namespace simdex::bench {
namespace {

Status Build(const std::string& path, const BuildOptions& options, std::span<const uint64_t> fps,
             BuildStats* stats) {
  std::unique_ptr<IndexBuilder> builder;
  SIMDEX_RETURN_IF_ERROR(IndexBuilder::Create(path, options, &builder));
  // Ids in slices, so the child does not allocate an id array as large as
  // the input just to hand it over.
  constexpr size_t kSlice = size_t{1} << 16;
  std::vector<uint64_t> ids(kSlice);
  for (size_t begin = 0; begin < fps.size(); begin += kSlice) {
    const size_t len = std::min(kSlice, fps.size() - begin);
    for (size_t i = 0; i < len; ++i) ids[i] = begin + i;
    SIMDEX_RETURN_IF_ERROR(builder->Add(std::span(ids.data(), len), fps.subspan(begin, len)));
  }
  SIMDEX_RETURN_IF_ERROR(builder->Finish());
  *stats = builder->stats();
  return Status::OK();
}

}  // namespace

Status BuildIndexInChild(const std::string& path, const BuildOptions& options,
                         std::span<const uint64_t> fps, ChildBuildResult* out) {
  static_assert(std::is_trivially_copyable_v<BuildStats>);
  struct Report {
    BuildStats stats;
    double seconds;
  };
  ChildResult child;
  Status s = RunInChild(path, [&](std::string* report) {
    Report r{};
    const auto t0 = std::chrono::steady_clock::now();
    Status built = Build(path, options, fps, &r.stats);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    report->assign(reinterpret_cast<const char*>(&r), sizeof(r));
    return built;
  }, &child);
  if (child.report.size() == sizeof(Report)) {
    Report r;
    std::memcpy(&r, child.report.data(), sizeof(r));
    out->stats = r.stats;
    out->seconds = r.seconds;
  }
  out->start_rss_bytes = child.start_rss_bytes;
  out->peak_rss_bytes = child.peak_rss_bytes;
  return s;
}

}  // namespace simdex::bench
