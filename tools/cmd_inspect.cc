// simdex inspect INDEX: the size and shape of an index as pretty JSON, keys
// always in the same order (IndexInfo, plus bits per entry and the ratio to
// the entropy bound, per table and in total). Figures that are undefined for
// an empty index are null.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "simdex/index.h"
#include "simdex/lsh_index.h"
#include "tools/commands.h"
#include "tools/json_text.h"

namespace simdex::tools {
namespace {

constexpr const char* kInspectCommand = "inspect";

// Writes the members of one JSON object, one per line, at a fixed indent.
class JsonObject {
 public:
  JsonObject(std::string* out, int indent) : out_(out), indent_(indent) { out_->append("{"); }

  void Int(const char* key, uint64_t v) { Key(key).append(std::to_string(v)); }
  void Bool(const char* key, bool v) { Key(key).append(v ? "true" : "false"); }
  void String(const char* key, const std::string& v) { Key(key).append("\"").append(v).append("\""); }
  void IntArray(const char* key, const std::vector<int>& v) {
    std::string& out = Key(key);
    out.append("[");
    for (size_t i = 0; i < v.size(); ++i) out.append(i > 0 ? ", " : "").append(std::to_string(v[i]));
    out.append("]");
  }
  // A ratio num / den with 4 decimals, or null when den is 0.
  void Ratio(const char* key, double num, double den) {
    if (den == 0) {
      Key(key).append("null");
      return;
    }
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%.4f", num / den);
    Key(key).append(buf);
  }
  // Starts a member whose value the caller appends; returns the output.
  std::string& Key(const char* key) {
    out_->append(first_ ? "\n" : ",\n").append(indent_ + 2, ' ');
    first_ = false;
    return out_->append("\"").append(key).append("\": ");
  }
  void Close() { out_->append("\n").append(indent_, ' ').append("}"); }

 private:
  std::string* out_;
  int indent_;
  bool first_ = true;
};

// The members about ids and the format, the same for both kinds of index.
template <class Info>
void IdMembers(const Info& info, JsonObject* root) {
  root->Int("id_bytes", info.id_bytes);
  root->Int("id_width", static_cast<uint64_t>(info.id_width));
  root->Bool("string_ids", info.string_ids);
  root->Int("id_map_strings", info.id_map_strings);
  root->Int("id_map_bytes", info.id_map_bytes);
  root->Int("format_version", info.format_version);
}

std::string InspectJson(const IndexInfo& info) {
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
  IdMembers(info, &root);
  // null when the index records no fingerprint profile.
  if (info.profile.empty()) root.Key("profile").append("null");
  else AppendJsonString(&root.Key("profile"), info.profile);
  root.Int("total_bytes", info.total_bytes);
  root.Ratio("bits_per_entry_total", static_cast<double>(info.total_bytes) * 8, entries);
  root.Ratio("entropy_bound_bits_per_entry", bound, 1);
  root.Close();
  out.append("\n");
  return out;
}

// A MinHash-LSH index: LshIndexInfo, with bytes per document per part and
// the band tables' ratio to the information in their keys.
std::string InspectLshJson(const LshIndexInfo& info) {
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
  IdMembers(info, &root);
  AppendJsonString(&root.Key("profile"), info.profile);
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

int RunInspect(const std::string& path) {
  ReaderOptions options;
  std::string json;
  int exit_code = 0;
  IndexKind kind;
  if (ReadIndexKind(path, &kind).ok() && kind == IndexKind::kMinHashLsh) {
    std::unique_ptr<LshIndexReader> reader;
    if (!OpenIndexOrReport(kInspectCommand, path, options, &reader, &exit_code)) return exit_code;
    json = InspectLshJson(reader->Info());
  } else {
    std::unique_ptr<IndexReader> reader;
    if (!OpenIndexOrReport(kInspectCommand, path, options, &reader, &exit_code)) return exit_code;
    json = InspectJson(reader->Info());
  }
  if (std::fwrite(json.data(), 1, json.size(), stdout) != json.size() || std::fflush(stdout) != 0) {
    return ReportError(kInspectCommand, "error writing standard output");
  }
  return 0;
}

}  // namespace

void AddInspectCommand(CLI::App& app, CommandRunner* run) {
  auto path = std::make_shared<std::string>();
  CLI::App* sub = app.add_subcommand("inspect", "Print an index's size and shape as JSON");
  sub->add_option("index", *path, "index file")->required();
  sub->callback([path, run] { *run = [path] { return RunInspect(*path); }; });
}

}  // namespace simdex::tools
