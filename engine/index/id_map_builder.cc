#include "engine/index/id_map_builder.h"

#include <xxhash.h>

#include <algorithm>
#include <string>

#include "engine/index/id_map_section.h"
#include "engine/index/string_order.h"

namespace simdex::index {

IdMapBuilder::IdMapBuilder(size_t memory_bytes, std::string tmpdir)
    : memory_bytes_(memory_bytes == 0 ? 0 : std::max(memory_bytes, util::kExternalSortMinMemoryBytes)),
      tmpdir_(std::move(tmpdir)) {}
IdMapBuilder::IdMapBuilder(IdMapBuilder&&) noexcept = default;
IdMapBuilder& IdMapBuilder::operator=(IdMapBuilder&&) noexcept = default;
IdMapBuilder::~IdMapBuilder() = default;

namespace {

constexpr int kIndexBits = 40;  // a slot's low bits: index + 1
constexpr uint64_t kIndexMask = (uint64_t{1} << kIndexBits) - 1;

uint64_t HashOf(std::string_view id) { return XXH3_64bits(id.data(), id.size()); }
uint64_t TagOf(uint64_t hash) { return hash >> kIndexBits; }

}  // namespace

uint64_t IdMapBuilder::Intern(std::string_view id) {
  if (!status_.ok()) return next_number_++;  // Finish() reports the error
  Held& h = *held_;
  const uint64_t hash = HashOf(id);
  const size_t mask = h.slots.size() - 1;
  size_t pos = static_cast<size_t>(hash) & mask;
  for (;; pos = (pos + 1) & mask) {
    const uint64_t slot = h.slots[pos];
    if (slot == 0) break;
    if ((slot >> kIndexBits) == TagOf(hash) && h.by_number[(slot & kIndexMask) - 1] == id) {
      return first_number_ + (slot & kIndexMask) - 1;
    }
  }
  char* bytes = static_cast<char*>(h.arena.allocate(id.size(), 1));
  std::copy(id.begin(), id.end(), bytes);
  h.by_number.emplace_back(bytes, id.size());
  h.slots[pos] = (TagOf(hash) << kIndexBits) | h.by_number.size();
  if (2 * h.by_number.size() > h.slots.size()) GrowSlots();
  held_bytes_ += kIdMapBytesPerId + id.size();
  const uint64_t number = next_number_++;
  const bool full = memory_bytes_ != 0 && held_bytes_ >= memory_bytes_;
  if (full || h.by_number.size() == kIndexMask) status_ = Spill();
  return number;
}

// Doubles the table and places every held id again.
void IdMapBuilder::GrowSlots() {
  Held& h = *held_;
  std::vector<uint64_t> slots(h.slots.size() * 2, 0);
  const size_t mask = slots.size() - 1;
  for (uint64_t i = 0; i < h.by_number.size(); ++i) {
    const uint64_t hash = HashOf(h.by_number[i]);
    size_t pos = static_cast<size_t>(hash) & mask;
    while (slots[pos] != 0) pos = (pos + 1) & mask;
    slots[pos] = (TagOf(hash) << kIndexBits) | (i + 1);
  }
  h.slots.swap(slots);
}

// The held ids' indexes (number - first_number_) in their strings' order.
std::vector<uint64_t> IdMapBuilder::HeldInOrder() const {
  const auto& by_number = held_->by_number;
  return OrderOfStrings(by_number.size(), [&](uint64_t i) { return by_number[i]; });
}

// Writes the held ids, sorted, as a run and empties the map.
Status IdMapBuilder::Spill() {
  const std::vector<uint64_t> order = HeldInOrder();
  if (runs_file_ == nullptr) SIMDEX_RETURN_IF_ERROR(StringRunFile::Create(tmpdir_, &runs_file_));
  std::unique_ptr<StringRunWriter> writer;
  SIMDEX_RETURN_IF_ERROR(StringRunWriter::Create(runs_file_.get(), order.size(), &writer));
  for (uint64_t i : order) SIMDEX_RETURN_IF_ERROR(writer->Add(held_->by_number[i], first_number_ + i));
  runs_.emplace_back();
  SIMDEX_RETURN_IF_ERROR(writer->Finish(&runs_.back()));
  ++stats_.runs_spilled;
  held_ = std::make_unique<Held>();
  first_number_ = next_number_;
  held_bytes_ = 0;
  return Status::OK();
}

Status IdMapBuilder::Finish() {
  SIMDEX_RETURN_IF_ERROR(status_);
  if (!runs_.empty()) {
    status_ = FinishSpilled();
    return status_;
  }
  const std::vector<uint64_t> order = HeldInOrder();
  rank_memory_.assign(order.size(), 0);
  std::vector<std::string_view> sorted;
  sorted.reserve(order.size());
  for (uint64_t r = 0; r < order.size(); ++r) {
    rank_memory_[order[r]] = r;
    sorted.push_back(held_->by_number[order[r]]);
  }
  format::EncodeIdMap(sorted, &section_memory_);
  distinct_ = order.size();
  held_.reset();
  ranks_ = rank_memory_;
  section_ = section_memory_;
  return status_ = FinishView();
}

Status IdMapBuilder::FinishView() {
  return reader_.Init(reinterpret_cast<const uint8_t*>(section_.data()), section_.size());
}

// Merges runs fan_in at a time into longer ones until at most fan_in are left.
Status IdMapBuilder::MergeDown(size_t fan_in) {
  while (runs_.size() > fan_in) {
    std::vector<const StringRun*> group;
    uint64_t records = 0;
    for (size_t i = 0; i < fan_in; ++i) {
      group.push_back(&runs_[i]);
      records += runs_[i].records;
    }
    std::unique_ptr<StringRunWriter> writer;
    SIMDEX_RETURN_IF_ERROR(StringRunWriter::Create(runs_file_.get(), records, &writer));
    SIMDEX_RETURN_IF_ERROR(MergeStringRuns(
        *runs_file_, group, [&](std::string_view s, uint64_t number) { return writer->Add(s, number); }));
    StringRun merged;
    SIMDEX_RETURN_IF_ERROR(writer->Finish(&merged));
    for (size_t i = 0; i < fan_in; ++i) runs_file_->Discard(runs_[i].offset, runs_[i].bytes);  // their space back
    runs_.erase(runs_.begin(), runs_.begin() + static_cast<std::ptrdiff_t>(fan_in));
    runs_.push_back(std::move(merged));
    ++stats_.merge_passes;
  }
  return Status::OK();
}

// 1. merges the runs: each new string gets the next rank and goes to the
//    section writer, and (number, rank) to a sorter by number;
// 2. the sorted pairs become the ranks file; 3. the section is written.
Status IdMapBuilder::FinishSpilled() {
  if (!held_->by_number.empty()) SIMDEX_RETURN_IF_ERROR(Spill());
  held_.reset();
  // Half the budget for the runs' read buffers, half for the sorter.
  const size_t fan_in = std::clamp<size_t>(memory_bytes_ / 2 / kStringRunReaderBytes, 2, util::kExternalSortMaxOpenRuns);
  SIMDEX_RETURN_IF_ERROR(MergeDown(fan_in));

  SIMDEX_RETURN_IF_ERROR(IdMapSectionWriter::Create(tmpdir_, &section_writer_));
  util::ExternalSorter<util::FingerprintIdPair> by_number(
      {.memory_bytes = std::max(memory_bytes_ / 2, util::kExternalSortMinMemoryBytes), .tmpdir = tmpdir_});
  SIMDEX_RETURN_IF_ERROR(by_number.status());
  std::vector<const StringRun*> all;
  for (const StringRun& run : runs_) all.push_back(&run);
  std::string previous;
  std::vector<util::FingerprintIdPair> pairs;
  pairs.reserve(4096);
  auto add = [&](std::string_view s, uint64_t number) -> Status {
    if (section_writer_->size() == 0 || s != previous) {
      previous.assign(s);
      SIMDEX_RETURN_IF_ERROR(section_writer_->Add(s));
    }
    pairs.push_back({number, section_writer_->size() - 1});
    if (pairs.size() < 4096) return Status::OK();
    Status st = by_number.Add(pairs.data(), pairs.size());
    pairs.clear();
    return st;
  };
  SIMDEX_RETURN_IF_ERROR(MergeStringRuns(*runs_file_, all, add));
  SIMDEX_RETURN_IF_ERROR(by_number.Add(pairs.data(), pairs.size()));
  ++stats_.merge_passes;
  runs_.clear();
  runs_file_.reset();  // the runs' file goes
  distinct_ = section_writer_->size();

  // 2. Ranks, by provisional number (every number 0..next_number_-1 once).
  SIMDEX_RETURN_IF_ERROR(by_number.Finish());
  SIMDEX_RETURN_IF_ERROR(SortedValues::Create(next_number_, 0, tmpdir_, &rank_values_));  // a scratch file
  {
    SortedStream<util::FingerprintIdPair> ranks(&by_number);
    uint64_t expected = 0;
    for (util::FingerprintIdPair p; ranks.Next(&p); ++expected) {
      if (p.fingerprint != expected) {
        return Status::Corruption("id map runs: provisional number " + std::to_string(expected) + " is missing");
      }
      SIMDEX_RETURN_IF_ERROR(rank_values_->Append(p.id));
    }
    SIMDEX_RETURN_IF_ERROR(ranks.status());
    if (expected != next_number_) {
      return Status::Corruption("id map runs: " + std::to_string(expected) + " of " + std::to_string(next_number_) +
                                " provisional numbers came back");
    }
  }
  SIMDEX_RETURN_IF_ERROR(rank_values_->Finish());
  ranks_ = rank_values_->values();

  // 3. The section.
  SIMDEX_RETURN_IF_ERROR(section_writer_->Finish());
  section_ = section_writer_->section();
  return FinishView();
}

Status ReaddAsDecimalStrings(util::ExternalSorter<util::FingerprintIdPair>* numeric, IdMapBuilder* map,
                             util::ExternalSorter<util::FingerprintIdPair>* strings) {
  SIMDEX_RETURN_IF_ERROR(strings->status());
  SIMDEX_RETURN_IF_ERROR(numeric->Finish());
  std::vector<util::FingerprintIdPair> batch(4096);
  for (size_t got = 0;;) {
    SIMDEX_RETURN_IF_ERROR(numeric->Read(batch.data(), batch.size(), &got));
    if (got == 0) return Status::OK();
    for (size_t i = 0; i < got; ++i) batch[i].id = map->Intern(std::to_string(batch[i].id));
    SIMDEX_RETURN_IF_ERROR(strings->Add(batch.data(), got));
  }
}

Status AddPairs(std::span<const uint64_t> ids, std::span<const uint64_t> fingerprints, bool string_ids,
                IdMapBuilder* map, uint64_t* min_id, uint64_t* max_id,
                util::ExternalSorter<util::FingerprintIdPair>* sorter) {
  util::FingerprintIdPair buf[1024];
  for (size_t i = 0; i < ids.size(); i += 1024) {
    const size_t n = std::min<size_t>(1024, ids.size() - i);
    for (size_t j = 0; j < n; ++j) {
      const uint64_t id = ids[i + j];
      buf[j] = {fingerprints[i + j], string_ids ? map->Intern(std::to_string(id)) : id};
      if (string_ids) continue;
      *min_id = std::min(*min_id, id);
      *max_id = std::max(*max_id, id);
    }
    SIMDEX_RETURN_IF_ERROR(sorter->Add(buf, n));
  }
  return Status::OK();
}

}  // namespace simdex::index
