// simdex pairs: every pair of fingerprints within a Hamming distance, by
// brute force (all n(n-1)/2 pairs; fine for up to ~10^5 fingerprints),
// closest first.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <CLI/CLI.hpp>

#include "simdex/document_reader.h"
#include "simdex/fingerprint.h"
#include "simdex/fingerprint_file.h"
#include "simdex/front_end_text.h"
#include "tools/commands.h"

namespace simdex::tools {

namespace {

struct PairsArgs {
  std::string input;
  int max_distance = 3;
  std::string names;
  std::string name_field = "title";
  std::string names_id_field = "id";
};

struct Pair {
  int distance;
  uint64_t a;  // a <= b
  uint64_t b;
};

Status ReadFingerprints(const std::string& path, std::vector<FingerprintRecord>* out) {
  std::unique_ptr<FingerprintFileReader> reader;
  SIMDEX_RETURN_IF_ERROR(FingerprintFileReader::Open(path, FingerprintFileReaderOptions(), &reader));
  std::vector<FingerprintRecord> batch(4096);
  for (;;) {
    size_t n = 0;
    SIMDEX_RETURN_IF_ERROR(reader->Read(batch.data(), batch.size(), &n));
    if (n == 0) return Status::OK();
    out->insert(out->end(), batch.begin(), batch.begin() + static_cast<std::ptrdiff_t>(n));
  }
}

// Names by id from a JSONL file; tabs and line breaks become spaces so that
// each pair stays on one line, other control characters escapes ("\x1b").
Status ReadNames(const PairsArgs& args, std::unordered_map<uint64_t, std::string>* names) {
  DocumentReaderOptions options;
  options.id_field = args.names_id_field;
  options.text_fields = {args.name_field};
  std::unique_ptr<DocumentReader> reader;
  SIMDEX_RETURN_IF_ERROR(DocumentReader::Open(args.names, options, &reader));
  Document doc;
  for (;;) {
    bool eof = false;
    SIMDEX_RETURN_IF_ERROR(reader->Next(&doc, &eof));
    if (eof) return Status::OK();
    std::replace_if(doc.text.begin(), doc.text.end(), [](char c) { return c == '\t' || c == '\n' || c == '\r'; },
                    ' ');
    (*names)[doc.id] = Printable(doc.text);
  }
}

std::vector<Pair> FindPairs(const std::vector<FingerprintRecord>& fps, int max_distance) {
  std::vector<Pair> pairs;
  for (size_t i = 0; i < fps.size(); ++i) {
    const uint64_t fi = fps[i].fingerprint;
    for (size_t j = i + 1; j < fps.size(); ++j) {
      int d = HammingDistance(fi, fps[j].fingerprint);
      if (d <= max_distance) {
        pairs.push_back({d, std::min(fps[i].id, fps[j].id), std::max(fps[i].id, fps[j].id)});
      }
    }
  }
  std::sort(pairs.begin(), pairs.end(), [](const Pair& x, const Pair& y) {
    if (x.distance != y.distance) return x.distance < y.distance;
    if (x.a != y.a) return x.a < y.a;
    return x.b < y.b;
  });
  return pairs;
}

int RunPairs(const PairsArgs& args) {
  std::vector<FingerprintRecord> fps;
  Status s = ReadFingerprints(args.input, &fps);
  if (!s.ok()) return ReportError("pairs", s);
  std::unordered_map<uint64_t, std::string> names;
  if (!args.names.empty()) {
    s = ReadNames(args, &names);
    if (!s.ok()) return ReportError("pairs", s);
  }
  const std::string none;
  auto name = [&](uint64_t id) -> const std::string& {
    auto it = names.find(id);
    return it == names.end() ? none : it->second;
  };
  for (const Pair& p : FindPairs(fps, args.max_distance)) {
    if (args.names.empty()) {
      std::printf("%d\t%llu\t%llu\n", p.distance, static_cast<unsigned long long>(p.a),
                  static_cast<unsigned long long>(p.b));
    } else {
      std::printf("%d\t%llu\t%llu\t%s\t%s\n", p.distance, static_cast<unsigned long long>(p.a),
                  static_cast<unsigned long long>(p.b), name(p.a).c_str(), name(p.b).c_str());
    }
  }
  if (std::fflush(stdout) != 0) return ReportError("pairs", Status::IOError("cannot write to standard output"));
  return 0;
}

}  // namespace

void AddPairsCommand(CLI::App& app, CommandRunner* run) {
  auto args = std::make_shared<PairsArgs>();
  CLI::App* sub = app.add_subcommand(
      "pairs", "All pairs of fingerprints within a Hamming distance, closest first (brute force)");
  sub->add_option("fingerprints", args->input, "fingerprint file (text or binary; '-' = stdin)")->required();
  sub->add_option("-k,--max-distance", args->max_distance, "largest distance reported (inclusive)")
      ->check(CLI::Range(0, 64))
      ->capture_default_str();
  sub->add_option("--names", args->names, "JSONL file giving each id a name, printed after the ids");
  sub->add_option("--name-field", args->name_field, "field of --names holding the name")->capture_default_str();
  sub->add_option("--names-id-field", args->names_id_field, "field of --names holding the id")
      ->capture_default_str();
  sub->footer(
      "Output: one line per pair, '<distance>\\t<id1>\\t<id2>' (id1 <= id2), by distance then ids;\n"
      "with --names, followed by '\\t<name1>\\t<name2>'.\n"
      "Example: simdex pairs -k 3 --names docs.jsonl fp.txt");
  sub->callback([args, run] { *run = [args] { return RunPairs(*args); }; });
}

}  // namespace simdex::tools
