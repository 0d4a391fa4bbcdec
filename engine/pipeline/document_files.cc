#include "engine/pipeline/document_files.h"

#include <algorithm>
#include <cstdio>

#include "engine/io/input_stream.h"

namespace simdex::pipeline {

namespace {

constexpr size_t kBatchDocuments = 256;
constexpr size_t kBatchBytes = size_t{1} << 20;

}  // namespace

DocumentInputArgs InputArgsOf(const DocumentFiles& files) {
  DocumentInputArgs a;
  a.inputs = files.paths;
  for (DocumentFormat f : files.formats) {
    a.formats.push_back(f == DocumentFormat::kJsonl ? BatchFormat::kJsonl : BatchFormat::kLines);
  }
  a.id_field = files.id_field;
  a.text_fields = files.text_fields;
  a.id_mode = files.id_mode == IdMode::kOrdinal ? "ordinal" : "field";
  a.skip_bad = files.skip_bad;
  a.score_field = files.score_field;
  a.title_field = files.title_field;
  return a;
}

Status ChooseInputFormats(const std::vector<std::string>& inputs, const std::string& forced,
                          std::vector<BatchFormat>* formats, std::vector<std::string>* notes, bool allow_signatures) {
  formats->clear();
  for (const std::string& path : inputs) {
    if (!forced.empty()) {
      formats->push_back(forced == "jsonl" ? BatchFormat::kJsonl
                         : forced == "lines" ? BatchFormat::kLines
                                             : BatchFormat::kFingerprints);
      continue;
    }
    const std::string_view name = io::StripCompressionSuffix(path);
    if (DocumentFormatFromPath(path) == DocumentFormat::kJsonl) {
      formats->push_back(BatchFormat::kJsonl);
    } else if (name.ends_with(".fp") || name.ends_with(".fpb")) {
      formats->push_back(BatchFormat::kFingerprints);
    } else {
      BatchFormat format;
      SIMDEX_RETURN_IF_ERROR(DetectBatchFormat(path, &format));
      if (format == BatchFormat::kSignatures && !allow_signatures) {
        return Status::InvalidArgument(io::DisplayName(path) +
                                       " holds MinHash signatures (simdex fingerprint --method minhash), not "
                                       "documents (simdex query and simdex build --method minhash read them)");
      }
      formats->push_back(format);
      if (format == BatchFormat::kJsonl || format == BatchFormat::kFingerprints) {
        notes->push_back(io::DisplayName(path) + ": read as " +
                         (format == BatchFormat::kJsonl ? "JSON Lines" : "a fingerprint file") +
                         " (judged by its content; --format chooses)");
      }
    }
  }
  return Status::OK();
}

Status DocumentInputs::Fill(DocumentBatch* batch, bool* eof) {
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
    ++documents_per_input_.back();
  }
  return Status::OK();
}

Status DocumentInputs::OpenNext() {
  const std::string& path = args_.inputs[next_++];
  documents_per_input_.push_back(0);
  DocumentReaderOptions options;
  options.format = !args_.formats.empty()    ? (args_.formats[next_ - 1] == BatchFormat::kJsonl ? DocumentFormat::kJsonl
                                                                                             : DocumentFormat::kLines)
                   : args_.format.empty()    ? DocumentFormatFromPath(path)
                   : args_.format == "jsonl" ? DocumentFormat::kJsonl
                                             : DocumentFormat::kLines;
  options.id_mode = args_.id_mode == "ordinal" ? IdMode::kOrdinal : IdMode::kField;
  options.id_field = args_.id_field;
  if (!args_.text_fields.empty()) options.text_fields = args_.text_fields;
  options.skip_bad = args_.skip_bad;
  options.max_errors_kept = kErrorsShown;
  options.allow_string_ids = true;
  options.score_field = args_.score_field;
  if (titles_) options.title_field = args_.title_field;
  ordinal_ = options.format == DocumentFormat::kLines || options.id_mode == IdMode::kOrdinal;
  return DocumentReader::Open(path, options, &reader_);
}

void DocumentInputs::CloseCurrent() {
  const DocumentReaderStats& st = reader_->stats();
  id_offset_ += st.records + st.skipped;
  bytes_before_ += st.bytes;
  skipped_ += st.skipped;
  for (const std::string& e : st.first_errors) {
    if (first_errors_.size() < kErrorsShown) first_errors_.push_back(e);
  }
  reader_.reset();
}

std::vector<std::string> DocumentInputs::input_names() const {
  std::vector<std::string> names;
  for (const std::string& p : args_.inputs) names.push_back(io::DisplayName(p));
  return names;
}

bool DocumentInputs::CanReadAgain() const {
  return std::all_of(args_.inputs.begin(), args_.inputs.end(), io::CanReadTwice);
}

Status DocumentInputs::ReadAgain(const std::vector<uint32_t>& ordinals,
                                 const std::function<void(size_t, const Document&)>& fn) const {
  return ForEachDocumentOf(args_, ordinals, fn);
}

Status ForEachDocumentOf(const DocumentInputArgs& args, const std::vector<uint32_t>& ordinals,
                         const std::function<void(size_t, const Document&)>& fn) {
  DocumentInputs inputs(args, /*titles=*/true);
  DocumentBatch b;
  uint64_t ordinal = 0;
  size_t next = 0;
  for (bool eof = false; !eof && next < ordinals.size();) {
    b.size = 0;
    SIMDEX_RETURN_IF_ERROR(inputs.Fill(&b, &eof));
    for (size_t i = 0; i < b.size; ++i, ++ordinal) {
      while (next < ordinals.size() && ordinals[next] == ordinal) fn(next++, b.docs[i]);
    }
  }
  return Status::OK();
}

}  // namespace simdex::pipeline
