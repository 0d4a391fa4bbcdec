#include "engine/index/id_map_section.h"

#include "format/coding.h"
#include "format/id_map.h"
#include "format/packed_ints.h"

namespace simdex::index {

namespace {
constexpr size_t kFlushBytes = size_t{1} << 20;
}  // namespace

Status IdMapSectionWriter::Create(const std::string& tmpdir, std::unique_ptr<IdMapSectionWriter>* out) {
  std::unique_ptr<IdMapSectionWriter> w(new IdMapSectionWriter());
  w->tmpdir_ = tmpdir;
  SIMDEX_RETURN_IF_ERROR(util::OutputFile::CreateScratch(tmpdir, "idstrings", &w->strings_file_));
  SIMDEX_RETURN_IF_ERROR(SortedValues::Create(~uint64_t{0}, 0, tmpdir, &w->ends_));
  *out = std::move(w);
  return Status::OK();
}

IdMapSectionWriter::~IdMapSectionWriter() = default;

Status IdMapSectionWriter::Add(std::string_view id) {
  SIMDEX_RETURN_IF_ERROR(strings_file_->Append(id));  // the file buffers
  ++count_;
  return ends_->Append(total_ += id.size());
}

Status IdMapSectionWriter::Finish() {
  SIMDEX_RETURN_IF_ERROR(strings_file_->Close());
  SIMDEX_RETURN_IF_ERROR(ends_->Finish());
  std::unique_ptr<util::MappedValues> strings_map;
  SIMDEX_RETURN_IF_ERROR(util::MappedValues::Open(*strings_file_, &strings_map));
  SIMDEX_RETURN_IF_ERROR(util::OutputFile::CreateScratch(tmpdir_, "idmap", &section_file_));
  // Header, the offsets (0, then every end) packed, padding, the strings.
  std::string out;
  const int w = format::BitWidth(total_);
  format::PutFixed64(&out, count_);
  format::PutFixed64(&out, total_);
  out.push_back(static_cast<char>(w));
  out.append(7, '\0');
  {
    format::PackedIntsWriter offsets(&out, w);
    offsets.Add(0);
    const std::span<const uint64_t> ends = ends_->values();
    for (size_t i = 0; i < ends.size(); ++i) {
      offsets.Add(ends[i]);
      if (out.size() >= kFlushBytes) {
        SIMDEX_RETURN_IF_ERROR(section_file_->Append(out));
        out.clear();  // the writer keeps its partial byte apart
      }
    }
    offsets.Finish();
  }
  SIMDEX_RETURN_IF_ERROR(section_file_->Append(out));
  SIMDEX_RETURN_IF_ERROR(section_file_->PadTo(8));
  const std::string_view bytes = strings_map->bytes();
  for (size_t at = 0; at < bytes.size(); at += kFlushBytes) {
    SIMDEX_RETURN_IF_ERROR(section_file_->Append(bytes.substr(at, kFlushBytes)));
    strings_map->Release(at, kFlushBytes);
  }
  strings_map.reset();
  ends_.reset();  // removes the scratch files
  strings_file_.reset();
  SIMDEX_RETURN_IF_ERROR(section_file_->Close());
  if (section_file_->size() != format::IdMapBytes(count_, total_)) {
    return Status::Corruption("id map: wrote " + std::to_string(section_file_->size()) + " bytes, not " +
                              std::to_string(format::IdMapBytes(count_, total_)));
  }
  return util::MappedValues::Open(*section_file_, &section_map_);
}

std::string_view IdMapSectionWriter::section() const {
  return section_map_ ? section_map_->bytes() : std::string_view();
}

}  // namespace simdex::index
