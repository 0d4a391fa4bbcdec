// LshIndexBuilder (include/simdex/lsh_index.h): checks the options and
// collects the documents (engine/minhash/index/lsh_documents.h: in memory, or past
// half the budget in scratch files), which write the file at Finish().
#include <memory>
#include <optional>

#include "engine/index/table_writer.h"
#include "engine/minhash/index/lsh_documents.h"
#include "engine/util/output_file.h"
#include "engine/util/sticky_status.h"
#include "format/block_frame.h"
#include "format/lsh/sketch_section.h"
#include "simdex/front_end_text.h"
#include "simdex/lsh_index.h"

namespace simdex {

struct LshIndexBuilder::Rep : util::StickyStatus {
  std::string path;
  LshBuildOptions options;
  std::optional<minhash::LshDocuments> docs;
  LshBuildStats stats;

  // The builder's first error, or InvalidArgument after Finish() or Abandon().
  Status Check() { return StickyStatus::Check("Add() after Finish() or Abandon()"); }
  Status AddString(std::string_view id, const uint32_t* signature, const BottomKSketch* sketch);
};

namespace minhash {

Status CheckLshMemory(size_t memory_bytes, int bands, size_t shares);

Status CheckBuildOptions(LshBuildOptions* o) {
  std::unique_ptr<MinHasher> hasher;
  SIMDEX_RETURN_IF_ERROR(MinHasher::Create(o->minhash, &hasher));
  if (!(o->threshold > 0 && o->threshold <= 1)) {
    return Status::InvalidArgument("threshold " + std::to_string(o->threshold) + " is not in (0, 1]");
  }
  if (o->bands.bands == 0 && o->bands.rows == 0) o->bands = DefaultLshBands(o->threshold, o->minhash.num_perm);
  SIMDEX_RETURN_IF_ERROR(CheckLshBands(o->bands, o->minhash.num_perm));
  if (!ValidSignatureBits(o->signature_bits)) {
    return Status::InvalidArgument("signature bits " + std::to_string(o->signature_bits) +
                                   " is not one of 1, 2, 4, 8, 16, 32");
  }
  SIMDEX_RETURN_IF_ERROR(index::CheckBlockSizeOption(o->block_size));
  if (!format::IsValidRestarts(o->restarts)) {
    return Status::InvalidArgument("restarts " + std::to_string(o->restarts) + " is not 0.." +
                                   std::to_string(format::kMaxRestarts));
  }
  if (o->sketch_k < 0 || o->sketch_k > static_cast<int>(format::kMaxSketchK)) {
    return Status::InvalidArgument("sketch k " + std::to_string(o->sketch_k) + " is not 0.." +
                                   std::to_string(format::kMaxSketchK));
  }
  SIMDEX_RETURN_IF_ERROR(CheckLshMemory(o->memory_bytes, o->bands.bands, 1));
  return index::CheckCodecOption(o->codec);
}

Status CheckLshMemory(size_t memory_bytes, int bands, size_t shares) {
  const size_t min = shares * MinSpillMemoryBytes(bands);
  if (memory_bytes < min) {
    return Status::InvalidArgument("memory budget of " + std::to_string(memory_bytes) + " bytes is below the " +
                                   std::to_string(min) + " bytes that " + std::to_string(bands) +
                                   " band tables need");
  }
  return Status::OK();
}

}  // namespace minhash

LshIndexBuilder::LshIndexBuilder(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}
LshIndexBuilder::~LshIndexBuilder() = default;

Status LshIndexBuilder::Create(const std::string& path, const LshBuildOptions& options,
                               std::unique_ptr<LshIndexBuilder>* out) {
  auto rep = std::make_unique<Rep>();
  rep->path = path;
  rep->options = options;
  SIMDEX_RETURN_IF_ERROR(minhash::CheckBuildOptions(&rep->options));
  const std::string dir = util::ScratchDirFor(path, options.tmpdir);
  Status s = util::CheckScratchDir(dir);
  if (!s.ok()) return options.tmpdir.empty() ? s.WithContext("cannot write " + path) : s;
  rep->docs.emplace(rep->options, rep->options.memory_bytes, dir);
  out->reset(new LshIndexBuilder(std::move(rep)));
  return Status::OK();
}

const LshBuildOptions& LshIndexBuilder::options() const { return rep_->options; }
const LshBuildStats& LshIndexBuilder::stats() const { return rep_->stats; }

Status LshIndexBuilder::Add(uint64_t id, const uint32_t* signature) {
  SIMDEX_RETURN_IF_ERROR(rep_->Check());
  return rep_->status = rep_->docs->Add(rep_->docs->IdNumber(id), signature, nullptr);
}

Status LshIndexBuilder::Add(uint64_t id, const uint32_t* signature, std::span<const uint64_t> shingles) {
  SIMDEX_RETURN_IF_ERROR(rep_->Check());
  return rep_->status = rep_->docs->Add(rep_->docs->IdNumber(id), signature, rep_->docs->SketchOf(shingles));
}

Status LshIndexBuilder::Add(std::string_view id, const uint32_t* signature) {
  return rep_->AddString(id, signature, nullptr);
}

Status LshIndexBuilder::Add(std::string_view id, const uint32_t* signature, std::span<const uint64_t> shingles) {
  SIMDEX_RETURN_IF_ERROR(rep_->Check());
  return rep_->AddString(id, signature, rep_->docs->SketchOf(shingles));
}

Status LshIndexBuilder::Rep::AddString(std::string_view id, const uint32_t* signature, const BottomKSketch* sk) {
  SIMDEX_RETURN_IF_ERROR(Check());
  SIMDEX_RETURN_IF_ERROR(simdex::CheckStringId(id).WithContext("id " + simdex::Quoted(id)));
  uint64_t number = 0;
  status = docs->IdNumber(id, &number);
  if (status.ok()) status = docs->Add(number, signature, sk);
  return status;
}

Status LshIndexBuilder::AddBanded(uint64_t id, const uint64_t* band_keys, const uint8_t* packed_signature) {
  SIMDEX_RETURN_IF_ERROR(rep_->Check());
  return rep_->status = rep_->docs->AddStored(rep_->docs->IdNumber(id), band_keys, packed_signature, /*banded=*/true);
}

void LshIndexBuilder::Abandon() {
  rep_->done = true;
  rep_->docs.reset();
}

Status LshIndexBuilder::Finish() {
  Rep& r = *rep_;
  SIMDEX_RETURN_IF_ERROR(r.StickyStatus::Check("Finish() after Finish() or Abandon()"));
  r.done = true;
  r.stats.documents = r.docs->size();
  r.stats.banded = r.docs->banded();
  r.options.string_ids = r.docs->string_ids();
  r.status = r.docs->Write(r.path, 0, &r.stats.file_bytes);
  r.stats.sketch_k = r.docs->sketch_k();
  r.stats.spilled_runs = r.docs->spill_stats().runs;
  r.stats.spilled_bytes = r.docs->spill_stats().bytes;
  r.stats.id_map_runs = r.docs->id_map_runs();
  r.docs.reset();
  return r.status;
}

}  // namespace simdex
