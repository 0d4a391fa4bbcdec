#include "engine/index/sorted_values.h"

#include "format/coding.h"

namespace simdex::index {

Status SortedValues::Create(uint64_t expected, size_t memory_bytes, const std::string& dir,
                            std::unique_ptr<SortedValues>* out) {
  auto v = std::make_unique<SortedValues>();
  if (expected <= memory_bytes / 8) {
    v->memory_.reserve(expected);
  } else {
    SIMDEX_RETURN_IF_ERROR(util::OutputFile::CreateScratch(dir, "values", &v->file_));
  }
  *out = std::move(v);
  return Status::OK();
}

Status SortedValues::AppendToFile(uint64_t value) {
  char bytes[8];
  format::EncodeFixed64(bytes, value);
  return file_->Append(std::string_view(bytes, 8));  // the file buffers
}

Status SortedValues::Finish() {
  if (!file_) return Status::OK();
  SIMDEX_RETURN_IF_ERROR(file_->Close());
  return util::MappedValues::Open(*file_, &map_);
}

std::span<const uint64_t> SortedValues::values() const {
  return map_ ? map_->values() : std::span<const uint64_t>(memory_);
}

}  // namespace simdex::index
