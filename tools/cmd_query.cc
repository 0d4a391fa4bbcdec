// simdex query INDEX [--k K] [--threads N] [--verify-checksums] [HEX...]:
// every entry within Hamming distance k of each fingerprint, one JSON line
// per query in input order:
//   {"query":"<16 hex>","matches":[{"id":<n>,"fingerprint":"<16 hex>","distance":<d>},...]}
// (an index of string ids prints "id":"<the string>").
// Fingerprints come from the arguments, or else from standard input (one per
// line; blank lines ignored). They are searched in batches through the batch
// Search() so that threads share the work.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "simdex/fingerprint.h"
#include "simdex/index.h"
#include "tools/commands.h"
#include "tools/json_text.h"

namespace simdex::tools {
namespace {

constexpr const char* kCommand = "query";
constexpr size_t kBatchSize = 4096;

struct QueryArgs {
  std::string index;
  int k = -1;  // -1: the scheme's k
  int threads = 1;
  bool verify_checksums = false;
  std::vector<std::string> hex;
};

std::string_view TrimSpace(std::string_view s) {
  const auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

// Reads the next fingerprints from standard input into *batch (cleared
// first), up to kBatchSize; an empty batch means the end. A line that is not
// blank and not a fingerprint is an error naming the line.
class StdinQueries {
 public:
  ~StdinQueries() { std::free(line_); }

  Status Next(std::vector<uint64_t>* batch) {
    batch->clear();
    ssize_t len;
    while (batch->size() < kBatchSize && (len = getline(&line_, &capacity_, stdin)) >= 0) {
      ++line_number_;
      std::string_view text = TrimSpace(std::string_view(line_, static_cast<size_t>(len)));
      if (text.empty()) continue;
      uint64_t fingerprint;
      if (!ParseHexFingerprint(text, &fingerprint)) {
        return Status::InvalidArgument("<stdin>:" + std::to_string(line_number_) + ": '" +
                                       std::string(text.substr(0, 40)) +
                                       "' is not a fingerprint (1 to 16 hex digits)");
      }
      batch->push_back(fingerprint);
    }
    if (std::ferror(stdin)) return Status::IOError("error reading standard input");
    return Status::OK();
  }

 private:
  char* line_ = nullptr;
  size_t capacity_ = 0;
  uint64_t line_number_ = 0;
};

// Ids are printed as numbers, or for an index of string ids as the strings.
void AppendJsonLine(const IndexReader& reader, uint64_t query, std::span<const Match> matches, std::string* out) {
  out->append("{\"query\":\"").append(FormatHexFingerprint(query)).append("\",\"matches\":[");
  for (size_t i = 0; i < matches.size(); ++i) {
    if (i > 0) out->push_back(',');
    out->append("{\"id\":");
    if (reader.has_string_ids()) AppendJsonString(out, reader.IdString(matches[i].id));
    else out->append(std::to_string(matches[i].id));
    out->append(",\"fingerprint\":\"").append(FormatHexFingerprint(matches[i].fingerprint));
    out->append("\",\"distance\":").append(std::to_string(matches[i].distance)).push_back('}');
  }
  out->append("]}\n");
}

// Searches one batch and writes its JSON lines to stdout.
Status SearchAndPrint(const IndexReader& reader, const QueryArgs& args, int k,
                      std::span<const uint64_t> queries) {
  SearchResults results;
  SIMDEX_RETURN_IF_ERROR(reader.Search(queries, k, &results, args.threads));  // errors name the index
  std::string out;
  for (size_t i = 0; i < queries.size(); ++i) {
    const size_t begin = results.lims[i], end = results.lims[i + 1];
    AppendJsonLine(reader, queries[i], std::span<const Match>(results.matches).subspan(begin, end - begin),
                   &out);
  }
  if (std::fwrite(out.data(), 1, out.size(), stdout) != out.size()) {
    return Status::IOError("error writing standard output");
  }
  return Status::OK();
}

int RunQuery(const QueryArgs& args) {
  std::vector<uint64_t> from_args(args.hex.size());
  for (size_t i = 0; i < args.hex.size(); ++i) {
    if (!ParseHexFingerprint(args.hex[i], &from_args[i])) {
      return ReportError(kCommand, "'" + args.hex[i] + "' is not a fingerprint (1 to 16 hex digits)",
                         kExitUsage);
    }
  }

  ReaderOptions options;
  options.verify_block_checksums = args.verify_checksums;
  std::unique_ptr<IndexReader> reader;
  int exit_code = 0;
  if (!OpenIndexOrReport(kCommand, args.index, options, &reader, &exit_code)) return exit_code;
  const int max_k = reader->scheme().k();
  const int k = args.k < 0 ? max_k : args.k;
  if (k > max_k) {
    return ReportError(kCommand,
                       "--k " + std::to_string(k) + " is larger than the index's k (" +
                           std::to_string(max_k) + ", scheme " + reader->scheme().Name() + ")",
                       kExitUsage);
  }

  Status s;
  if (!args.hex.empty()) {
    const std::span<const uint64_t> all(from_args);
    for (size_t i = 0; s.ok() && i < all.size(); i += kBatchSize) {
      s = SearchAndPrint(*reader, args, k, all.subspan(i, std::min(kBatchSize, all.size() - i)));
    }
  } else {
    StdinQueries input;
    std::vector<uint64_t> batch;
    while ((s = input.Next(&batch)).ok() && !batch.empty()) {
      s = SearchAndPrint(*reader, args, k, batch);
      if (!s.ok()) break;
    }
  }
  if (s.ok() && std::fflush(stdout) != 0) s = Status::IOError("error writing standard output");
  return s.ok() ? 0 : ReportError(kCommand, s.message());
}

}  // namespace

void AddQueryCommand(CLI::App& app, CommandRunner* run) {
  auto args = std::make_shared<QueryArgs>();
  CLI::App* sub = app.add_subcommand(
      "query", "Find the entries within distance k of fingerprints (JSON lines on stdout)");
  sub->add_option("index", args->index, "index file")->required();
  sub->add_option("fingerprints", args->hex,
                  "fingerprints, 1 to 16 hex digits each (default: one per line on stdin)");
  sub->add_option("--k", args->k, "largest Hamming distance (default: the index scheme's k)")
      ->check(CLI::Range(0, 64));
  sub->add_option("--threads", args->threads, "search threads")->check(CLI::Range(1, 1024));
  sub->add_flag("--verify-checksums", args->verify_checksums,
                "check every checksum of the index before the first query (reads the whole file); without it "
                "each block is checked the first time a query reads it");
  sub->callback([args, run] { *run = [args] { return RunQuery(*args); }; });
}

}  // namespace simdex::tools
