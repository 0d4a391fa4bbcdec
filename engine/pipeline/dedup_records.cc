// The result files of `simdex dedup` (docs/dedup.md, "Output"),
// BatchDedupResult's Write* (include/simdex/batch.h): one JSON line per
// document, the pairs, the list of ids to keep and the clusters. Each is
// written through simdex::OutputWriter (a temporary file renamed into
// place, or standard output for "-"), and a failure names the file.
#include "engine/pipeline/dedup_records.h"

#include <algorithm>
#include <cstdio>

#include "engine/pipeline/batch_result.h"
#include "engine/pipeline/snippets.h"
#include "engine/util/json_text.h"
#include "simdex/output_writer.h"

namespace simdex::pipeline {

PairSource PairsOf(Deduplicator* dedup) {
  return [dedup](const PairVisitor& fn) {
    return dedup->ForEachPair([&fn](uint64_t a, uint64_t b, int distance) {
      return fn({static_cast<uint32_t>(a), static_cast<uint32_t>(b), distance});
    });
  };
}

}  // namespace simdex::pipeline

namespace simdex {
namespace {

using util::AppendJsonString;

// "<path>: <reason>" unless the reason names the file already.
std::string FileError(const std::string& path, const Status& s) {
  return s.message().find(path) != std::string::npos ? s.message() : path + ": " + s.message();
}

// A result file, or standard output for "-".
class ResultFile {
 public:
  Status Open(const std::string& path) {
    path_ = path;
    const Status s = OutputWriter::Open(path, &writer_);
    return s.ok() ? s : Status::IOError(FileError(path, s));
  }
  // Appends *line (cleared after) when it has grown large.
  Status Put(std::string* text) {
    if (text->size() < (size_t{1} << 16)) return Status::OK();
    Status s = writer_->Append(*text);
    text->clear();
    return s;
  }
  Status Close(std::string* text) {
    Status s = writer_->Append(*text);
    text->clear();
    if (s.ok()) s = writer_->Close();
    return s.ok() ? s : Status::IOError(FileError(path_, s));
  }

 private:
  std::string path_;
  std::unique_ptr<OutputWriter> writer_;
};

// ,"name":value with 6 significant digits.
void AppendScore(const char* name, double value, std::string* out) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  out->append(",\"").append(name).append("\":").append(text);
}

// The members of the clusters of two or more documents, as
// (representative, ordinal), sorted, each once.
std::vector<std::pair<uint32_t, uint32_t>> ClusterMembers(const pipeline::DedupOutcomes& dedup) {
  std::vector<std::pair<uint32_t, uint32_t>> members;
  for (uint64_t o = 0; o < dedup.size(); ++o) {
    const DedupResult r = dedup.Result(o);
    if (r.representative != o) {
      members.emplace_back(static_cast<uint32_t>(r.representative), static_cast<uint32_t>(o));
      members.emplace_back(static_cast<uint32_t>(r.representative), static_cast<uint32_t>(r.representative));
    }
  }
  std::sort(members.begin(), members.end());
  members.erase(std::unique(members.begin(), members.end()), members.end());
  return members;
}

// The ordinals of members, sorted.
std::vector<uint32_t> Ordinals(const std::vector<std::pair<uint32_t, uint32_t>>& members) {
  std::vector<uint32_t> ordinals;
  ordinals.reserve(members.size());
  for (const auto& m : members) ordinals.push_back(m.second);
  std::sort(ordinals.begin(), ordinals.end());
  return ordinals;
}

// i such that ordinals[i] == o. REQUIRES: o is in ordinals (sorted).
size_t IndexOf(const std::vector<uint32_t>& ordinals, uint32_t o) {
  return static_cast<size_t>(std::lower_bound(ordinals.begin(), ordinals.end(), o) - ordinals.begin());
}

bool ReadsTitles(const pipeline::DocumentSource* documents) {
  return documents != nullptr && documents->HasTitles() && documents->CanReadAgain();
}

// How close a document is to its representative: the Hamming distance, or
// under --method minhash the estimated J.
// r: dedup.Result(o).
void AppendCloseness(const pipeline::DedupOutcomes& dedup, uint64_t o, const DedupResult& r, std::string* out) {
  if (!dedup.estimates.empty()) {
    AppendScore("estimate", dedup.estimates[o], out);
  } else {
    out->append(",\"distance\":");
    util::AppendDecimal(out, r.distance);
  }
}

}  // namespace

// One line per document, in input order: its id, cluster, whether it is a
// duplicate, its distance, its match in the stored index against[i] and
// why it has no fingerprint.
Status BatchDedupResult::WriteRecords(const std::string& path, const std::vector<std::string>& against) const {
  if (against.size() != rep_->against) {
    return Status::InvalidArgument(std::to_string(against.size()) + " names for " + std::to_string(rep_->against) +
                                   " indexes checked against");
  }
  const pipeline::DedupOutcomes& dedup = rep_->outcomes;
  const pipeline::DedupBatch& batch = rep_->batch;
  ResultFile file;
  SIMDEX_RETURN_IF_ERROR(file.Open(path));
  std::string out;
  size_t next_empty = 0;
  for (uint64_t o = 0; o < dedup.size(); ++o) {
    const DedupResult r = dedup.Result(o);
    out.append("{\"id\":");
    batch.ids.AppendJson(o, &out);
    out.append(",\"cluster\":");
    batch.ids.AppendJson(r.representative, &out);
    out.append(r.duplicate ? ",\"duplicate\":true" : ",\"duplicate\":false");
    AppendCloseness(dedup, o, r, &out);
    if (r.against_index >= 0) {
      out.append(",\"against\":{\"index\":");
      AppendJsonString(&out, against[static_cast<size_t>(r.against_index)]);
      out.append(",\"id\":");
      rep_->against_ids(r.against_index, r.against_id, &out);
      if (dedup.against_estimates.empty()) out.append(",\"distance\":").append(std::to_string(r.against_distance));
      else AppendScore("estimate", dedup.against_estimates[o], &out);
      out.push_back('}');
    }
    if (r.empty) {
      out.append(",\"empty\":");
      const bool known = next_empty < batch.empty.size() && batch.empty[next_empty].first == o;
      AppendJsonString(&out, known ? batch.empty[next_empty++].second : std::string("no-fingerprint"));
    }
    out.append("}\n");
    SIMDEX_RETURN_IF_ERROR(file.Put(&out));
  }
  return file.Close(&out);
}

// The pairs kept, read once: the de-duplicator's, the second stage's
// accepted ones with their similarity, or MinHash's. When the documents
// have titles (HasTitles() and CanReadAgain()), each line ends in "a_title"
// and "b_title" (Title()): the titles of the clustered documents (every
// pair's two are among them) are read again first and held while the
// pairs are written, at most kTitleBytes + 3 bytes of text each.
Status BatchDedupResult::WritePairs(const std::string& path) {
  if (!rep_->pairs) return rep_->ReadPairs(nullptr);  // the error
  const pipeline::DocumentSource* documents = rep_->documents.get();
  const bool with_titles = ReadsTitles(documents);
  std::vector<uint32_t> titled;
  std::vector<std::string> titles;
  if (with_titles) {
    titled = Ordinals(ClusterMembers(rep_->outcomes));
    titles.resize(titled.size());
    if (!titled.empty()) {
      SIMDEX_RETURN_IF_ERROR(
          documents->ReadAgain(titled, [&](size_t i, const Document& doc) { titles[i] = pipeline::Title(doc.title); }));
    }
  }
  auto append_title = [&](const char* name, uint32_t o, std::string* out) {
    const size_t i = IndexOf(titled, o);
    out->append(",\"").append(name).append("\":");
    AppendJsonString(out, i < titled.size() && titled[i] == o ? titles[i] : std::string());
  };
  ResultFile file;
  SIMDEX_RETURN_IF_ERROR(file.Open(path));
  std::string out;
  SIMDEX_RETURN_IF_ERROR(rep_->ReadPairs([&](const pipeline::AcceptedPair& p) {
    out.append("{\"a\":");
    rep_->batch.ids.AppendJson(p.a, &out);
    out.append(",\"b\":");
    rep_->batch.ids.AppendJson(p.b, &out);
    if (p.estimate >= 0) AppendScore("estimate", p.estimate, &out);
    else util::AppendDecimal(&out.append(",\"distance\":"), p.distance);
    if (p.similarity >= 0) AppendScore("similarity", p.similarity, &out);
    if (with_titles) {
      append_title("a_title", p.a, &out);
      append_title("b_title", p.b, &out);
    }
    out.append("}\n");
    return file.Put(&out);
  }));
  return file.Close(&out);
}

// The ids of the documents that are not duplicates, one per line.
Status BatchDedupResult::WriteKeepList(const std::string& path) const {
  const pipeline::DedupOutcomes& dedup = rep_->outcomes;
  ResultFile file;
  SIMDEX_RETURN_IF_ERROR(file.Open(path));
  std::string out;
  for (uint64_t o = 0; o < dedup.size(); ++o) {
    if (dedup.Result(o).duplicate) continue;
    rep_->batch.ids.AppendText(o, &out);
    out.push_back('\n');
    SIMDEX_RETURN_IF_ERROR(file.Put(&out));
  }
  return file.Close(&out);
}

// The clusters of two or more documents, each with its members in input
// order (the representative marked by distance 0 and "representative":
// true) and, when the documents can be read again, a snippet of
// snippet_words words of each text and, when they have titles, each
// member's "title" (engine/pipeline/snippets.h: Title(), and
// ClusterSnippets, whose snippets start where the members differ when
// their first words are the same; the cluster's "skipped_chars" then
// counts the characters left out). The texts are read again in one pass;
// what is held is ClusterSnippets' and at most kTitleBytes + 3 bytes of
// title per clustered document.
Status BatchDedupResult::WriteClusters(const std::string& path, int snippet_words) const {
  const pipeline::DocumentSource* documents = rep_->documents.get();
  const pipeline::DedupOutcomes& dedup = rep_->outcomes;
  const std::vector<std::pair<uint32_t, uint32_t>> members = ClusterMembers(dedup);  // (representative, ordinal)
  // Snippets and titles, by ordinal, for the clustered documents.
  const std::vector<uint32_t> wanted = Ordinals(members);
  pipeline::ClusterSnippets snippets(members, wanted, snippet_words);
  std::vector<std::string> titles;
  const bool rereadable = documents != nullptr && documents->CanReadAgain();
  const bool with_titles = ReadsTitles(documents);
  if (with_titles) titles.resize(wanted.size());
  if (rereadable && !wanted.empty()) {
    SIMDEX_RETURN_IF_ERROR(documents->ReadAgain(wanted, [&](size_t i, const Document& doc) {
      snippets.Add(i, doc.text);
      if (with_titles) titles[i] = pipeline::Title(doc.title);
    }));
  }
  snippets.Finish();
  ResultFile file;
  SIMDEX_RETURN_IF_ERROR(file.Open(path));
  std::string out;
  for (size_t i = 0, cluster = 0; i < members.size(); ++cluster) {
    size_t j = i;
    while (j < members.size() && members[j].first == members[i].first) ++j;
    const uint32_t rep = members[i].first;
    out.append("{\"cluster\":");
    rep_->batch.ids.AppendJson(rep, &out);
    out.append(",\"size\":").append(std::to_string(j - i));
    if (const uint64_t skipped = snippets.SkippedCharacters(cluster); skipped > 0) {
      out.append(",\"skipped_chars\":").append(std::to_string(skipped));
    }
    out.append(",\"members\":[");
    for (size_t m = i; m < j; ++m) {
      const uint32_t o = members[m].second;
      if (m > i) out.push_back(',');
      out.append("{\"id\":");
      rep_->batch.ids.AppendJson(o, &out);
      AppendCloseness(dedup, o, dedup.Result(o), &out);
      if (o == rep) out.append(",\"representative\":true");
      const size_t w = IndexOf(wanted, o);
      if (with_titles) {
        out.append(",\"title\":");
        AppendJsonString(&out, titles[w]);
      }
      if (rereadable) {
        out.append(",\"text\":");
        AppendJsonString(&out, snippets.Snippet(w));
      }
      out.push_back('}');
    }
    out.append("]}\n");
    SIMDEX_RETURN_IF_ERROR(file.Put(&out));
    i = j;
  }
  return file.Close(&out);
}

}  // namespace simdex
