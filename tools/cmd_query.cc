// simdex query INDEX [--k K] [--threads N] [--verify-checksums] [--access A]
//   [--cold-reads C] [QUERY...]:
// every entry within Hamming distance k of each fingerprint, one JSON line
// per query in input order:
//   {"query":"<16 hex>","matches":[{"id":<n>,"fingerprint":"<16 hex>","distance":<d>},...]}
// (an index of string ids prints "id":"<the string>").
// Each QUERY is a fingerprint (1 to 16 hex digits), or else a file to read
// them from ("-" = standard input, also the default): a fingerprint file
// (text or binary, as `simdex fingerprint` writes; each line's id is printed
// with it, "id":<id>, and a document without a fingerprint gets
// {"id":..,"query":null,"empty":"<reason>","matches":[]}), or one bare
// fingerprint per line (blank lines ignored). An argument that could be
// either (a file named "face") is a fingerprint: write "./face".
// Fingerprints are searched in batches through the batch Search() so that
// threads share the work.
// A MinHash-LSH index (simdex build --method minhash) is queried with
// documents or signatures instead: each QUERY is a file of documents (JSONL
// or lines) or a MinHash signature file (simdex fingerprint --method
// minhash), and each line of output is
// {"id":..,"matches":[{"id":..,"estimate":..},...]}, with --threshold T,...
// each match's "threshold" the highest it passes, with --top-k K the K
// highest estimates first (LshQueryOptions); a text without shingles gets
// {"id":..,"empty":"no-text","matches":[]} (a signature file's
// "<id>\t-\t<reason>": "empty":"<reason>"). The inputs are all documents
// or all signature files.
#include <sys/stat.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "simdex/document_reader.h"
#include "simdex/fingerprint.h"
#include "simdex/fingerprint_file.h"
#include "simdex/front_end_text.h"
#include "simdex/index.h"
#include "simdex/profile.h"
#include "simdex/signature_file.h"
#include "tools/commands.h"
#include "tools/input_options.h"

namespace simdex::tools {
namespace {

constexpr const char* kQueryCommand = "query";
constexpr size_t kBatchSize = 4096;

struct QueryArgs {
  std::string index;
  int k = -1;  // -1: the scheme's k
  int threads = 1;
  bool verify_checksums = false;
  ReaderOptions::Access access = ReaderOptions().access;
  ReaderOptions::ColdReads cold_reads = ReaderOptions().cold_reads;
  std::vector<std::string> queries;
  // A MinHash-LSH index: the queries are documents.
  DocumentInputArgs documents;
  LshQueryOptions lsh;  // its filter, thresholds, top-k, approximate
};

// One query: a fingerprint, the id of the document it came from as JSON
// ("" when it has none), or the reason a document has no fingerprint.
struct Query {
  uint64_t fingerprint = 0;
  std::string id_json;
  std::string empty;
};

std::string_view TrimSpace(std::string_view s) {
  const auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

// A fingerprint given as an argument, not a file name.
bool IsHexArgument(const std::string& arg, uint64_t* fingerprint) {
  return arg.find_first_of("./") == std::string::npos && ParseHexFingerprint(arg, fingerprint);
}

using QuerySink = std::function<Status(Query&&)>;

// What the queries are checked against: the index's fingerprint profile.
struct IndexProfile {
  std::string name;     // the index file, for messages
  std::string profile;  // "" when it records none
};

// The documents of a fingerprint file, in order; refused when the file
// records a profile other than the index's.
Status ReadFingerprintFile(const std::string& path, const IndexProfile& index, const QuerySink& sink) {
  std::unique_ptr<FingerprintFileReader> reader;
  SIMDEX_RETURN_IF_ERROR(FingerprintFileReader::Open(path, {}, &reader));
  SIMDEX_RETURN_IF_ERROR(CheckSameProfile(index.name, index.profile, reader->name(), reader->profile()));
  FingerprintEntry entry;
  for (bool eof = false;;) {
    SIMDEX_RETURN_IF_ERROR(reader->Next(&entry, &eof));
    if (eof) return Status::OK();
    Query q;
    q.fingerprint = entry.fingerprint;
    AppendJsonId(&q.id_json, entry.id, entry.id_string);
    if (entry.empty) q.empty = entry.empty_reason;
    SIMDEX_RETURN_IF_ERROR(sink(std::move(q)));
  }
}

// One bare fingerprint per line.
Status ReadFingerprintLines(const std::string& path, const QuerySink& sink) {
  DocumentReaderOptions options;
  options.format = DocumentFormat::kLines;
  std::unique_ptr<DocumentReader> reader;
  SIMDEX_RETURN_IF_ERROR(DocumentReader::Open(path, options, &reader));
  Document line;
  for (bool eof = false;;) {
    SIMDEX_RETURN_IF_ERROR(reader->Next(&line, &eof));
    if (eof) return Status::OK();
    const std::string_view text = TrimSpace(line.text);
    if (text.empty()) continue;
    Query q;
    if (!ParseHexFingerprint(text, &q.fingerprint)) {
      return Status::InvalidArgument(reader->name() + ":" + std::to_string(line.line) + ": " + Quoted(text) +
                                     " is not a fingerprint (1 to 16 hex digits) or a fingerprint file's line");
    }
    SIMDEX_RETURN_IF_ERROR(sink(std::move(q)));
  }
}

// The queries of a file or standard input, by what it holds.
Status ReadQueries(const std::string& path, const IndexProfile& index, const QuerySink& sink) {
  BatchFormat format;
  SIMDEX_RETURN_IF_ERROR(DetectBatchFormat(path, &format));
  if (format == BatchFormat::kJsonl) {
    return Status::InvalidArgument(DisplayName(path) +
                                   " holds JSON documents, not fingerprints (simdex fingerprint makes them)");
  }
  if (format == BatchFormat::kSignatures) {
    return Status::InvalidArgument(DisplayName(path) + " holds MinHash signatures, not SimHash fingerprints: " +
                                   index.name + " is a SimHash index (a MinHash-LSH index reads them)");
  }
  return format == BatchFormat::kFingerprints ? ReadFingerprintFile(path, index, sink)
                                              : ReadFingerprintLines(path, sink);
}

// Ids are printed as numbers, or for an index of string ids as the strings.
void AppendJsonLine(const IndexReader& reader, const Query& query, std::span<const Match> matches, std::string* out) {
  out->append("{");
  if (!query.id_json.empty()) out->append("\"id\":").append(query.id_json).push_back(',');
  if (!query.empty.empty()) {
    out->append("\"query\":null,\"empty\":");
    AppendJsonString(out, query.empty);
    out->append(",\"matches\":[]}\n");
    return;
  }
  out->append("\"query\":\"").append(FormatHexFingerprint(query.fingerprint)).append("\",\"matches\":[");
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

// Searches a batch of queries (empty documents are not searched), writes
// their JSON lines to stdout, and clears the batch.
Status SearchAndPrint(const IndexReader& reader, const QueryArgs& args, int k, std::vector<Query>* batch) {
  std::vector<uint64_t> fingerprints;
  for (const Query& q : *batch) {
    if (q.empty.empty()) fingerprints.push_back(q.fingerprint);
  }
  SearchResults results;
  SIMDEX_RETURN_IF_ERROR(reader.Search(fingerprints, k, &results, args.threads));  // errors name the index
  std::string out;
  size_t searched = 0;
  for (const Query& q : *batch) {
    if (!q.empty.empty()) {
      AppendJsonLine(reader, q, {}, &out);
      continue;
    }
    const size_t begin = results.lims[searched], end = results.lims[searched + 1];
    ++searched;
    AppendJsonLine(reader, q, std::span<const Match>(results.matches).subspan(begin, end - begin), &out);
  }
  batch->clear();
  if (std::fwrite(out.data(), 1, out.size(), stdout) != out.size()) {
    return Status::IOError("error writing standard output");
  }
  return Status::OK();
}

// Appends {"id":..,"estimate":..} for each match, and "threshold":<the
// highest passed> when the query has thresholds.
void AppendMatches(const LshIndexReader& index, const std::vector<LshMatch>& matches, std::string* line) {
  line->append("\"matches\":[");
  for (size_t j = 0; j < matches.size(); ++j) {
    if (j > 0) line->push_back(',');
    line->append("{\"id\":");
    if (index.has_string_ids()) AppendJsonString(line, index.IdString(matches[j].id));
    else line->append(std::to_string(matches[j].id));
    char estimate[32];
    std::snprintf(estimate, sizeof(estimate), ",\"estimate\":%.4g", matches[j].estimate);
    line->append(estimate);
    if (matches[j].threshold > 0) {
      char threshold[32];
      const auto r = std::to_chars(threshold, threshold + sizeof threshold, matches[j].threshold);
      line->append(",\"threshold\":").append(threshold, r.ptr);
    }
    line->push_back('}');
  }
  line->append("]}\n");
}

// Queries the index and prints one document's line: its signature's
// matches (decided on the sketches with the document's shingles, when
// given), or (signature null) {"empty":<reason>} without searching.
class Printer {
 public:
  Printer(const LshIndexReader& index, const LshQueryOptions& options) : index_(index), options_(options) {}

  Status Print(uint64_t id, const std::string& id_string, const uint32_t* signature, std::string_view empty_reason,
               const std::vector<uint64_t>* shingles = nullptr) {
    line_.assign("{\"id\":");
    AppendJsonId(&line_, id, id_string);
    line_.push_back(',');
    if (signature == nullptr) {
      line_.append("\"empty\":");
      AppendJsonString(&line_, empty_reason);
      line_.append(",\"matches\":[]}\n");
    } else {
      SIMDEX_RETURN_IF_ERROR(shingles != nullptr ? index_.Query(signature, *shingles, options_, &matches_)
                                                 : index_.Query(signature, options_, &matches_));
      AppendMatches(index_, matches_, &line_);
    }
    if (std::fwrite(line_.data(), 1, line_.size(), stdout) != line_.size()) {
      return Status::IOError("error writing standard output");
    }
    return Status::OK();
  }

 private:
  const LshIndexReader& index_;
  const LshQueryOptions& options_;
  std::vector<LshMatch> matches_;
  std::string line_;
};

// The documents of a signature file, refused unless its profile is the
// index's.
Status QuerySignatureFile(const std::string& path, const std::string& index_path, const LshIndexReader& index,
                          Printer* printer) {
  std::unique_ptr<SignatureFileReader> reader;
  SIMDEX_RETURN_IF_ERROR(SignatureFileReader::Open(path, &reader));
  if (reader->profile() != index.profile()) {
    return Status::InvalidArgument(reader->name() + " holds signatures of '" + reader->profile() + "', " +
                                   index_path + " of '" + index.profile() +
                                   "': signatures of different profiles are not comparable");
  }
  SignatureEntry entry;
  for (bool eof = false;;) {
    SIMDEX_RETURN_IF_ERROR(reader->Next(&entry, &eof));
    if (eof) return Status::OK();
    SIMDEX_RETURN_IF_ERROR(printer->Print(entry.id, entry.id_string, entry.empty ? nullptr : entry.signature.data(),
                                          entry.empty_reason));
  }
}

// A MinHash-LSH index: its queries are documents or signature files.
int RunLshQuery(const QueryArgs& args, const LshIndexReader& index) {
  if (args.k >= 0) return ReportError(kQueryCommand, "--k is a SimHash option; " + args.index + " is a MinHash-LSH index", kExitUsage);
  const LshQueryOptions& options = args.lsh;
  if (!(options.min_estimate < 0 || options.min_estimate <= 1)) {
    return ReportError(kQueryCommand, "--min-estimate must be a J in [0, 1]", kExitUsage);
  }
  if (options.min_estimate >= 0 && !options.thresholds.empty()) {
    return ReportError(kQueryCommand, "--min-estimate and --threshold are two filters: give one", kExitUsage);
  }
  Status s = options.Validate();
  if (!s.ok()) return ReportError(kQueryCommand, s, /*usage=*/true);
  DocumentInputArgs input = args.documents;
  input.inputs = args.queries;
  s = PrepareDocumentInputs(kQueryCommand, &input, /*quiet=*/false, /*allow_signatures=*/true);
  if (!s.ok()) return ReportError(kQueryCommand, s, /*usage=*/true);
  bool signatures = false;
  s = AllOrNoSignatureFiles(input, &signatures);
  if (!s.ok()) return ReportError(kQueryCommand, s.message() + "; query them separately", kExitUsage);
  s = index.ValidateQuery(options);  // a threshold below the index's
  if (!s.ok()) return ReportError(kQueryCommand, s, /*usage=*/true);
  Printer printer(index, options);
  if (signatures) {
    for (size_t i = 0; s.ok() && i < input.inputs.size(); ++i) {
      s = QuerySignatureFile(input.inputs[i], args.index, index, &printer);
    }
  } else {
    auto print = [&](const SignedDocuments& b) -> Status {
      for (size_t i = 0; i < b.documents.size(); ++i) {
        const Document& doc = b.documents[i];
        SIMDEX_RETURN_IF_ERROR(printer.Print(doc.id, doc.id_string, b.has_shingles[i] ? b.signature(i) : nullptr,
                                             "no-text", &b.shingles[i]));
      }
      return Status::OK();
    };
    s = SignDocuments(kQueryCommand, index.minhash_options(), input, args.threads, /*quiet=*/false, print);
  }
  if (s.ok() && std::fflush(stdout) != 0) s = Status::IOError("error writing standard output");
  return s.ok() ? 0 : ReportError(kQueryCommand, s);
}

// A SimHash index: its queries are fingerprints, or files of them.
int RunSimHashQuery(const QueryArgs& args, const IndexReader& opened) {
  const IndexReader* reader = &opened;
  // Each argument is a fingerprint or a file of them; none is standard input.
  std::vector<std::string> sources = args.queries.empty() ? std::vector<std::string>{"-"} : args.queries;
  std::vector<bool> is_hex(sources.size());
  std::vector<uint64_t> hex(sources.size());
  for (size_t i = 0; i < sources.size(); ++i) {
    is_hex[i] = IsHexArgument(sources[i], &hex[i]);
    struct stat st;
    if (!is_hex[i] && sources[i] != "-" && ::stat(sources[i].c_str(), &st) != 0) {
      return ReportError(kQueryCommand,
                         Quoted(sources[i]) + " is not a fingerprint (1 to 16 hex digits) nor a file of them",
                         kExitUsage);
    }
  }
  if (std::count(sources.begin(), sources.end(), "-") > 1) {
    return ReportError(kQueryCommand, "standard input ('-') may be given only once", kExitUsage);
  }

  const std::pair<bool, const char*> lsh_options[] = {{args.lsh.min_estimate >= 0, "--min-estimate"},
                                                      {!args.lsh.thresholds.empty(), "--threshold"},
                                                      {args.lsh.top_k > 0, "--top-k"},
                                                      {args.lsh.approximate, "--approximate"}};
  for (const auto& [given, name] : lsh_options) {
    if (given) {
      return ReportError(kQueryCommand, std::string(name) + " is a MinHash-LSH option; " + args.index +
                         " is a SimHash index", kExitUsage);
    }
  }
  const int max_k = reader->scheme().k();
  const int k = args.k < 0 ? max_k : args.k;
  if (k > max_k) {
    return ReportError(kQueryCommand,
                       "--k " + std::to_string(k) + " is larger than the index's k (" +
                           std::to_string(max_k) + ", scheme " + reader->scheme().Name() + ")",
                       kExitUsage);
  }

  std::vector<Query> batch;
  auto add = [&](Query&& q) -> Status {
    batch.push_back(std::move(q));
    return batch.size() == kBatchSize ? SearchAndPrint(*reader, args, k, &batch) : Status::OK();
  };
  Status s;
  const IndexProfile index{args.index, reader->profile()};
  for (size_t i = 0; s.ok() && i < sources.size(); ++i) {
    if (is_hex[i]) s = add(Query{hex[i], "", ""});
    else s = ReadQueries(sources[i], index, add);
  }
  if (s.ok() && !batch.empty()) s = SearchAndPrint(*reader, args, k, &batch);
  if (s.ok() && std::fflush(stdout) != 0) s = Status::IOError("error writing standard output");
  return s.ok() ? 0 : ReportError(kQueryCommand, s.message());
}

int RunQuery(const QueryArgs& args) {
  ReaderOptions options;
  options.verify_block_checksums = args.verify_checksums;
  options.access = args.access;
  options.cold_reads = args.cold_reads;
  std::unique_ptr<IndexFile> file;
  if (int bad = OpenIndexOrReport(kQueryCommand, args.index, options, &file)) return bad;
  return VisitIndexFile<int>(*file, Overloads{[&](const IndexReader& index) { return RunSimHashQuery(args, index); },
                                              [&](const LshIndexReader& index) { return RunLshQuery(args, index); }});
}

// An option naming a ReaderOptions choice as the library spells it (parse:
// ParseAccess, ParseColdReads, as Python and the C API take it; its
// default, *out's, shown by name_of), refused while the arguments are
// parsed with the library's message. *out must outlive the command.
template <typename Choice>
void AddReaderChoice(CLI::App* sub, const char* name, Status (*parse)(std::string_view, Choice*),
                     std::string_view (*name_of)(Choice), Choice* out, const char* help) {
  sub->add_option_function<std::string>(
         name, [parse, out](const std::string& v) { (void)parse(v, out); }, help)
      ->default_str(std::string(name_of(*out)))
      ->check([parse](const std::string& v) {
        Choice c;
        const Status s = parse(v, &c);
        return s.ok() ? std::string() : s.message();
      });
}

}  // namespace

void AddQueryCommand(CLI::App& app, CommandRunner* run) {
  auto args = std::make_shared<QueryArgs>();
  CLI::App* sub = app.add_subcommand(
      "query", "Find the entries within distance k of fingerprints (JSON lines on stdout)");
  sub->add_option("index", args->index, "index file")->required();
  sub->add_option("queries", args->queries,
                  "fingerprints (1 to 16 hex digits each), or files of them ('-' = stdin, the default): fingerprint "
                  "files (text or binary; ids are printed) or one fingerprint per line. A MinHash-LSH index: files "
                  "of documents, or MinHash signature files (simdex fingerprint --method minhash)");
  sub->add_option("--k", args->k, "largest Hamming distance (default: the index scheme's k)")
      ->check(CLI::Range(0, 64));
  sub->add_option("--threads", args->threads, "search threads")->check(CLI::Range(1, 1024));
  sub->add_option("--text-field", args->documents.text_fields,
                  "MinHash-LSH index: JSONL field holding the queries' text (default: text)")
      ->allow_extra_args(false);
  sub->add_option("--id-field", args->documents.id_field, "MinHash-LSH index: JSONL field holding the query's id");
  sub->add_option("--format", args->documents.format,
                  "MinHash-LSH index: query documents' format (default: jsonl for .jsonl/.json/.ndjson, else lines)")
      ->check(CLI::IsMember({"jsonl", "lines"}));
  sub->add_option("--min-estimate", args->lsh.min_estimate,
                  "MinHash-LSH index: keep documents whose estimated J is at least this (default: the index's "
                  "threshold where its sketches decide, else two standard errors below it)")
      ->check(CLI::Range(0.0, 1.0));
  sub->add_option("--threshold", args->lsh.thresholds,
                  "MinHash-LSH index: keep documents whose estimated J passes T: query documents against an index "
                  "of sketches, when their sketch estimate is at least T; else (signature files, --approximate, "
                  "an index without sketches) when the b-bit signature estimate is at least T's filter, two "
                  "standard errors below T (0.729 for 0.8 at 128 values); each T at least the index's threshold. "
                  "Several, comma-separated (0.7,0.8,0.9): each match says the highest it passes")
      ->delimiter(',')
      ->allow_extra_args(false);
  sub->add_option("--top-k", args->lsh.top_k,
                  "MinHash-LSH index: the K documents with the highest estimates per query, highest first, equal "
                  "estimates in id order, among those the filter keeps (--threshold, --min-estimate or the index's default)")
      ->check(CLI::Range(uint64_t{1}, std::numeric_limits<uint64_t>::max()));
  sub->add_flag("--approximate", args->lsh.approximate,
                "MinHash-LSH index: decide on the b-bit signature estimate even where the index stores sketches");
  sub->add_flag("--verify-checksums", args->verify_checksums,
                "check every checksum of the index before the first query (reads the whole file); without it "
                "each block is checked the first time a query reads it");
  AddReaderChoice(sub, "--access", ParseAccess, AccessName, &args->access,
                  "how the index's pages are read: auto (random for a file larger than half of memory, else "
                  "read-around), read-around (a page fault also reads its neighbours), random (a fault reads its "
                  "own page)");
  AddReaderChoice(sub, "--cold-reads", ParseColdReads, ColdReadsName, &args->cold_reads,
                  "whether a SimHash search asks for all its blocks at once before reading them: when-missing "
                  "(under random access, when the last search waited for the disk), always, never");
  sub->callback([args, run] { *run = [args] { return RunQuery(*args); }; });
}

}  // namespace simdex::tools
