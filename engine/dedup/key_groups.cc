#include "engine/dedup/key_groups.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <thread>
#include <vector>

#include "engine/index/external_sorter.h"
#include "engine/index/radix_sort.h"

namespace simdex::dedup {

namespace {

using Clock = std::chrono::steady_clock;
double Seconds(Clock::time_point since) { return std::chrono::duration<double>(Clock::now() - since).count(); }

// Walks sorted records, visiting each group of at least min_size. A group
// may continue in the next call (streamed records): Feed() keeps the open
// group until a record with another prefix or Finish() closes it.
class GroupScanner {
 public:
  GroupScanner(int group_bits, size_t min_size, GroupVisitor* visitor)
      : prefix_mask_(~uint64_t{0} << (64 - group_bits)), min_size_(min_size), visitor_(visitor) {}

  Status Feed(const uint64_t* records, size_t n) {
    for (size_t i = 0; i < n; ++i) {
      const uint64_t prefix = records[i] & prefix_mask_;
      if (prefix != prefix_ || ids_.empty()) {
        SIMDEX_RETURN_IF_ERROR(Close());
        prefix_ = prefix;
      }
      ids_.push_back(static_cast<uint32_t>(records[i] & ~prefix_mask_));
    }
    return Status::OK();
  }

  Status Finish() { return Close(); }

 private:
  Status Close() {
    Status s;
    if (ids_.size() >= min_size_ && !ids_.empty()) s = visitor_->Visit(prefix_, ids_);
    ids_.clear();
    return s;
  }

  const uint64_t prefix_mask_;
  const size_t min_size_;
  GroupVisitor* visitor_;
  uint64_t prefix_ = 0;
  std::vector<uint32_t> ids_;
};

uint64_t Record(const BlockPermutation& perm, uint64_t prefix_mask, uint64_t fingerprint, uint64_t index) {
  return (perm.Apply(fingerprint) & prefix_mask) | index;
}

// The in-memory path: radix sort, then `threads` parts visited in parallel.
Status SortedInMemory(std::span<const uint64_t> distinct, const BlockPermutation& perm, int group_bits,
                      const KeyGroupOptions& o, const std::function<std::unique_ptr<GroupVisitor>(int)>& make_visitor,
                      KeyGroupStats* stats) {
  const uint64_t prefix_mask = ~uint64_t{0} << (64 - group_bits);
  const size_t n = distinct.size();
  auto start = Clock::now();
  std::vector<uint64_t> records(n);
  {
    std::vector<uint64_t> scratch(n);
    for (size_t i = 0; i < n; ++i) records[i] = Record(perm, prefix_mask, distinct[i], i);
    index::RadixSort(records.data(), scratch.data(), n, o.threads);
  }
  stats->seconds_sorting += Seconds(start);
  start = Clock::now();

  // Part boundaries, moved forward to the start of a group.
  const int parts = static_cast<int>(std::max<size_t>(1, std::min<size_t>(o.threads, n / 4096 + 1)));
  std::vector<size_t> bounds(parts + 1, n);
  bounds[0] = 0;
  for (int p = 1; p < parts; ++p) {
    size_t b = std::max(bounds[p - 1], n * p / parts);
    while (b > 0 && b < n && (records[b] & prefix_mask) == (records[b - 1] & prefix_mask)) ++b;
    bounds[p] = b;
  }
  std::vector<std::unique_ptr<GroupVisitor>> visitors;
  for (int p = 0; p < parts; ++p) visitors.push_back(make_visitor(p));
  std::vector<Status> status(parts);
  auto run = [&](int p) {
    GroupScanner scanner(group_bits, o.min_group_size, visitors[p].get());
    status[p] = scanner.Feed(records.data() + bounds[p], bounds[p + 1] - bounds[p]);
    if (status[p].ok()) status[p] = scanner.Finish();
  };
  std::vector<std::thread> workers;
  for (int p = 1; p < parts; ++p) workers.emplace_back(run, p);
  run(0);
  for (std::thread& w : workers) w.join();
  stats->seconds_visiting += Seconds(start);
  for (const Status& s : status) SIMDEX_RETURN_IF_ERROR(s);
  return Status::OK();
}

// The spilling path: the external sorter, streamed through one visitor.
Status SortedExternally(std::span<const uint64_t> distinct, const BlockPermutation& perm, int group_bits,
                        const KeyGroupOptions& o, const std::function<std::unique_ptr<GroupVisitor>(int)>& make_visitor,
                        KeyGroupStats* stats) {
  const uint64_t prefix_mask = ~uint64_t{0} << (64 - group_bits);
  auto start = Clock::now();
  index::ExternalSorter<uint64_t> sorter({.memory_bytes = o.memory_bytes, .tmpdir = o.tmpdir, .threads = o.threads});
  std::vector<uint64_t> buf(size_t{1} << 13);
  for (size_t i = 0; i < distinct.size(); i += buf.size()) {
    const size_t n = std::min(buf.size(), distinct.size() - i);
    for (size_t j = 0; j < n; ++j) buf[j] = Record(perm, prefix_mask, distinct[i + j], i + j);
    SIMDEX_RETURN_IF_ERROR(sorter.Add(buf.data(), n));
  }
  SIMDEX_RETURN_IF_ERROR(sorter.Finish());
  stats->seconds_sorting += Seconds(start);
  start = Clock::now();
  std::unique_ptr<GroupVisitor> visitor = make_visitor(0);
  GroupScanner scanner(group_bits, o.min_group_size, visitor.get());
  buf.resize(size_t{1} << 16);
  for (size_t got = 0;;) {
    SIMDEX_RETURN_IF_ERROR(sorter.Read(buf.data(), buf.size(), &got));
    if (got == 0) break;
    SIMDEX_RETURN_IF_ERROR(scanner.Feed(buf.data(), got));
  }
  SIMDEX_RETURN_IF_ERROR(scanner.Finish());
  stats->spilled_runs += sorter.stats().runs_spilled;
  stats->spilled_bytes += sorter.stats().bytes_spilled;
  stats->seconds_visiting += Seconds(start);
  return Status::OK();
}

}  // namespace

int GroupBits(int key_bits, uint64_t distinct_count) {
  const int id_bits = std::max(1, static_cast<int>(std::bit_width(distinct_count > 0 ? distinct_count - 1 : 0)));
  return std::min(key_bits, 64 - id_bits);
}

Status ForEachKeyGroup(std::span<const uint64_t> distinct, const BlockPermutation& perm, const KeyGroupOptions& options,
                       const std::function<std::unique_ptr<GroupVisitor>(int part)>& make_visitor,
                       KeyGroupStats* stats) {
  ++stats->tables;
  stats->records += distinct.size();
  if (distinct.empty()) return Status::OK();
  const int group_bits = GroupBits(perm.key_bits(), distinct.size());
  if (distinct.size() <= options.memory_bytes / 16) {
    return SortedInMemory(distinct, perm, group_bits, options, make_visitor, stats);
  }
  return SortedExternally(distinct, perm, group_bits, options, make_visitor, stats);
}

}  // namespace simdex::dedup
