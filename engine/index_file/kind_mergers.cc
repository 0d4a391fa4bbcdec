// IndexFileMerger (include/simdex/merge.h): the registry's entry, and each
// kind's merger behind it. An Add() of another kind's records is refused
// by the base class, so that each kind overrides only its own.
#include "engine/index_file/kind_mergers.h"

#include <chrono>
#include <utility>

namespace simdex {

Status IndexFileMerger::Create(const IndexFile& old, const std::string& path, const MergeOptions& options,
                               std::unique_ptr<IndexFileMerger>* out) {
  const IndexFileKind* kind = FindIndexKind(old.kind());
  if (kind == nullptr) return Status::NotSupported("index kind " + std::to_string(static_cast<int>(old.kind())));
  return kind->NewMerger(old, path, options, out);
}

Status IndexFileMerger::Add(uint64_t, uint64_t) { return NotMine("fingerprints"); }
Status IndexFileMerger::Add(std::string_view, uint64_t) { return NotMine("fingerprints"); }
Status IndexFileMerger::Add(std::span<const uint64_t>, std::span<const uint64_t>) { return NotMine("fingerprints"); }
Status IndexFileMerger::Add(uint64_t, const uint32_t*) { return NotMine("signatures"); }
Status IndexFileMerger::Add(std::string_view, const uint32_t*) { return NotMine("signatures"); }
Status IndexFileMerger::Add(uint64_t, const uint32_t*, std::span<const uint64_t>) { return NotMine("signatures"); }
Status IndexFileMerger::Add(std::string_view, const uint32_t*, std::span<const uint64_t>) {
  return NotMine("signatures");
}

namespace index_file {
namespace {

// What every kind's merger forwards alike: deletions, Finish and Abandon,
// and the refusal of another kind's records, naming its own.
template <class Merger>
class KindMerger : public IndexFileMerger {
 public:
  KindMerger(std::unique_ptr<Merger> merger, IndexKind kind, const char* records)
      : merger_(std::move(merger)), kind_(kind), records_(records) {}

  Status Delete(uint64_t id) override { return merger_->Delete(id); }
  Status Delete(std::string_view id) override { return merger_->Delete(id); }
  Status Finish() override {
    const auto start = std::chrono::steady_clock::now();
    const Status s = merger_->Finish();
    seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return s;
  }
  void Abandon() override { merger_->Abandon(); }

 protected:
  Status NotMine(std::string_view records) const override {
    return Status::InvalidArgument(std::string("a ") + std::string(FindIndexKind(kind_)->name()) + " index merges " +
                                   records_ + ", not " + std::string(records));
  }
  std::unique_ptr<Merger> merger_;
  IndexKind kind_;
  const char* records_;
  double seconds_ = 0;
};

class SimHashMerger final : public KindMerger<IndexMerger> {
 public:
  using KindMerger::KindMerger;
  using IndexFileMerger::Add;
  Status Add(uint64_t id, uint64_t fingerprint) override { return merger_->Add(id, fingerprint); }
  Status Add(std::string_view id, uint64_t fingerprint) override { return merger_->Add(id, fingerprint); }
  Status Add(std::span<const uint64_t> ids, std::span<const uint64_t> fingerprints) override {
    return merger_->Add(ids, fingerprints);
  }
  MergeStats stats() const override { return merger_->stats(); }
};

class LshMerger final : public KindMerger<LshIndexMerger> {
 public:
  using KindMerger::KindMerger;
  using IndexFileMerger::Add;
  Status Add(uint64_t id, const uint32_t* signature) override { return merger_->Add(id, signature); }
  Status Add(std::string_view id, const uint32_t* signature) override { return merger_->Add(id, signature); }
  Status Add(uint64_t id, const uint32_t* signature, std::span<const uint64_t> shingles) override {
    return merger_->Add(id, signature, shingles);
  }
  Status Add(std::string_view id, const uint32_t* signature, std::span<const uint64_t> shingles) override {
    return merger_->Add(id, signature, shingles);
  }
  MergeStats stats() const override {
    const LshMergeStats& l = merger_->stats();
    return MergeStats{.old_entries = l.old_documents, .added = l.added, .deleted = l.deleted,
                      .ids_not_found = l.ids_not_found, .replaced = l.replaced, .entries = l.documents,
                      .file_bytes = l.file_bytes, .blocks_decoded = l.blocks_read, .seconds = seconds_};
  }
};

}  // namespace

Status NewMerger(const IndexReader& old, const std::string& path, const MergeOptions& options,
                 std::unique_ptr<IndexFileMerger>* out) {
  std::unique_ptr<IndexMerger> merger;
  SIMDEX_RETURN_IF_ERROR(IndexMerger::Create(&old, path, options, &merger));
  *out = std::make_unique<SimHashMerger>(std::move(merger), IndexKind::kSimHash, "fingerprints");
  return Status::OK();
}

Status NewMerger(const LshIndexReader& old, const std::string& path, const MergeOptions& options,
                 std::unique_ptr<IndexFileMerger>* out) {
  LshMergeOptions lsh;
  lsh.memory_bytes = options.memory_bytes;
  lsh.tmpdir = options.tmpdir;
  lsh.existing_ids = options.existing_ids;
  std::unique_ptr<LshIndexMerger> merger;
  SIMDEX_RETURN_IF_ERROR(LshIndexMerger::Create(&old, path, lsh, &merger));
  *out = std::make_unique<LshMerger>(std::move(merger), IndexKind::kMinHashLsh, "signatures");
  return Status::OK();
}

}  // namespace index_file
}  // namespace simdex
