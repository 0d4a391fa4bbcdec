// IdfLearner and IdfTermWriter (include/simdex/idf_learner.h).
#include "simdex/idf_learner.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "engine/util/external_sorter.h"
#include "engine/util/json_text.h"

namespace simdex {
namespace {

constexpr size_t kEntryBytes = sizeof(std::pair<uint64_t, double>);
constexpr size_t kReadChunk = size_t{1} << 14;

// Whether IdfTable::Load would read `term<TAB>idf` back as this term.
bool Writable(std::string_view term) {
  if (term.empty() || term.front() == '#' || term.front() == ' ' || term.back() == ' ') return false;
  return term.find_first_of("\t\n\r") == std::string_view::npos;
}

}  // namespace

struct IdfLearner::Rep {
  explicit Rep(const IdfLearnerOptions& learn)
      : options(learn),
        sorter({.memory_bytes = learn.memory_bytes / 2, .tmpdir = learn.tmpdir, .threads = learn.threads}) {}
  IdfLearnerOptions options;
  uint64_t seed = 0;
  std::unique_ptr<Fingerprinter> fingerprinter;
  // AddBatch()'s other threads' (made on its first use).
  std::vector<std::unique_ptr<Fingerprinter>> clones;
  util::ExternalSorter<uint64_t> sorter;
  std::vector<uint64_t> hashes;
  IdfLearnerStats stats;

  // Counts one document's distinct feature hashes.
  Status Count(std::span<const uint64_t> distinct) {
    ++stats.documents;
    stats.document_features += distinct.size();
    return distinct.empty() ? sorter.status() : sorter.Add(distinct.data(), distinct.size());
  }
};

IdfLearner::IdfLearner(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}
IdfLearner::~IdfLearner() = default;

Status IdfLearner::Create(const FingerprintOptions& options, const IdfLearnerOptions& learn,
                          std::unique_ptr<IdfLearner>* out) {
  if (options.compat != Compat::kNone) {
    return Status::NotSupported("idf: the python-simhash profile has no idf weighting");
  }
  if (learn.threads < 1) return Status::InvalidArgument("idf: threads must be at least 1");
  if (!(learn.max_idf > 0)) return Status::InvalidArgument("idf: the cap on idf values must be above 0");
  if (learn.memory_bytes < 2 * util::kExternalSortMinMemoryBytes) {
    return Status::InvalidArgument("idf: the memory bound must be at least " +
                                   std::to_string(2 * util::kExternalSortMinMemoryBytes / 1024) + " KiB");
  }
  FingerprintOptions counting = options;
  counting.weighting = Weighting::kTermFrequency;  // only the features matter
  counting.idf = nullptr;
  auto rep = std::make_unique<Rep>(learn);
  rep->seed = options.seed;
  SIMDEX_RETURN_IF_ERROR(rep->sorter.status());
  SIMDEX_RETURN_IF_ERROR(Fingerprinter::Create(counting, &rep->fingerprinter));
  out->reset(new IdfLearner(std::move(rep)));
  return Status::OK();
}

Status IdfLearner::Add(std::string_view utf8_text) {
  Rep& r = *rep_;
  r.fingerprinter->FeatureHashes(utf8_text, &r.hashes);  // distinct already
  return r.Count(r.hashes);
}

Status IdfLearner::AddBatch(std::span<const std::string_view> utf8_texts) {
  Rep& r = *rep_;
  const size_t threads = std::min<size_t>(static_cast<size_t>(r.options.threads), utf8_texts.size());
  if (threads <= 1) {
    for (std::string_view text : utf8_texts) SIMDEX_RETURN_IF_ERROR(Add(text));
    return Status::OK();
  }
  while (r.clones.size() + 1 < threads) r.clones.push_back(r.fingerprinter->Clone());
  // Each thread takes the next document, finds its features alone and
  // hands them to the sorter under the lock: the df of a feature does not
  // depend on the order its documents are counted in.
  std::atomic<size_t> next{0};
  std::mutex mu;
  Status status;
  auto work = [&](Fingerprinter* f) {
    std::vector<uint64_t> hashes;
    for (size_t i = next++; i < utf8_texts.size(); i = next++) {
      f->FeatureHashes(utf8_texts[i], &hashes);
      std::lock_guard<std::mutex> lock(mu);
      if (!status.ok()) return;
      status = r.Count(hashes);
    }
  };
  std::vector<std::thread> others;
  for (size_t t = 0; t + 1 < threads; ++t) others.emplace_back(work, r.clones[t].get());
  work(r.fingerprinter.get());
  for (std::thread& t : others) t.join();
  return status;
}

Status IdfLearner::Finish(std::shared_ptr<const IdfTable>* table) {
  Rep& r = *rep_;
  SIMDEX_RETURN_IF_ERROR(r.sorter.Finish());
  const double n_plus_1 = static_cast<double>(r.stats.documents) + 1.0;
  const size_t limit = r.options.memory_bytes / 2 / kEntryBytes;
  std::vector<std::pair<uint64_t, double>> kept;
  std::vector<uint64_t> chunk(kReadChunk);
  uint64_t current = 0, df = 0;
  auto close = [&]() -> Status {
    if (df == 0) return Status::OK();
    ++r.stats.features;
    if (df < 2) return Status::OK();
    const double idf = std::log(n_plus_1 / static_cast<double>(df));
    if (idf >= r.options.max_idf) {  // weighs default_idf, the cap
      ++r.stats.capped;
      return Status::OK();
    }
    if (kept.size() == limit) {
      return Status::InvalidArgument(
          "idf: more than " + std::to_string(limit) + " features are held by two or more documents; their table (" +
          std::to_string(kEntryBytes) + " bytes each) needs more than half of the memory bound (" +
          std::to_string(r.options.memory_bytes) + " bytes): give more memory");
    }
    kept.emplace_back(current, idf);
    return Status::OK();
  };
  for (size_t n = 0;;) {
    SIMDEX_RETURN_IF_ERROR(r.sorter.Read(chunk.data(), chunk.size(), &n));
    if (n == 0) break;
    for (size_t i = 0; i < n; ++i) {
      if (df > 0 && chunk[i] == current) {
        ++df;
        continue;
      }
      SIMDEX_RETURN_IF_ERROR(close());
      current = chunk[i];
      df = 1;
    }
  }
  SIMDEX_RETURN_IF_ERROR(close());
  r.stats.kept = kept.size();
  r.stats.runs_spilled = r.sorter.stats().runs_spilled;
  r.stats.bytes_spilled = r.sorter.stats().bytes_spilled;
  const double default_idf = std::min(std::log(n_plus_1), r.options.max_idf);
  *table = std::make_shared<const IdfTable>(IdfTable::FromHashes(std::move(kept), r.seed, default_idf));
  return Status::OK();
}

Status IdfLearner::AddFeatureHashes(std::span<const uint64_t> distinct) { return rep_->Count(distinct); }

const Fingerprinter& IdfLearner::features() const { return *rep_->fingerprinter; }

const IdfLearnerStats& IdfLearner::stats() const { return rep_->stats; }

struct IdfTermWriter::Rep {
  std::shared_ptr<const IdfTable> table;
  std::unique_ptr<Fingerprinter> fingerprinter;
  std::vector<bool> done;  // per table entry: its line written (or left out)
  std::vector<uint64_t> hashes;
  std::vector<std::string> texts;
  uint64_t written = 0;
  uint64_t left_out = 0;
};

IdfTermWriter::IdfTermWriter(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}
IdfTermWriter::~IdfTermWriter() = default;

Status IdfTermWriter::Create(const FingerprintOptions& options, std::shared_ptr<const IdfTable> table,
                             std::unique_ptr<IdfTermWriter>* out) {
  if (table == nullptr || !table->keyed_by_hash() || table->hash_seed() != options.seed) {
    return Status::InvalidArgument("idf: the term writer needs a learned table of the options' seed");
  }
  FingerprintOptions counting = options;
  counting.weighting = Weighting::kTermFrequency;
  counting.idf = nullptr;
  auto rep = std::make_unique<Rep>();
  SIMDEX_RETURN_IF_ERROR(Fingerprinter::Create(counting, &rep->fingerprinter));
  rep->done.assign(table->hash_entries().size(), false);
  rep->table = std::move(table);
  out->reset(new IdfTermWriter(std::move(rep)));
  return Status::OK();
}

void IdfTermWriter::Head(uint64_t documents, std::string* out) const {
  out->append("# simdex idf: learned from ").append(std::to_string(documents)).append(" documents\n");
  const double uncapped_default = std::log(static_cast<double>(documents) + 1.0);
  if (rep_->table->default_idf() < uncapped_default) {
    out->append("# idf = min(ln((N + 1) / df), cap): the terms listed are those below the cap, "
                "#default-idf = the cap for the others\n");
  } else {
    out->append("# idf = ln((N + 1) / df) for the terms listed (df >= 2), #default-idf = ln(N + 1) for the others\n");
  }
  out->append("#default-idf\t");
  out->append(util::ShortestDecimal(rep_->table->default_idf()));
  out->push_back('\n');
}

void IdfTermWriter::Add(std::string_view utf8_text, std::string* out) {
  Rep& r = *rep_;
  r.fingerprinter->FeatureHashes(utf8_text, &r.hashes, &r.texts);
  const auto entries = r.table->hash_entries();
  for (size_t i = 0; i < r.hashes.size(); ++i) {
    const auto it = std::lower_bound(entries.begin(), entries.end(), r.hashes[i],
                                     [](const std::pair<uint64_t, double>& e, uint64_t h) { return e.first < h; });
    if (it == entries.end() || it->first != r.hashes[i]) continue;
    const size_t at = static_cast<size_t>(it - entries.begin());
    if (r.done[at]) continue;
    r.done[at] = true;
    if (!Writable(r.texts[i])) {
      ++r.left_out;
      continue;
    }
    ++r.written;
    out->append(r.texts[i]).push_back('\t');
    out->append(util::ShortestDecimal(it->second));
    out->push_back('\n');
  }
}

uint64_t IdfTermWriter::written() const { return rep_->written; }
uint64_t IdfTermWriter::left_out() const { return rep_->left_out; }

}  // namespace simdex
