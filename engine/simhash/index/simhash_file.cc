// IndexReader as an IndexFile: its kind, Preload, `simdex verify`'s summary,
// `simdex inspect`'s JSON (IndexInfo, plus bits per entry and the ratio to
// the entropy bound, per table and in total; figures undefined for an empty
// index are null), the layout a reload keeps.
#include "engine/index/mapping_advice.h"
#include "engine/simhash/index/reader_rep.h"
#include "engine/util/inspect_json.h"
#include "engine/util/json_text.h"
#include "simdex/front_end_text.h"
#include "simdex/index.h"

namespace simdex {

IndexKind IndexReader::kind() const { return IndexKind::kSimHash; }

Status IndexReader::Preload(bool lock, PreloadResult* result) const {
  return index::PreloadPages(rep_->file_begin, static_cast<size_t>(rep_->file_end - rep_->file_begin), lock, result);
}

std::string IndexReader::VerifySummary() const {
  return Count(entries(), "entry", "entries") + ", " +
         Count(static_cast<uint64_t>(scheme().num_tables()), "table");
}

std::string IndexReader::InspectJson() const {
  using util::JsonObject;
  const IndexInfo info = Info();
  const double entries = static_cast<double>(info.entries);
  const double bound = info.entropy_bound_bits_per_entry;
  std::string out;
  JsonObject root(&out, 0);
  root.Int("entries", info.entries);
  root.Int("distinct_fingerprints", info.distinct_fingerprints);
  root.String("scheme", info.scheme);
  root.IntArray("widths", info.widths);
  root.Int("k", static_cast<uint64_t>(info.k));
  root.Int("block_size", info.block_size);
  root.Int("restarts", info.restarts);
  root.Key("tables").append("[");
  for (size_t t = 0; t < info.tables.size(); ++t) {
    const IndexInfo::Table& table = info.tables[t];
    out.append(t > 0 ? ",\n    " : "\n    ");
    JsonObject obj(&out, 4);
    obj.IntArray("leading_blocks", table.leading_blocks);
    obj.Int("key_bits", static_cast<uint64_t>(table.key_bits));
    obj.Int("blocks", table.blocks);
    obj.Int("bytes", table.bytes);
    obj.String("codec", table.codec);
    obj.Int("payload_bits", table.payload_bits);
    const double bits_per_entry = entries == 0 ? 0 : static_cast<double>(table.bytes) * 8 / entries;
    obj.Ratio("bits_per_entry", static_cast<double>(table.bytes) * 8, entries);
    obj.Ratio("ratio_to_entropy_bound", bits_per_entry, entries == 0 ? 0 : bound);
    obj.Close();
  }
  out.append(info.tables.empty() ? "]" : "\n  ]");
  root.Int("rank_bytes", info.rank_bytes);
  util::IdMembers(info, &root);
  // null when the index records no fingerprint profile.
  if (info.profile.empty()) root.Key("profile").append("null");
  else util::AppendJsonString(&root.Key("profile"), info.profile);
  root.Int("total_bytes", info.total_bytes);
  root.Ratio("bits_per_entry_total", static_cast<double>(info.total_bytes) * 8, entries);
  root.Ratio("entropy_bound_bits_per_entry", bound, 1);
  root.Close();
  out.append("\n");
  return out;
}

Status IndexReader::CheckSameLayout(const IndexFile& serving) const {
  // REQUIRES (the caller's): serving is of this kind.
  const Scheme& now = static_cast<const IndexReader&>(serving).scheme();
  if (scheme().widths() != now.widths() || scheme().k() != now.k()) {
    return Status::InvalidArgument("the new file's scheme " + scheme().Name() + " is not the serving index's " +
                                   now.Name());
  }
  return Status::OK();
}

}  // namespace simdex
