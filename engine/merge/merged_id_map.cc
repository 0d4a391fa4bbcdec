#include "engine/merge/merged_id_map.h"

#include "format/coding.h"

namespace simdex::merge {

namespace {

// New numbers, 8 bytes each, buffered into a scratch file.
class NumberFile {
 public:
  explicit NumberFile(index::OutputFile* file) : file_(file) {}
  Status Put(uint64_t v) {
    format::PutFixed64(&buffer_, v);
    return buffer_.size() >= (size_t{1} << 20) ? Flush() : Status::OK();
  }
  Status Flush() {
    SIMDEX_RETURN_IF_ERROR(file_->Append(buffer_));
    buffer_.clear();
    return Status::OK();
  }

 private:
  index::OutputFile* file_;
  std::string buffer_;
};

Status MapClosed(index::OutputFile* file, std::unique_ptr<index::MappedValues>* map) {
  SIMDEX_RETURN_IF_ERROR(file->Close());
  return index::MappedValues::Open(file->path(), map);
}

}  // namespace

Status MergedIdMap::Build(const IndexReader& old, const std::vector<bool>& kept, const index::IdMapBuilder& batch,
                          const std::string& tmpdir, std::unique_ptr<MergedIdMap>* out) {
  std::unique_ptr<MergedIdMap> m(new MergedIdMap());
  SIMDEX_RETURN_IF_ERROR(index::IdMapSectionWriter::Create(tmpdir, &m->section_));
  SIMDEX_RETURN_IF_ERROR(index::OutputFile::CreateScratch(tmpdir, "oldids", &m->old_file_));
  SIMDEX_RETURN_IF_ERROR(index::OutputFile::CreateScratch(tmpdir, "batchids", &m->batch_file_));
  NumberFile old_ids(m->old_file_.get()), batch_ids(m->batch_file_.get());
  index::IdMapSectionWriter& section = *m->section_;
  const uint64_t old_k = kept.size(), batch_k = batch.size();
  std::string_view previous_old;  // the old file stays mapped while the merge runs
  uint64_t i = 0, j = 0, checked = old_k;  // checked: the old id last compared with its predecessor
  while (true) {
    for (; i < old_k && !kept[i]; ++i) SIMDEX_RETURN_IF_ERROR(old_ids.Put(0));  // never read
    if (i == old_k && j == batch_k) break;
    std::string_view a;
    if (i < old_k) {
      a = old.IdString(i);
      if (checked != i) {
        if (a.empty() || (!previous_old.empty() && a <= previous_old)) {
          return Status::Corruption("id map of the old index: string " + std::to_string(i) +
                                    " is empty or not greater than the one before it");
        }
        previous_old = a;
        checked = i;
      }
    }
    const std::string_view b = j < batch_k ? batch.String(j) : std::string_view();
    const bool take_old = i < old_k && (j == batch_k || a <= b);
    const bool take_batch = j < batch_k && (i == old_k || b <= a);
    SIMDEX_RETURN_IF_ERROR(section.Add(take_old ? a : b));
    const uint64_t number = section.size() - 1;
    if (take_old) {
      SIMDEX_RETURN_IF_ERROR(old_ids.Put(number));
      ++i;
    }
    if (take_batch) {
      SIMDEX_RETURN_IF_ERROR(batch_ids.Put(number));
      ++j;
    }
  }
  SIMDEX_RETURN_IF_ERROR(old_ids.Flush());
  SIMDEX_RETURN_IF_ERROR(batch_ids.Flush());
  SIMDEX_RETURN_IF_ERROR(MapClosed(m->old_file_.get(), &m->old_map_));
  SIMDEX_RETURN_IF_ERROR(MapClosed(m->batch_file_.get(), &m->batch_map_));
  m->old_ids_ = m->old_map_->values();
  m->batch_ids_ = m->batch_map_->values();
  SIMDEX_RETURN_IF_ERROR(section.Finish());
  *out = std::move(m);
  return Status::OK();
}

}  // namespace simdex::merge
