// WriteMarks: which keys of the docId service's store may have been
// written since a reader began, so that a decision can read the store
// before the decision lock and, under it, reuse what it read
// (docid_service.cc, Submit).
//
// Every write of a url record, an article id or a doc record (with its
// representative) happens under the decision lock. The writer takes
// Begin(), marks each key it writes with that generation, writes, and
// calls End(generation). A reader takes Seen() before its reads: every
// write of a generation at or below it had returned, so the reads see it.
// Under the lock, WrittenSince(key, seen) is true for every key that a
// later generation wrote, whether or not the read saw that write, and for
// a few more (keys share a slot): a read then to redo under the lock,
// never an outdated one reused. So a reused read returns what a read under
// the lock would. (Import writes the doc records of seqs that no decision
// can name before the import ends, outside the lock, unmarked.)
//
// Thread safety: Seen() at any time; everything else REQUIRES the
// decision lock.
#ifndef SIMDEX_ENGINE_SERVICE_WRITE_MARKS_H_
#define SIMDEX_ENGINE_SERVICE_WRITE_MARKS_H_

#include <atomic>
#include <cstdint>
#include <string_view>
#include <vector>

namespace simdex::service {

class WriteMarks {
 public:
  enum class Key : uint64_t { kUrl = 1, kArticleId = 2 };

  WriteMarks();

  // The generation of the last write that returned.
  uint64_t Seen() const { return done_.load(std::memory_order_acquire); }

  // The generation of the next write (the same until End()).
  uint64_t Begin() const { return done_.load(std::memory_order_relaxed) + 1; }
  void Mark(Key kind, std::string_view key, uint64_t generation);
  // Doc record `seq` (or its representative) written.
  void MarkDoc(uint64_t seq, uint64_t generation);
  // The doc records and representatives of every seq below `end` deleted.
  void MarkDocsBelow(uint64_t end, uint64_t generation);
  // The write of `generation` returned (done or failed: a failed write
  // changed nothing, and its marks only cost reads).
  void End(uint64_t generation) { done_.store(generation, std::memory_order_release); }

  // Whether the key may have been written since the reads that began at
  // generation `seen`.
  bool WrittenSince(Key kind, std::string_view key, uint64_t seen) const;
  bool DocWrittenSince(uint64_t seq, uint64_t seen) const;

 private:
  static constexpr size_t kSlots = size_t{1} << 14;
  static size_t Slot(uint64_t hash);

  std::atomic<uint64_t> done_{0};
  std::vector<uint64_t> slots_;  // the last generation that wrote a key of each slot
  uint64_t docs_below_ = 0;      // MarkDocsBelow's highest end...
  uint64_t docs_below_generation_ = 0;  // ...and the generation of its latest call
};

}  // namespace simdex::service

#endif  // SIMDEX_ENGINE_SERVICE_WRITE_MARKS_H_
