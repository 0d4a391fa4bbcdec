// The ids of a batch's documents by ordinal, for commands that report on
// every document after reading them all (simdex dedup).
//
// Numeric ids cost nothing while they run base, base + 1, ... (record
// numbers, sequential ids): they are kept as that rule until the first id
// that breaks it, and as 8 bytes per document after. String ids are kept in
// one arena (their bytes plus 8 per document).
#ifndef SIMDEX_ENGINE_PIPELINE_DOCUMENT_IDS_H_
#define SIMDEX_ENGINE_PIPELINE_DOCUMENT_IDS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace simdex::pipeline {

class DocumentIds {
 public:
  // Adds the next document's id: `id_string` if not empty, else `id`.
  void Add(uint64_t id, std::string_view id_string);

  uint64_t size() const { return size_; }
  // Appends ordinal's id to *out as JSON (a number or a string).
  void AppendJson(uint64_t ordinal, std::string* out) const;
  // Appends ordinal's id to *out as text (the string, or the decimal number).
  void AppendText(uint64_t ordinal, std::string* out) const;

  // Whether ordinal's id is a string, String(); else it is Number().
  bool IsString(uint64_t ordinal) const;
  uint64_t Number(uint64_t ordinal) const;
  std::string_view String(uint64_t ordinal) const;
  // True while every id so far is a number and they run base, base + 1, ...
  // (no id can occur twice).
  bool consecutive_numbers() const { return sequential_ && offsets_.empty(); }

 private:
  uint64_t size_ = 0;
  bool sequential_ = true;  // numbers so far are base_ + ordinal
  uint64_t base_ = 0;
  std::vector<uint64_t> numbers_;       // once not sequential
  // String ids: offsets_[i] is where ordinal i's string begins in arena_,
  // for every ordinal once the first string id arrives (numeric ids get an
  // empty string); offsets_ has size_ + 1 entries then.
  std::vector<uint64_t> offsets_;
  std::string arena_;
};

}  // namespace simdex::pipeline

#endif  // SIMDEX_ENGINE_PIPELINE_DOCUMENT_IDS_H_
