// simdex fingerprint: documents in, one fingerprint per document out, in
// input order, on several threads (tools/fingerprint_pipeline.h).
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "simdex/document_reader.h"
#include "simdex/fingerprint.h"
#include "simdex/fingerprint_file.h"
#include "tools/commands.h"
#include "tools/fingerprint_pipeline.h"
#include "tools/progress.h"

namespace simdex::tools {

namespace {

constexpr size_t kBatchDocuments = 256;
constexpr size_t kBatchBytes = size_t{1} << 20;
constexpr size_t kErrorsShown = 5;
constexpr int kEmptyReasons = 5;  // EmptyReason values 0..4

struct FingerprintArgs {
  std::vector<std::string> inputs;
  std::string format;  // empty: by each input's extension
  std::string id_field = "id";
  std::vector<std::string> text_fields;  // empty: {"text"}
  std::string id_mode = "field";
  std::string output = "-";
  bool binary = false;
  std::string tokenizer = "words";
  int ngram = 3;
  bool no_normalize = false;
  std::vector<std::string> stop_words;
  std::string weighting = "tf";
  std::string idf;
  uint64_t seed = 0;
  std::string compat = "none";
  int threads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  bool skip_bad = false;
  bool quiet = false;
};

// Builds the fingerprint options; a file that cannot be loaded is an error
// (exit 1), the rest was checked by the command line parser.
Status BuildOptions(const FingerprintArgs& args, FingerprintOptions* options) {
  if (args.compat == "python-simhash") options->compat = Compat::kPythonSimhash;
  if (args.tokenizer == "char-ngrams") options->tokenizer = Tokenizer::kCharNgrams;
  if (args.tokenizer == "word-ngrams") options->tokenizer = Tokenizer::kWordNgrams;
  options->ngram = args.ngram;
  options->normalize = !args.no_normalize;
  for (const std::string& list : args.stop_words) {
    if (list == "en" || list == "zh") {
      std::vector<std::string> words = BuiltinStopWords(list);
      options->stop_words.insert(options->stop_words.end(), words.begin(), words.end());
    } else {
      SIMDEX_RETURN_IF_ERROR(LoadStopWords(list, &options->stop_words));
    }
  }
  if (args.weighting == "binary") options->weighting = Weighting::kBinary;
  if (args.weighting == "log-tf") options->weighting = Weighting::kLogTf;
  if (args.weighting == "tf-idf") options->weighting = Weighting::kTfIdf;
  if (!args.idf.empty()) {
    auto table = std::make_shared<IdfTable>();
    SIMDEX_RETURN_IF_ERROR(IdfTable::Load(args.idf, options->normalize, table.get()));
    options->idf = std::move(table);
  }
  options->seed = args.seed;
  return Status::OK();
}

// The documents of all inputs, one after the other, in batches. Ordinal ids
// (line numbers, --id ordinal) continue from one input to the next.
class InputSequence {
 public:
  explicit InputSequence(const FingerprintArgs& args) : args_(args) {}

  Status Fill(DocumentBatch* batch, bool* eof) {
    size_t bytes = 0;
    while (batch->size < kBatchDocuments && bytes < kBatchBytes) {
      if (!reader_) {
        if (next_ == args_.inputs.size()) {
          *eof = true;
          return Status::OK();
        }
        SIMDEX_RETURN_IF_ERROR(OpenNext());
      }
      if (batch->docs.size() <= batch->size) batch->docs.emplace_back();
      Document& doc = batch->docs[batch->size];
      bool end = false;
      SIMDEX_RETURN_IF_ERROR(reader_->Next(&doc, &end));
      const DocumentReaderStats& st = reader_->stats();
      bytes_read_.store(bytes_before_ + st.bytes, std::memory_order_relaxed);
      if (end) {
        CloseCurrent();
        continue;
      }
      if (ordinal_) doc.id += id_offset_;
      bytes += doc.text.size();
      ++batch->size;
    }
    return Status::OK();
  }

  uint64_t bytes_read() const { return bytes_read_.load(std::memory_order_relaxed); }
  // Valid once Fill() has reported the end.
  uint64_t skipped() const { return skipped_; }
  const std::vector<std::string>& first_errors() const { return first_errors_; }

 private:
  Status OpenNext() {
    const std::string& path = args_.inputs[next_++];
    DocumentReaderOptions options;
    options.format = args_.format.empty()   ? DocumentFormatFromPath(path)
                     : args_.format == "jsonl" ? DocumentFormat::kJsonl
                                              : DocumentFormat::kLines;
    options.id_mode = args_.id_mode == "ordinal" ? IdMode::kOrdinal : IdMode::kField;
    options.id_field = args_.id_field;
    if (!args_.text_fields.empty()) options.text_fields = args_.text_fields;
    options.skip_bad = args_.skip_bad;
    options.max_errors_kept = kErrorsShown;
    ordinal_ = options.format == DocumentFormat::kLines || options.id_mode == IdMode::kOrdinal;
    return DocumentReader::Open(path, options, &reader_);
  }

  void CloseCurrent() {
    const DocumentReaderStats& st = reader_->stats();
    id_offset_ += st.records + st.skipped;
    bytes_before_ += st.bytes;
    skipped_ += st.skipped;
    for (const std::string& e : st.first_errors) {
      if (first_errors_.size() < kErrorsShown) first_errors_.push_back(e);
    }
    reader_.reset();
  }

  const FingerprintArgs& args_;
  size_t next_ = 0;
  std::unique_ptr<DocumentReader> reader_;
  bool ordinal_ = false;
  uint64_t id_offset_ = 0;
  uint64_t bytes_before_ = 0;
  std::atomic<uint64_t> bytes_read_{0};
  uint64_t skipped_ = 0;
  std::vector<std::string> first_errors_;
};

// Counts for the summary line, kept by the sink.
struct Tally {
  std::atomic<uint64_t> documents{0};
  uint64_t empty[kEmptyReasons] = {};
  uint64_t invalid_utf8 = 0;
};

void PrintSummary(const Tally& tally, const InputSequence& inputs, double seconds) {
  uint64_t empty = 0;
  std::string reasons;
  for (int r = 1; r < kEmptyReasons; ++r) {
    if (tally.empty[r] == 0) continue;
    empty += tally.empty[r];
    if (!reasons.empty()) reasons += ", ";
    reasons += std::string(EmptyReasonName(static_cast<EmptyReason>(r))) + " " + std::to_string(tally.empty[r]);
  }
  uint64_t docs = tally.documents.load();
  std::fprintf(stderr,
               "simdex fingerprint: %llu documents, %llu fingerprinted, %llu empty%s%s%s, %llu invalid UTF-8 "
               "replacements, %llu skipped bad records, %.2f s, %.1f MB/s\n",
               static_cast<unsigned long long>(docs), static_cast<unsigned long long>(docs - empty),
               static_cast<unsigned long long>(empty), reasons.empty() ? "" : " (", reasons.c_str(),
               reasons.empty() ? "" : ")", static_cast<unsigned long long>(tally.invalid_utf8),
               static_cast<unsigned long long>(inputs.skipped()), seconds,
               seconds > 0 ? inputs.bytes_read() / 1e6 / seconds : 0.0);
}

void PrintSkipped(const InputSequence& inputs) {
  for (const std::string& e : inputs.first_errors()) std::fprintf(stderr, "simdex fingerprint: skipped %s\n", e.c_str());
  if (inputs.skipped() > inputs.first_errors().size()) {
    std::fprintf(stderr, "simdex fingerprint: ... and %llu more skipped\n",
                 static_cast<unsigned long long>(inputs.skipped() - inputs.first_errors().size()));
  }
}

int RunFingerprint(FingerprintArgs args) {
  if (args.inputs.empty()) args.inputs.push_back("-");
  FingerprintOptions options;
  Status s = BuildOptions(args, &options);
  if (!s.ok()) return ReportError("fingerprint", s);
  std::unique_ptr<Fingerprinter> prototype;
  s = Fingerprinter::Create(options, &prototype);
  if (!s.ok()) return ReportError("fingerprint", s, /*usage=*/s.IsInvalidArgument());

  std::unique_ptr<FingerprintFileWriter> writer;
  s = FingerprintFileWriter::Open(args.output, args.binary ? FingerprintFileForm::kBinary : FingerprintFileForm::kText,
                                  &writer);
  if (!s.ok()) return ReportError("fingerprint", s);

  InputSequence inputs(args);
  Tally tally;
  Progress progress("fingerprint", !args.quiet);
  auto source = [&inputs](DocumentBatch* batch, bool* eof) { return inputs.Fill(batch, eof); };
  auto sink = [&writer, &tally](const DocumentBatch& batch) {
    for (size_t i = 0; i < batch.size; ++i) {
      const FingerprintResult& r = batch.results[i];
      tally.invalid_utf8 += r.invalid_utf8;
      if (r.empty()) {
        ++tally.empty[static_cast<int>(r.reason)];
        SIMDEX_RETURN_IF_ERROR(writer->AddEmpty(batch.docs[i].id, EmptyReasonName(r.reason)));
      } else {
        SIMDEX_RETURN_IF_ERROR(writer->Add(batch.docs[i].id, r.fingerprint));
      }
    }
    tally.documents.fetch_add(batch.size, std::memory_order_relaxed);
    return Status::OK();
  };
  auto tick = [&] { progress.Update(tally.documents.load(std::memory_order_relaxed), inputs.bytes_read()); };
  s = RunFingerprintPipeline(*prototype, args.threads, source, sink, tick);
  if (s.ok()) s = writer->Finish();
  progress.Done();
  if (!s.ok()) return ReportError("fingerprint", s);
  if (!args.quiet) PrintSummary(tally, inputs, progress.Seconds());
  if (!args.quiet || inputs.skipped() > 0) PrintSkipped(inputs);
  return 0;
}

}  // namespace

void AddFingerprintCommand(CLI::App& app, CommandRunner* run) {
  auto args = std::make_shared<FingerprintArgs>();
  CLI::App* sub = app.add_subcommand("fingerprint", "SimHash fingerprints of documents (JSONL or one per line)");
  sub->add_option("inputs", args->inputs,
                  "input files; none or '-' = stdin; .gz/.zst/.bz2 are decompressed");
  sub->add_option("--format", args->format,
                  "input format (default: jsonl for .jsonl/.json/.ndjson, else lines: one document per line, "
                  "id = line number)")
      ->check(CLI::IsMember({"jsonl", "lines"}));
  sub->add_option("--id-field", args->id_field, "JSONL field holding the unsigned 64-bit id")->capture_default_str();
  sub->add_option("--text-field", args->text_fields,
                  "JSONL field holding text; repeat to join several with newlines (default: text)")
      ->allow_extra_args(false);
  sub->add_option("--id", args->id_mode, "ids from the id field, or the record number counting from 1 (ordinal)")
      ->check(CLI::IsMember({"field", "ordinal"}))
      ->capture_default_str();
  sub->add_option("-o,--output", args->output,
                  "fingerprint file ('-' = stdout); written as FILE.tmp, then renamed; .gz/.zst/.bz2 compress")
      ->capture_default_str();
  sub->add_flag("--binary", args->binary, "write the binary form (docs/fingerprint-files.md)");
  sub->add_option("--tokenizer", args->tokenizer, "features: words, char-ngrams, word-ngrams")
      ->check(CLI::IsMember({"words", "char-ngrams", "word-ngrams"}))
      ->capture_default_str();
  sub->add_option("--ngram", args->ngram, "n for the n-gram tokenizers")->check(CLI::Range(1, 16))->capture_default_str();
  sub->add_flag("--no-normalize", args->no_normalize, "skip NFKC normalization and case folding");
  sub->add_option("--stop-words", args->stop_words, "drop stop words: en, zh (built-in lists) or FILE; repeatable")
      ->allow_extra_args(false);
  sub->add_option("--weighting", args->weighting, "feature weights: tf, binary, log-tf, tf-idf (needs --idf)")
      ->check(CLI::IsMember({"tf", "binary", "log-tf", "tf-idf"}))
      ->capture_default_str();
  sub->add_option("--idf", args->idf, "term<TAB>idf file for tf-idf weighting");
  sub->add_option("--seed", args->seed, "seed of the feature hash")->capture_default_str();
  sub->add_option("--compat", args->compat,
                  "python-simhash: reproduce the Python simhash package (ignores the text options)")
      ->check(CLI::IsMember({"none", "python-simhash"}))
      ->capture_default_str();
  sub->add_option("--threads", args->threads, "worker threads")->check(CLI::Range(1, 1024))->capture_default_str();
  sub->add_flag("--skip-bad", args->skip_bad, "skip and count bad input records instead of stopping");
  sub->add_flag("-q,--quiet", args->quiet, "no progress line and no summary");
  sub->footer(
      "Output: '<id>\\t<16 hex digits>' per document in input order, '<id>\\t-\\t<reason>' for a document\n"
      "without features; ordinal ids continue across inputs.\n"
      "Example: simdex fingerprint --text-field title --text-field text -o fp.txt docs.jsonl.gz");
  sub->callback([args, run] { *run = [args] { return RunFingerprint(*args); }; });
}

}  // namespace simdex::tools
