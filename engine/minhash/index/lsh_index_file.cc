// LshIndexReader as an IndexFile: its kind, Preload, `simdex verify`'s
// summary, `simdex inspect`'s JSON (LshIndexInfo, with bytes per document
// per part and the band tables' ratio to the information in their keys;
// figures undefined for an empty index are null), the layout a reload
// keeps.
#include <cstdio>

#include "engine/index/mapping_advice.h"
#include "engine/minhash/index/lsh_rep.h"
#include "engine/util/inspect_json.h"
#include "engine/util/json_text.h"
#include "simdex/front_end_text.h"

namespace simdex {

IndexKind LshIndexReader::kind() const { return IndexKind::kMinHashLsh; }

Status LshIndexReader::Preload(bool lock, PreloadResult* result) const {
  return index::PreloadPages(rep_->file_begin, static_cast<size_t>(rep_->file_end - rep_->file_begin), lock, result);
}

std::string LshIndexReader::VerifySummary() const {
  return Count(documents(), "document") + ", " + Count(static_cast<uint64_t>(bands().bands), "band table");
}

std::string LshIndexReader::InspectJson() const {
  using util::JsonObject;
  const LshIndexInfo info = Info();
  const double documents = static_cast<double>(info.documents);
  const double banded = static_cast<double>(info.banded);
  std::string out;
  JsonObject root(&out, 0);
  root.String("kind", "minhash-lsh");
  root.Int("documents", info.documents);
  root.Int("banded_documents", info.banded);
  root.Int("num_perm", static_cast<uint64_t>(info.num_perm));
  root.Int("seed", info.seed);
  root.Int("bands", static_cast<uint64_t>(info.bands));
  root.Int("rows", static_cast<uint64_t>(info.rows));
  char threshold[32];
  std::snprintf(threshold, sizeof(threshold), "%g", info.threshold);
  root.Key("threshold").append(threshold);
  root.Int("signature_bits", static_cast<uint64_t>(info.signature_bits));
  root.Int("ordinal_bits", static_cast<uint64_t>(info.ordinal_bits));
  root.Int("block_size", info.block_size);
  root.Int("restarts", static_cast<uint64_t>(info.restarts));
  uint64_t table_bytes = 0;
  root.Key("tables").append("[");
  for (size_t t = 0; t < info.tables.size(); ++t) {
    const LshIndexInfo::Table& table = info.tables[t];
    table_bytes += table.bytes;
    out.append(t > 0 ? ",\n    " : "\n    ");
    JsonObject obj(&out, 4);
    obj.Int("blocks", table.blocks);
    obj.Int("bytes", table.bytes);
    obj.String("codec", table.codec);
    obj.Int("payload_bits", table.payload_bits);
    obj.Ratio("bits_per_document", static_cast<double>(table.bytes) * 8, banded);
    obj.Ratio("ratio_to_key_bits", static_cast<double>(table.bytes) * 8, banded * info.band_key_bound_bits);
    obj.Close();
  }
  out.append(info.tables.empty() ? "]" : "\n  ]");
  root.Int("signature_bytes", info.signature_bytes);
  root.Int("sketch_k", info.sketch_k);
  root.Int("sketch_bytes", info.sketch_bytes);
  util::IdMembers(info, &root);
  util::AppendJsonString(&root.Key("profile"), info.profile);
  root.Int("total_bytes", info.total_bytes);
  root.Ratio("band_table_bytes_per_document", static_cast<double>(table_bytes), documents);
  root.Ratio("signature_bytes_per_document", static_cast<double>(info.signature_bytes), documents);
  root.Ratio("sketch_bytes_per_document", static_cast<double>(info.sketch_bytes), documents);
  root.Ratio("id_bytes_per_document", static_cast<double>(info.id_bytes + info.id_map_bytes), documents);
  root.Ratio("bytes_per_document_total", static_cast<double>(info.total_bytes), documents);
  root.Ratio("band_key_bound_bits", info.band_key_bound_bits, 1);
  root.Close();
  out.append("\n");
  return out;
}

namespace {

std::string LayoutName(const LshIndexReader& index) {
  char threshold[32];
  std::snprintf(threshold, sizeof(threshold), "%g", index.threshold());
  return std::to_string(index.bands().bands) + " bands of " + std::to_string(index.bands().rows) + " rows, threshold " +
         threshold;
}

}  // namespace

Status LshIndexReader::CheckSameLayout(const IndexFile& serving) const {
  // REQUIRES (the caller's): serving is of this kind. The profile (num_perm,
  // seed, shingles) is the reload's other check.
  const auto& now = static_cast<const LshIndexReader&>(serving);
  if (bands().bands != now.bands().bands || bands().rows != now.bands().rows || threshold() != now.threshold()) {
    return Status::InvalidArgument("the new file's " + LayoutName(*this) + " are not the serving index's " +
                                   LayoutName(now));
  }
  return Status::OK();
}

}  // namespace simdex
