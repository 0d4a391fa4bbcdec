#include "tools/service_options.h"

#include <algorithm>
#include <limits>

#include <CLI/CLI.hpp>

namespace simdex::tools {

bool ParseDuration(const std::string& text, int64_t* seconds) {
  if (text.empty()) return false;
  int64_t unit = 1;
  std::string digits = text;
  switch (text.back()) {
    case 's': unit = 1; digits.pop_back(); break;
    case 'm': unit = 60; digits.pop_back(); break;
    case 'h': unit = 3600; digits.pop_back(); break;
    case 'd': unit = 86400; digits.pop_back(); break;
    default: break;
  }
  if (digits.empty() || digits.size() > 12 || !std::all_of(digits.begin(), digits.end(), [](char c) {
        return c >= '0' && c <= '9';
      })) {
    return false;
  }
  *seconds = std::stoll(digits) * unit;
  return true;
}

void AddServiceOptions(CLI::App* sub, ServiceOptionArgs* args) {
  sub->add_option("--data", args->data, "directory of the service's state (created if missing)")->required();
  sub->add_option("-k,--k", args->k, "largest distance between two contents of one docId")->capture_default_str();
  sub->add_option("--k-title", args->k_title, "largest distance between two titles of one docId")
      ->capture_default_str();
  sub->add_option("--content-scheme", args->content_scheme,
                  "tables of the content index (default: t10, or a scheme covering k or --k-short when either is above "
                  "3; fixed when --data is created)");
  sub->add_option("--title-scheme", args->title_scheme,
                  "tables of the title index (default: 16,16,16,16:0 for --k-title 0, else t10)");
  sub->add_option("--window", args->window, "retention window: entries older than this expire (0: never)")
      ->capture_default_str();
  sub->add_option("--retain", args->retain,
                  "delete articles (their answers) and docIds (their representatives) this old from the database "
                  "at compaction; at least --window (0: keep them forever)")
      ->capture_default_str();
  sub->add_option("--keep", args->keep,
                  "each docId's representative: first, or max:FIELD (the article with the largest FIELD)")
      ->capture_default_str();
  sub->add_option("--compact-entries", args->compact_entries,
                  "compact the in-memory delta into a file when it holds this many entries")
      ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 31))
      ->capture_default_str();
  sub->add_option("--max-live-entries", args->max_live_entries,
                  "the most entries the in-memory delta holds while compactions fail (a full disk): a new "
                  "document past it is answered 503; at least --compact-entries")
      ->check(CLI::Range(uint64_t{1}, kMaxLiveEntries))
      ->capture_default_str();
  sub->add_option("--build-threads", args->build_threads, "threads for building compacted files")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  sub->add_option("--preload", args->preload,
                  "read every page of the index files before searching them (read), and mlock them where "
                  "RLIMIT_MEMLOCK allows (lock)")
      ->check(CLI::IsMember({"off", "read", "lock"}))
      ->capture_default_str();
  sub->add_flag("--sync", args->sync, "fsync the log before each answer (survives a machine crash, not only kill -9)");
  sub->add_option("--confirm", args->confirm,
                  "confirm short contents' candidates on their texts: jaccard:T, jaccard-words:T, edit:T, or off "
                  "(docs/quality.md; default: off for simhash, jaccard:0.5 for minhash)");
  sub->add_option("--k-short", args->k_short,
                  "the distance of candidates for short contents (default: -k for simhash, 10 for minhash)")
      ->check(CLI::Range(0, 15));
  sub->add_option("--short-length", args->short_length, "with --confirm: contents under this many characters are short")
      ->check(CLI::Range(0, 1 << 30))
      ->capture_default_str();
  AddTextOptions(sub, &args->text);
  sub->add_option("--content-method", args->content_method,
                  "how contents match: simhash (fingerprints within -k bits) or minhash (MinHash-LSH: word 5-shingle "
                  "Jaccard >= --threshold; docs/service.md); fixed when --data is created. auto: the state's method; "
                  "for a new state simhash when --k, --content-scheme, --confirm or --k-short is given, else minhash")
      ->check(CLI::IsMember({"auto", "simhash", "minhash"}))
      ->capture_default_str();
  sub->add_option("--threshold", args->threshold,
                  "minhash: the Jaccard similarity of a duplicate content, checked exactly on the texts' "
                  "shingles against the candidate's representative")
      ->capture_default_str();
  sub->add_flag("--approximate", args->approximate,
                "minhash: the b-bit estimate decides a content match (at least --threshold), without the exact "
                "check on the texts (new states: the bands of the threshold, 16 x 8 at 0.8, instead of 21 x 6)");
  sub->add_option("--num-perm", args->num_perm, "minhash: values per signature (fixed with --data)")
      ->check(CLI::Range(1, kMaxNumPerm))
      ->capture_default_str();
  sub->add_option_function<std::string>(
         "--shingles",
         [args](const std::string& name) {
           ShingleWords words;
           if (ParseShingleWords(name, &words)) args->shingle_words = words;
         },
         std::string("minhash: the words of the word 5-shingles: word-chars (runs of Unicode \\w characters, "
                     "punctuation dropped) or space-split (runs between spaces, punctuation kept) (default: the "
                     "state's, or ") +
             ShingleWordsName(ShingleOptions{}.words) + " for a new state; fixed with --data; docs/minhash.md)")
      ->check(CLI::IsMember({ShingleWordsName(ShingleWords::kWordChars), ShingleWordsName(ShingleWords::kSpaceSplit)}));
  sub->add_option("--bands", args->bands,
                  "minhash: bands (with --rows; bands x rows <= --num-perm; default: chosen from the threshold, 16 x 8 "
                  "for 0.8 and 128 values; fixed with --data)")
      ->check(CLI::Range(1, kMaxNumPerm));
  sub->add_option("--rows", args->rows, "minhash: rows per band (with --bands)")->check(CLI::Range(1, kMaxNumPerm));
  sub->add_option("--signature-bits", args->signature_bits,
                  "minhash: bits kept of each value for the estimate: 1, 2, 4, 8, 16 or 32 (fixed with --data)")
      ->capture_default_str();
  // Which of the method-specific options the command line gave.
  auto track = [sub](const char* name, std::vector<std::string>* given) {
    sub->get_option(name)->each([name, given](const std::string&) {
      if (std::find(given->begin(), given->end(), name) == given->end()) given->push_back(name);
    });
  };
  for (const char* name : {"--k", "--content-scheme"}) track(name, &args->simhash_given);
  for (const char* name :
       {"--threshold", "--num-perm", "--shingles", "--bands", "--rows", "--signature-bits", "--approximate"}) {
    track(name, &args->minhash_given);
  }
  sub->get_option("--seed")->each([args](const std::string&) { args->seed_given = true; });
}

Status MakeServiceOptions(const ServiceOptionArgs& args, ServiceOptions* o) {
  o->data_dir = args.data;
  o->k = args.k;
  o->k_title = args.k_title;
  o->content_scheme = args.content_scheme;
  o->title_scheme = args.title_scheme;
  if (!ParseDuration(args.window, &o->window_seconds)) {
    return Status::InvalidArgument("--window '" + args.window + "' is not a duration (90s, 30m, 48h, 2d)");
  }
  if (!ParseDuration(args.retain, &o->retain_seconds)) {
    return Status::InvalidArgument("--retain '" + args.retain + "' is not a duration (90s, 30m, 48h, 2d)");
  }
  if (o->retain_seconds > 0 && (o->window_seconds == 0 || o->retain_seconds < o->window_seconds)) {
    return Status::InvalidArgument("--retain " + args.retain + " must be at least --window " + args.window +
                                   " (and needs a window)");
  }
  KeepRule keep;
  if (!ParseKeepRule(args.keep, &keep, &o->keep_field).ok() || keep == KeepRule::kLongest) {
    return Status::InvalidArgument("--keep '" + args.keep + "' is not first or max:FIELD");
  }
  o->compact_entries = args.compact_entries;
  o->max_live_entries = args.max_live_entries;
  o->build_threads = args.build_threads;
  o->sync = args.sync;
  o->preload = args.preload != "off";
  o->preload_lock = args.preload == "lock";
  o->confirm = args.confirm;
  o->k_short = args.k_short;
  o->short_length = args.short_length;
  if (o->confirm == "off" && o->k_short >= 0) return Status::InvalidArgument("--k-short needs a --confirm other than off");
  // auto: a SimHash or MinHash content option chooses (both: refused),
  // else the library's kAuto (the state's method; minhash for a new state).
  std::string method = args.content_method;
  if (method == "auto" && !args.simhash_given.empty() && !args.minhash_given.empty()) {
    return Status::InvalidArgument(args.simhash_given.front() + " is a SimHash content option and " +
                                   args.minhash_given.front() + " a MinHash one; give --content-method");
  }
  if (method == "auto" && !args.simhash_given.empty()) method = "simhash";
  if (method == "auto" && !args.minhash_given.empty()) method = "minhash";
  o->content_method = method == "simhash" ? ContentMethod::kSimHash : ContentMethod::kAuto;
  if (method == "minhash") {
    if (!args.simhash_given.empty()) {
      return Status::InvalidArgument(args.simhash_given.front() + " is a SimHash content option; --content-method "
                                     "minhash takes --threshold, --num-perm, --shingles, --bands/--rows, --signature-bits and, "
                                     "for short contents, --confirm, --k-short and --short-length");
    }
    if ((args.bands > 0) != (args.rows > 0)) return Status::InvalidArgument("--bands and --rows go together");
    o->content_method = ContentMethod::kMinHash;
  } else if (method == "simhash" && !args.minhash_given.empty()) {
    return Status::InvalidArgument(args.minhash_given.front() + " needs --content-method minhash");
  }
  if (method == "simhash" && o->confirm.empty() && o->k_short >= 0) {
    return Status::InvalidArgument("--k-short needs --confirm with --content-method simhash");
  }
  if (o->content_method != ContentMethod::kSimHash) {  // the MinHash settings, used if the state is MinHash
    o->threshold = args.threshold;
    o->exact = !args.approximate;
    o->minhash.num_perm = args.num_perm;
    if (args.seed_given) o->minhash.seed = args.text.seed;  // else ServiceOptions' (MinHashOptions')
    o->shingle_words = args.shingle_words;
    o->bands = LshBands{args.bands, args.rows};
    o->signature_bits = args.signature_bits;
  }
  return MakeFingerprintOptions(args.text, &o->fingerprint);
}

}  // namespace simdex::tools
