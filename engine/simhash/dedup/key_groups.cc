#include "engine/simhash/dedup/key_groups.h"

#include <algorithm>
#include <bit>
#include <vector>

#include "engine/simhash/dedup/permuter.h"
#include "engine/util/external_sorter.h"
#include "engine/util/key_sort.h"

namespace simdex::simhash {

namespace {

// Walks sorted records and hands the groups of at least min_size to the
// visitor in batches of about kBatchIds fingerprints. A group may continue
// in the next call (streamed records): Feed() keeps the last group open
// until a record with another prefix or Finish() closes it.
class GroupScanner {
 public:
  static constexpr size_t kBatchIds = 512;

  GroupScanner(int group_bits, size_t min_size, GroupVisitor* visitor)
      : prefix_mask_(~uint64_t{0} << (64 - group_bits)), min_size_(std::max<size_t>(1, min_size)), visitor_(visitor) {}

  Status Feed(const uint64_t* records, size_t n) {
    size_t i = 0;
    // Records continuing the open group.
    for (; i < n && !open_.empty() && (records[i] & prefix_mask_) == open_prefix_; ++i) {
      open_.push_back(records[i]);
    }
    if (i == n) return Status::OK();
    SIMDEX_RETURN_IF_ERROR(CloseOpen());
    while (i < n) {
      const uint64_t prefix = records[i] & prefix_mask_;
      size_t j = i + 1;
      while (j < n && (records[j] & prefix_mask_) == prefix) ++j;
      if (j == n) {  // may continue in the next call
        open_prefix_ = prefix;
        for (; i < n; ++i) open_.push_back(records[i]);
        return Status::OK();
      }
      if (j - i >= min_size_) SIMDEX_RETURN_IF_ERROR(Add(prefix, records + i, j - i));
      i = j;
    }
    return Status::OK();
  }

  Status Finish() {
    SIMDEX_RETURN_IF_ERROR(CloseOpen());
    return Send();
  }

 private:
  uint32_t Id(uint64_t record) const { return static_cast<uint32_t>(record & ~prefix_mask_); }

  Status Add(uint64_t prefix, const uint64_t* records, size_t n) {
    batch_.prefixes.push_back(prefix);
    for (size_t i = 0; i < n; ++i) batch_.ids.push_back(Id(records[i]));
    batch_.starts.push_back(static_cast<uint32_t>(batch_.ids.size()));
    return batch_.ids.size() >= kBatchIds ? Send() : Status::OK();
  }

  Status CloseOpen() {
    const Status s = open_.size() >= min_size_ ? Add(open_prefix_, open_.data(), open_.size()) : Status::OK();
    open_.clear();
    return s;
  }

  Status Send() {
    if (batch_.size() == 0) return Status::OK();
    Status s = visitor_->Visit(batch_);
    batch_.Clear();
    return s;
  }

  const uint64_t prefix_mask_;
  const size_t min_size_;
  GroupVisitor* visitor_;
  uint64_t open_prefix_ = 0;
  std::vector<uint64_t> open_;  // the records of the open group
  GroupBatch batch_;
};

}  // namespace

int GroupBits(int key_bits, uint64_t distinct_count) {
  const int id_bits = std::max(1, static_cast<int>(std::bit_width(distinct_count > 0 ? distinct_count - 1 : 0)));
  return std::min(key_bits, 64 - id_bits);
}

KeyGroups::KeyGroups(std::span<const uint64_t> distinct, const KeyGroupOptions& options)
    : distinct_(distinct), options_(options) {}
KeyGroups::~KeyGroups() = default;

// The in-memory path: radix sort, then `threads` parts visited in parallel.
Status KeyGroups::SortedInMemory(const BlockPermutation& perm, int group_bits,
                                 const std::function<std::unique_ptr<GroupVisitor>(int)>& make_visitor) {
  const uint64_t prefix_mask = ~uint64_t{0} << (64 - group_bits);
  const size_t n = distinct_.size();
  if (!records_) {
    records_ = util::MakeLargeArray<uint64_t>(n);
    scratch_ = util::MakeLargeArray<uint64_t>(n);
    if (records_ == nullptr || scratch_ == nullptr) {
      records_.reset();
      scratch_.reset();
      return Status::IOError("cannot allocate " + std::to_string(16 * n) + " bytes to sort a table's keys");
    }
  }
  uint64_t* const records = records_.get();
  const Permuter permuter(perm);
  util::MakeAndSortByLeadingBits([&](size_t i) { return (permuter.Apply(distinct_[i]) & prefix_mask) | i; }, records,
                                 scratch_.get(), n, group_bits, options_.threads);

  const std::vector<size_t> bounds = GroupParts(
      n, options_.threads, [&](size_t i) { return (records[i] & prefix_mask) == (records[i - 1] & prefix_mask); });
  const int parts = static_cast<int>(bounds.size()) - 1;
  std::vector<std::unique_ptr<GroupVisitor>> visitors;
  for (int p = 0; p < parts; ++p) visitors.push_back(make_visitor(p));
  std::vector<Status> status(parts);
  util::internal::OnThreads(parts, [&](int p) {
    GroupScanner scanner(group_bits, options_.min_group_size, visitors[p].get());
    status[p] = scanner.Feed(records + bounds[p], bounds[p + 1] - bounds[p]);
    if (status[p].ok()) status[p] = scanner.Finish();
  });
  for (const Status& s : status) SIMDEX_RETURN_IF_ERROR(s);
  return Status::OK();
}

// The spilling path: the external sorter, streamed through one visitor.
Status KeyGroups::SortedExternally(const BlockPermutation& perm, int group_bits,
                                   const std::function<std::unique_ptr<GroupVisitor>(int)>& make_visitor) {
  const uint64_t prefix_mask = ~uint64_t{0} << (64 - group_bits);
  util::ExternalSorter<uint64_t> sorter(
      {.memory_bytes = options_.memory_bytes, .tmpdir = options_.tmpdir, .threads = options_.threads});
  const Permuter permuter(perm);
  std::vector<uint64_t> buf(size_t{1} << 13);
  for (size_t i = 0; i < distinct_.size(); i += buf.size()) {
    const size_t n = std::min(buf.size(), distinct_.size() - i);
    for (size_t j = 0; j < n; ++j) buf[j] = (permuter.Apply(distinct_[i + j]) & prefix_mask) | (i + j);
    SIMDEX_RETURN_IF_ERROR(sorter.Add(buf.data(), n));
  }
  SIMDEX_RETURN_IF_ERROR(sorter.Finish());
  std::unique_ptr<GroupVisitor> visitor = make_visitor(0);
  GroupScanner scanner(group_bits, options_.min_group_size, visitor.get());
  buf.resize(size_t{1} << 16);
  for (size_t got = 0;;) {
    SIMDEX_RETURN_IF_ERROR(sorter.Read(buf.data(), buf.size(), &got));
    if (got == 0) break;
    SIMDEX_RETURN_IF_ERROR(scanner.Feed(buf.data(), got));
  }
  SIMDEX_RETURN_IF_ERROR(scanner.Finish());
  stats_.spilled_runs += sorter.stats().runs_spilled;
  stats_.spilled_bytes += sorter.stats().bytes_spilled;
  return Status::OK();
}

Status KeyGroups::ForEach(const BlockPermutation& perm,
                          const std::function<std::unique_ptr<GroupVisitor>(int part)>& make_visitor) {
  if (distinct_.empty()) return Status::OK();
  const int group_bits = GroupBits(perm.key_bits(), distinct_.size());
  if (distinct_.size() <= options_.memory_bytes / 16) return SortedInMemory(perm, group_bits, make_visitor);
  return SortedExternally(perm, group_bits, make_visitor);
}

}  // namespace simdex::simhash
