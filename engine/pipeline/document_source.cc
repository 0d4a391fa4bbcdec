// TextDocuments (engine/pipeline/document_source.h).
#include "engine/pipeline/document_source.h"

#include <limits>
#include <string>
#include <string_view>

#include "simdex/batch.h"

namespace simdex::pipeline {

namespace {

constexpr size_t kBatchDocuments = 256;

void Set(std::span<const std::string_view> texts, std::span<const double> scores, size_t i, Document* doc) {
  doc->id = i;
  doc->id_string.clear();
  doc->line = i + 1;
  doc->text.assign(texts[i].data(), texts[i].size());
  doc->score = scores.empty() ? -std::numeric_limits<double>::infinity() : scores[i];
}

}  // namespace

double KeepScore(KeepRule keep, const Document& doc) {
  return keep == KeepRule::kLongest ? static_cast<double>(CodePointLength(doc.text))
         : keep == KeepRule::kField ? doc.score
                                    : 0;
}

Status TextDocuments::Fill(DocumentBatch* batch, bool* eof) {
  while (batch->size < kBatchDocuments && next_ < texts_.size()) {
    if (batch->docs.size() <= batch->size) batch->docs.emplace_back();
    Set(texts_, scores_, next_, &batch->docs[batch->size++]);
    bytes_ += texts_[next_++].size();
  }
  *eof = next_ == texts_.size();
  if (*eof) documents_per_input_.assign(1, texts_.size());
  return Status::OK();
}

Status TextDocuments::ReadAgain(const std::vector<uint32_t>& ordinals,
                                const std::function<void(size_t, const Document&)>& fn) const {
  Document doc;
  for (size_t i = 0; i < ordinals.size(); ++i) {
    if (ordinals[i] >= texts_.size()) return Status::InvalidArgument("no document " + std::to_string(ordinals[i]));
    Set(texts_, scores_, ordinals[i], &doc);
    fn(i, doc);
  }
  return Status::OK();
}

}  // namespace simdex::pipeline

namespace simdex {

Status ParseKeepRule(std::string_view spec, KeepRule* rule, std::string* field) {
  field->clear();
  if (spec == "first") {
    *rule = KeepRule::kFirst;
  } else if (spec == "longest") {
    *rule = KeepRule::kLongest;
  } else if (spec.starts_with("max:") && spec.size() > 4) {
    *rule = KeepRule::kField;
    field->assign(spec.substr(4));
  } else {
    return Status::InvalidArgument("keep '" + std::string(spec) + "' is not first, longest or max:FIELD");
  }
  return Status::OK();
}

std::string KeepRuleSpec(KeepRule rule, std::string_view field) {
  switch (rule) {
    case KeepRule::kFirst: return "first";
    case KeepRule::kLongest: return "longest";
    case KeepRule::kField: return "max:" + std::string(field);
  }
  return "first";
}

}  // namespace simdex
