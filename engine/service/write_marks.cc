#include "engine/service/write_marks.h"

#include <algorithm>
#include <functional>

namespace simdex::service {

namespace {

constexpr uint64_t kDocSalt = 3;

// splitmix64's finalizer: every bit of the key moves the slot.
uint64_t Mix(uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

uint64_t HashOf(WriteMarks::Key kind, std::string_view key) {
  return Mix(std::hash<std::string_view>{}(key) + static_cast<uint64_t>(kind));
}

}  // namespace

WriteMarks::WriteMarks() : slots_(kSlots, 0) {}

size_t WriteMarks::Slot(uint64_t hash) { return static_cast<size_t>(hash & (kSlots - 1)); }

void WriteMarks::Mark(Key kind, std::string_view key, uint64_t generation) {
  slots_[Slot(HashOf(kind, key))] = generation;
}

void WriteMarks::MarkDoc(uint64_t seq, uint64_t generation) {
  slots_[Slot(Mix(seq * 4 + kDocSalt))] = generation;
}

void WriteMarks::MarkDocsBelow(uint64_t end, uint64_t generation) {
  docs_below_ = std::max(docs_below_, end);
  docs_below_generation_ = generation;
}

bool WriteMarks::WrittenSince(Key kind, std::string_view key, uint64_t seen) const {
  return slots_[Slot(HashOf(kind, key))] > seen;
}

bool WriteMarks::DocWrittenSince(uint64_t seq, uint64_t seen) const {
  if (seq < docs_below_ && docs_below_generation_ > seen) return true;
  return slots_[Slot(Mix(seq * 4 + kDocSalt))] > seen;
}

}  // namespace simdex::service
