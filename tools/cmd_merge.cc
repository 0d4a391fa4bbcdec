// simdex merge OLD.sdx [BATCH...] --out NEW.sdx [--delete IDS] [--only-new]:
// grows an index (include/simdex/merge.h). The batch's fingerprint files
// are merged into OLD's sorted tables without sorting them again; --delete
// removes OLD's entries whose ids a file lists (one per line); --only-new
// adds only the batch documents that are not near-duplicates of OLD's
// entries or of earlier batch documents (the Deduplicator decides; for a
// MinHash-LSH index, LshNewDocumentFilter at the index's threshold). The
// result is byte for byte what `simdex build` writes for the same entries.
// The kind of OLD chooses the batch (OpenIndexFile, VisitIndexFile).
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "simdex/dedup.h"
#include "simdex/fingerprint_file.h"
#include "simdex/front_end_text.h"
#include "simdex/index.h"
#include "simdex/merge.h"
#include "simdex/profile.h"
#include "tools/commands.h"
#include "tools/input_options.h"
#include "tools/memory_option.h"
#include "tools/output_checks.h"
#include "tools/progress.h"
#include "tools/stopwatch.h"

namespace simdex::tools {
namespace {

constexpr const char* kMergeCommand = "merge";
constexpr size_t kMergeReadBatch = size_t{1} << 16;

struct MergeArgs {
  std::string old;
  std::vector<std::string> inputs;
  std::string out;
  std::string delete_file;
  bool only_new = false;
  bool replace = false;  // ids the old index holds: replaced, not refused
  int k = -1;
  std::string memory;
  std::string tmpdir;
  int threads = 1;
  bool skip_bad = false;
  bool quiet = false;
  DocumentInputArgs documents;  // a MinHash-LSH index's batch: its input options
};

// The batch: every record of its fingerprint files, in order. A record with
// a string id holds the string's index in `strings` as its id.
struct Batch {
  std::vector<FingerprintRecord> records;
  std::vector<bool> string_id;
  std::vector<std::string> strings;

  Status AddTo(IndexMerger* merger) const {
    for (size_t i = 0; i < records.size(); ++i) {
      const FingerprintRecord& r = records[i];
      SIMDEX_RETURN_IF_ERROR(string_id[i] ? merger->Add(strings[r.id], r.fingerprint)
                                          : merger->Add(r.id, r.fingerprint));
    }
    return Status::OK();
  }
  // Keeps the records i with keep(i), in order.
  template <class Keep>
  void Filter(const Keep& keep) {
    size_t kept = 0;
    for (size_t i = 0; i < records.size(); ++i) {
      if (!keep(i)) continue;
      records[kept] = records[i];
      string_id[kept] = string_id[i];
      ++kept;
    }
    records.resize(kept);
    string_id.resize(kept);
  }
};

// Reads every record of the batch's fingerprint files; documents without a
// fingerprint are counted in *empty. Each file's profile must match
// *profiles' (the old index's).
Status ReadBatch(const MergeArgs& args, ProfileCheck* profiles, Batch* out, uint64_t* skipped, uint64_t* empty) {
  for (const std::string& path : args.inputs) {
    FingerprintFileReaderOptions options;
    options.skip_bad = args.skip_bad;
    std::unique_ptr<FingerprintFileReader> reader;
    SIMDEX_RETURN_IF_ERROR(FingerprintFileReader::Open(path, options, &reader));
    SIMDEX_RETURN_IF_ERROR(profiles->Add(reader->name(), reader->profile()));
    FingerprintEntry entry;
    for (bool eof = false;;) {
      SIMDEX_RETURN_IF_ERROR(reader->Next(&entry, &eof));
      if (eof) break;
      if (entry.empty) {
        ++*empty;
        continue;
      }
      const bool is_string = !entry.id_string.empty();
      if (is_string) out->strings.push_back(std::move(entry.id_string));
      out->records.push_back({is_string ? out->strings.size() - 1 : entry.id, entry.fingerprint});
      out->string_id.push_back(is_string);
    }
    *skipped += reader->stats().skipped;
  }
  return Status::OK();
}

// Ids to delete, one per line; blank lines and lines starting with '#' are
// skipped. For an index of numeric ids each is an unsigned decimal id; for
// an index of string ids, a string id.
template <class Merger>
Status ReadIds(const std::string& path, bool string_ids, Merger* merger) {
  std::FILE* f = path == "-" ? stdin : std::fopen(path.c_str(), "r");
  if (f == nullptr) return Status::IOError(path + ": cannot open");
  char* line = nullptr;
  size_t capacity = 0;
  uint64_t number = 0;
  Status s;
  for (ssize_t len; s.ok() && (len = getline(&line, &capacity, f)) >= 0;) {
    ++number;
    std::string text(line, static_cast<size_t>(len));
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
    if (text.empty() || text[0] == '#') continue;
    if (string_ids) {
      s = CheckStringId(text);
      s = s.ok() ? merger->Delete(text)
                 : Status::InvalidArgument(path + ":" + std::to_string(number) + ": " + s.message());
      continue;
    }
    uint64_t id = 0;
    if (!ParseDecimalUint64(text, &id)) {
      s = Status::InvalidArgument(path + ":" + std::to_string(number) + ": " + Quoted(text) +
                                  " is not an unsigned 64-bit id");
    } else {
      s = merger->Delete(id);
    }
  }
  const bool read_error = std::ferror(f) != 0;
  std::free(line);
  if (f != stdin) std::fclose(f);
  if (s.ok() && read_error) s = Status::IOError(path + ": read error");
  return s;
}

// With --only-new: the batch records that are not near-duplicates of the
// old index's entries or of an earlier batch record.
Status KeepNew(const MergeArgs& args, const MergeOptions& merge, const IndexReader& old, Batch* batch,
               uint64_t* dropped) {
  DedupOptions options;
  options.scheme = old.scheme();
  options.k = args.k;
  options.memory_bytes = merge.memory_bytes;
  options.tmpdir = args.tmpdir;
  options.threads = args.threads;
  std::unique_ptr<Deduplicator> dedup;
  SIMDEX_RETURN_IF_ERROR(Deduplicator::Create(options, &dedup));
  SIMDEX_RETURN_IF_ERROR(dedup->AddIndex(&old));
  for (const FingerprintRecord& r : batch->records) SIMDEX_RETURN_IF_ERROR(dedup->Add(r.fingerprint));
  SIMDEX_RETURN_IF_ERROR(dedup->Finish());
  const size_t before = batch->records.size();
  batch->Filter([&](size_t i) { return !dedup->Result(i).duplicate; });
  *dropped = before - batch->records.size();
  return Status::OK();
}

// Ids the old index holds: refused, or with --replace their old entries
// replaced (the library keeps both unless asked).
ExistingIds ExistingIdsOf(const MergeArgs& args) {
  return args.replace ? ExistingIds::kReplace : ExistingIds::kRefuse;
}

// A merge's error message; the refusal of batch ids the old index holds
// (ExistingIds::kRefuse) names the option that replaces them.
std::string WithReplaceHint(const Status& s) {
  std::string message = s.message();
  if (s.IsInvalidArgument() && message.find(" is in the old index already") != std::string::npos) {
    message += " (--replace replaces their old entries)";
  }
  return message;
}

// " - N replaced" when a merge replaced old entries (--replace), else "".
std::string ReplacedPart(uint64_t replaced) {
  return replaced == 0 ? std::string() : " - " + std::to_string(replaced) + " replaced";
}

// A MinHash-LSH index: its batch is documents, signed with the old
// index's options; --k is SimHash's (--only-new decides at the index's
// threshold: LshNewDocumentFilter).
int RunLshMerge(const MergeArgs& args, const LshIndexReader& old) {
  if (args.k >= 0) {
    return ReportError(kMergeCommand, "--k is a SimHash option; " + args.old + " is a MinHash-LSH index", kExitUsage);
  }
  LshMergeOptions options;
  if (int bad = ParseMemoryOrReport(kMergeCommand, args.memory, &options.memory_bytes)) return bad;
  options.tmpdir = args.tmpdir;
  options.existing_ids = ExistingIdsOf(args);
  const Stopwatch stopwatch;
  DocumentInputArgs input = args.documents;
  input.inputs = args.inputs;
  input.skip_bad = args.skip_bad;
  const bool batch = !input.inputs.empty();
  if (batch) {
    Status s = PrepareDocumentInputs(kMergeCommand, &input, args.quiet);
    if (!s.ok()) return ReportError(kMergeCommand, s, /*usage=*/true);
  }
  std::unique_ptr<LshIndexMerger> merger;
  Status s = LshIndexMerger::Create(&old, args.out, options, &merger);
  std::unique_ptr<LshNewDocumentFilter> filter;
  if (args.only_new) filter = std::make_unique<LshNewDocumentFilter>(&old);
  auto add = [&](const SignedDocuments& b) { return AddSignedBatch(b, merger.get(), filter.get()); };
  if (s.ok() && batch) s = SignDocuments(kMergeCommand, old.minhash_options(), input, args.threads, args.quiet, add);
  if (s.ok() && !args.delete_file.empty()) s = ReadIds(args.delete_file, /*string_ids=*/true, merger.get());
  if (s.ok()) s = merger->Finish();
  if (!s.ok()) {
    if (merger) merger->Abandon();
    return ReportError(kMergeCommand, WithReplaceHint(s), s.IsInvalidArgument() && !merger ? kExitUsage : kExitFailure);
  }
  if (!args.quiet) {
    const LshMergeStats& st = merger->stats();
    auto u = [](uint64_t v) { return static_cast<unsigned long long>(v); };
    // With --only-new, the documents left out, as SimHash's summary counts them.
    const std::string left_out =
        filter ? Count(filter->left_out(), "batch document") + " left out as near-duplicates, " : std::string();
    std::printf("%s: %s (%llu old - %llu deleted%s + %llu added; %s%s to delete not found), MinHash-LSH, %s, %.2f s\n",
                args.out.c_str(), Count(st.documents, "document").c_str(), u(st.old_documents), u(st.deleted),
                ReplacedPart(st.replaced).c_str(), u(st.added), left_out.c_str(), Count(st.ids_not_found, "id").c_str(),
                Count(st.file_bytes, "byte").c_str(), stopwatch.Seconds());
  }
  return std::fflush(stdout) == 0 ? 0 : ReportError(kMergeCommand, "error writing standard output");
}

// A SimHash index: its batch is fingerprint files.
int RunSimHashMerge(const MergeArgs& args, const IndexReader& opened) {
  const IndexReader* old = &opened;
  if (!args.documents.text_fields.empty() || args.documents.id_field != DocumentInputArgs().id_field ||
      !args.documents.format.empty()) {
    return ReportError(kMergeCommand, "--text-field, --id-field and --format are for a MinHash-LSH index; " + args.old +
                                     " is a SimHash index (its batch is fingerprint files)", kExitUsage);
  }
  MergeOptions options;
  if (int bad = ParseMemoryOrReport(kMergeCommand, args.memory, &options.memory_bytes)) return bad;
  options.tmpdir = ScratchDirFor(args.out, args.tmpdir);
  options.threads = args.threads;
  options.existing_ids = ExistingIdsOf(args);
  if (args.k > old->scheme().k()) {
    return ReportError(kMergeCommand, "--k " + std::to_string(args.k) + " is larger than the index's k (" +
                                     std::to_string(old->scheme().k()) + ")", kExitUsage);
  }
  Progress progress(kMergeCommand, !args.quiet);
  Batch batch;
  uint64_t skipped = 0, empty = 0, dropped = 0;
  ProfileCheck profiles;
  Status s = profiles.Add(args.old, old->profile());
  if (s.ok()) s = ReadBatch(args, &profiles, &batch, &skipped, &empty);
  options.profile = profiles.profile();
  if (s.ok() && args.only_new) s = KeepNew(args, options, *old, &batch, &dropped);
  std::unique_ptr<IndexMerger> merger;
  if (s.ok()) s = IndexMerger::Create(old, args.out, options, &merger);
  if (s.ok()) s = batch.AddTo(merger.get());
  if (s.ok() && !args.delete_file.empty()) s = ReadIds(args.delete_file, old->has_string_ids(), merger.get());
  if (s.ok()) {
    progress.Update("merging " + Count(batch.records.size(), "entry", "entries") + " into " +
                    std::to_string(old->entries()));
    s = merger->Finish();
  }
  progress.Done();
  if (!s.ok()) {
    if (merger) merger->Abandon();
    return ReportError(kMergeCommand, WithReplaceHint(s));
  }
  if (!args.quiet) {
    const MergeStats& st = merger->stats();
    auto u = [](uint64_t v) { return static_cast<unsigned long long>(v); };
    std::printf("%s: %s (%llu old - %llu deleted%s + %llu added; %s left out as near-duplicates, %s, %s skipped, "
                "%s to delete not found), %s, %.2f s\n",
                args.out.c_str(), Count(st.entries, "entry", "entries").c_str(), u(st.old_entries), u(st.deleted),
                ReplacedPart(st.replaced).c_str(), u(st.added), Count(dropped, "batch record").c_str(), Count(empty, "empty document").c_str(),
                Count(skipped, "bad line").c_str(), Count(st.ids_not_found, "id").c_str(),
                Count(st.file_bytes, "byte").c_str(), progress.Seconds());
  }
  return std::fflush(stdout) == 0 ? 0 : ReportError(kMergeCommand, "error writing standard output");
}

int RunMerge(const MergeArgs& args) {
  // --out may name the index itself (it is mapped, and replaced by a rename);
  // not a batch file or the list of ids to delete.
  std::vector<std::string> read = args.inputs;
  read.push_back(args.delete_file);
  Status checked = CheckOutputsAreNotInputs({{"--out", args.out}}, read);
  if (!checked.ok()) return ReportError(kMergeCommand, checked, /*usage=*/true);
  std::unique_ptr<IndexFile> old;
  if (int bad = OpenIndexOrReport(kMergeCommand, args.old, ReaderOptions(), &old)) return bad;
  return VisitIndexFile<int>(*old, Overloads{[&](const IndexReader& index) { return RunSimHashMerge(args, index); },
                                             [&](const LshIndexReader& index) { return RunLshMerge(args, index); }});
}

}  // namespace

void AddMergeCommand(CLI::App& app, CommandRunner* run) {
  auto args = std::make_shared<MergeArgs>();
  CLI::App* sub = app.add_subcommand("merge", "Merge a batch of fingerprints into an index (and delete ids): a new index");
  sub->add_option("index", args->old, "the existing index")->required();
  sub->add_option("inputs", args->inputs, "fingerprint files of the batch, text or binary ('-' = stdin)");
  sub->add_option("--out", args->out, "the new index (written under a temporary name, then renamed)")->required();
  sub->add_option("--delete", args->delete_file,
                  "file of ids (one per line: numbers, or strings for an index of string ids) whose entries leave "
                  "the index");
  sub->add_flag("--only-new", args->only_new,
                "add only batch records that are not near-duplicates of the index or of earlier records (MinHash-LSH: "
                "at the index's threshold)");
  sub->add_option("--k", args->k, "distance for --only-new (default: the index scheme's k)")->check(CLI::Range(0, 64));
  sub->add_flag("--replace", args->replace,
                "a batch id the index holds already replaces its old entries (default: such a batch is refused, "
                "naming the id)");
  sub->add_option("--memory", args->memory,
                  "memory bound, e.g. 512M, 2G (default 1G; MinHash-LSH: at least 256K per band)");
  sub->add_option("--tmpdir", args->tmpdir, "directory for scratch files (default: next to --out)");
  sub->add_option("--threads", args->threads, "threads")->check(CLI::Range(1, 1024));
  sub->add_flag("--skip-bad", args->skip_bad, "skip and count malformed text lines");
  sub->add_flag("-q,--quiet", args->quiet, "no progress and no summary");
  sub->add_option("--text-field", args->documents.text_fields,
                  "MinHash-LSH index: JSONL field holding the batch documents' text (default: text)")
      ->allow_extra_args(false);
  sub->add_option("--id-field", args->documents.id_field, "MinHash-LSH index: JSONL field holding a document's id");
  sub->add_option("--format", args->documents.format,
                  "MinHash-LSH index: the batch's format (default: jsonl for .jsonl/.json/.ndjson, else lines)")
      ->check(CLI::IsMember({"jsonl", "lines"}));
  sub->footer(
      "A MinHash-LSH index (simdex build --method minhash) takes a batch of documents instead, signed as its\n"
      "own were; its deletions are ids as strings or numbers; with --only-new a batch document is left out\n"
      "when the index or an earlier batch document matches it at the index's threshold.\n"
      "A batch id the index holds already is refused (the same batch merged twice would store each id\n"
      "twice); --replace removes the old entries of such ids, as --delete would, before adding the batch's.\n"
      "The new index keeps the old one's scheme, block size and restart points and is byte for byte the\n"
      "index `simdex build` makes of the same entries. Deleted ids remove the old index's entries only.\n"
      "String ids are kept; a batch of string ids turns an index of numeric ids into one of string ids\n"
      "(the old ids kept as their decimal strings), as `simdex build` does for mixed ids.\n"
      "Example: simdex merge corpus.sdx batch.fp --delete gone.txt --out corpus-new.sdx");
  sub->callback([args, run] { *run = [args] { return RunMerge(*args); }; });
}

}  // namespace simdex::tools
