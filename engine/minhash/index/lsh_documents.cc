#include "engine/minhash/index/lsh_documents.h"

#include <algorithm>
#include <cstring>
#include <numeric>

#include "engine/minhash/index/lsh_file.h"
#include "engine/util/external_sorter.h"
#include "format/lsh/lsh_layout.h"
#include "format/packed_ints.h"

namespace simdex::minhash {

LshDocuments::LshDocuments(const LshBuildOptions& options, size_t memory_bytes, std::string tmpdir)
    : options_(options),
      memory_bytes_(memory_bytes),
      tmpdir_(std::move(tmpdir)),
      requested_sketch_k_(options.sketch_k),
      id_map_(memory_bytes / 4, tmpdir_) {
  SetDocumentBytes();
}

void LshDocuments::SetDocumentBytes() {
  signature_bytes_ = DocumentBytes(options_);
  const uint64_t record = 8 + 8 * static_cast<uint64_t>(options_.bands.bands) + signature_bytes_ + 1;
  max_in_memory_ = memory_bytes_ / 2 / (2 * record + 32);
}

Status LshDocuments::DecideSketches(bool with_sketches) {
  const bool has = options_.sketch_k > 0;
  if (decided_) {
    if (with_sketches == has) return Status::OK();
    return Status::InvalidArgument(
        "document " + std::to_string(size()) +
        (has ? " comes without its shingles, where the documents before it came with them: the sketch section "
               "needs every document's sketch (sketch_k = 0 builds without)"
             : " comes with its shingles, where the documents before it came without: the file has no sketch "
               "section"));
  }
  decided_ = true;
  if (!with_sketches) options_.sketch_k = 0;
  SetDocumentBytes();
  return Status::OK();
}

uint64_t LshDocuments::IdNumber(uint64_t id) {
  return options_.string_ids ? id_map_.Intern(std::to_string(id)) : id;
}

Status LshDocuments::IdNumber(std::string_view id, uint64_t* number) {
  if (!options_.string_ids) SIMDEX_RETURN_IF_ERROR(SwitchToStringIds());
  *number = id_map_.Intern(id);
  return Status::OK();
}

Status LshDocuments::SwitchToStringIds() {
  if (options_.string_ids) return Status::OK();
  options_.string_ids = true;
  if (spilled_) return spilled_->SwitchToStringIds(&id_map_);
  for (uint64_t& id : ids_) id = id_map_.Intern(std::to_string(id));
  return Status::OK();
}

Status LshDocuments::Spill() {
  SIMDEX_RETURN_IF_ERROR(SpilledDocuments::Create(options_, memory_bytes_, tmpdir_, &spilled_));
  const size_t nb = static_cast<size_t>(options_.bands.bands);
  for (size_t d = 0; d < ids_.size(); ++d) {
    SIMDEX_RETURN_IF_ERROR(spilled_->Add(ids_[d], keys_.data() + d * nb,
                                         reinterpret_cast<const uint8_t*>(signatures_.data() + d * signature_bytes_),
                                         banded_[d]));
  }
  // Swapped with empty ones: `v = {}` would keep the capacity.
  std::vector<uint64_t>().swap(ids_);
  std::vector<uint64_t>().swap(keys_);
  std::string().swap(signatures_);
  std::vector<uint8_t>().swap(banded_);
  banded_count_ = 0;
  return Status::OK();
}

const BottomKSketch* LshDocuments::SketchOf(std::span<const uint64_t> shingles) {
  if (requested_sketch_k_ <= 0) return nullptr;
  MakeBottomKSketch(shingles, requested_sketch_k_, &sketch_);
  return &sketch_;
}

Status LshDocuments::Add(uint64_t id, const uint32_t* signature, const BottomKSketch* sketch) {
  SIMDEX_RETURN_IF_ERROR(DecideSketches(sketch != nullptr && requested_sketch_k_ > 0));
  // The document's bytes: the b-bit signature, then the sketch slot.
  add_keys_.resize(options_.bands.bands);
  add_signature_.resize(signature_bytes_);
  BandKeys(signature, options_.bands, add_keys_.data());
  PackSignature(signature, options_.minhash.num_perm, options_.signature_bits, add_signature_.data());
  if (sketch_k() > 0) {
    PutSketchSlot(sketch->hashes, !sketch->whole, sketch_k(),
                  add_signature_.data() + PackedSignatureBytes(options_.minhash.num_perm, options_.signature_bits));
  }
  return AddStored(id, add_keys_.data(), add_signature_.data(), !IsEmptySignature(signature, options_.minhash.num_perm));
}

Status LshDocuments::AddStored(uint64_t id, const uint64_t* keys, const uint8_t* packed, bool banded) {
  if (!decided_) SIMDEX_RETURN_IF_ERROR(DecideSketches(false));
  if (spilled_ || ids_.size() >= max_in_memory_) {
    if (!spilled_) SIMDEX_RETURN_IF_ERROR(Spill());
    return spilled_->Add(id, keys, packed, banded);
  }
  keys_.insert(keys_.end(), keys, keys + options_.bands.bands);
  signatures_.append(reinterpret_cast<const char*>(packed), signature_bytes_);
  banded_.push_back(banded);
  banded_count_ += banded;
  ids_.push_back(id);
  return Status::OK();
}

void LshDocuments::ApplyOrder(const std::vector<uint64_t>& order) {
  // Position o takes document order[o]: each cycle of the permutation is
  // walked once, moving each document's row to its place (one random
  // access per document, instead of one per document and band table when
  // the tables are filled).
  const size_t n = ids_.size(), nb = static_cast<size_t>(options_.bands.bands), sb = signature_bytes_;
  std::vector<bool> placed(n, false);
  std::vector<uint64_t> keys(nb);
  std::string sig(sb, '\0');
  for (size_t start = 0; start < n; ++start) {
    if (placed[start] || order[start] == start) continue;
    const uint64_t id = ids_[start];
    const uint8_t banded = banded_[start];
    std::copy_n(keys_.begin() + start * nb, nb, keys.begin());
    sig.assign(signatures_, start * sb, sb);
    size_t at = start;
    for (size_t from = order[at]; from != start; at = from, from = order[at]) {
      ids_[at] = ids_[from];
      banded_[at] = banded_[from];
      std::copy_n(keys_.begin() + from * nb, nb, keys_.begin() + at * nb);
      signatures_.replace(at * sb, sb, signatures_, from * sb, sb);
      placed[at] = true;
    }
    ids_[at] = id;
    banded_[at] = banded;
    std::copy_n(keys.begin(), nb, keys_.begin() + at * nb);
    signatures_.replace(at * sb, sb, sig);
    placed[at] = true;
  }
}

Status LshDocuments::Write(const std::string& path, int min_ordinal_bits, uint64_t* file_bytes) {
  // No document decided: no sketches, the version 5 file (an empty index
  // stays mergeable with any other).
  if (!decided_) SIMDEX_RETURN_IF_ERROR(DecideSketches(false));
  if (spilled_) return spilled_->Write(path, min_ordinal_bits, options_.string_ids ? &id_map_ : nullptr, file_bytes);
  return WriteInMemory(path, min_ordinal_bits, file_bytes);
}

Status LshDocuments::WriteInMemory(const std::string& path, int min_ordinal_bits, uint64_t* file_bytes) {
  const uint64_t n = ids_.size();
  const LshBuildOptions& options = options_;
  const int nbands = options.bands.bands;
  std::vector<uint64_t>& ids = ids_;
  const std::vector<uint64_t>& keys = keys_;
  const std::vector<uint8_t>& banded = banded_;
  const size_t signature_bytes = signature_bytes_;
  if (options.string_ids) {
    SIMDEX_RETURN_IF_ERROR(id_map_.Finish());
    for (uint64_t& id : ids) id = id_map_.Rank(id);
  }
  format::LshMetadata m = LshMetadataFor(options, n, banded_count_, min_ordinal_bits);
  const uint64_t ordinal_mask = OrdinalMask(m);

  // Ordinal order: by id, then signature, then the band keys as kept.
  std::vector<uint64_t> order(n);
  std::iota(order.begin(), order.end(), uint64_t{0});
  auto sig = [&](uint64_t i) { return reinterpret_cast<const uint8_t*>(signatures_.data() + i * signature_bytes); };
  std::sort(order.begin(), order.end(), [&](uint64_t a, uint64_t b) {
    if (ids[a] != ids[b]) return ids[a] < ids[b];
    return DocumentLess(sig(a), &keys[a * nbands], banded[a], sig(b), &keys[b * nbands], banded[b], signature_bytes,
                        nbands, ordinal_mask);
  });
  ApplyOrder(order);
  std::vector<uint64_t>().swap(order);

  std::unique_ptr<util::OutputFile> out;
  SIMDEX_RETURN_IF_ERROR(BeginLshFile(path, m, &out));
  std::vector<uint64_t> values;
  values.reserve(banded_count_);
  for (int t = 0; t < nbands; ++t) {
    values.clear();
    for (uint64_t o = 0; o < n; ++o) {
      if (banded[o]) values.push_back((keys[o * nbands + t] & ~ordinal_mask) | o);
    }
    util::ExternalSorter<uint64_t>::SortInMemory(values.data(), values.size(), 1);
    SIMDEX_RETURN_IF_ERROR(AppendBandTable(out.get(), options, t, values, &m));
  }
  std::vector<uint64_t>().swap(values);

  std::string packed;
  if (n > 0) {
    m.id_base = options.string_ids ? 0 : ids[0];
    m.id_width = static_cast<uint8_t>(format::BitWidth(ids[n - 1] - m.id_base));
  }
  {
    format::PackedIntsWriter writer(&packed, m.id_width);
    for (uint64_t o = 0; o < n; ++o) writer.Add(ids[o] - m.id_base);
    writer.Finish();
  }
  const std::string_view id_map_bytes = options.string_ids ? id_map_.Section() : std::string_view();
  // The signatures are in ordinal order since ApplyOrder.
  return FinishLshFile(out.get(), signatures_, nullptr, packed, id_map_bytes, &m, file_bytes);
}

}  // namespace simdex::minhash
