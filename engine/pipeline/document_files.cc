#include "engine/pipeline/document_files.h"

#include <algorithm>

#include "engine/io/input_stream.h"
#include "simdex/document_inputs.h"

namespace simdex {

Status ChooseBatchFormats(const std::vector<std::string>& inputs, std::string_view forced,
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

}  // namespace simdex

namespace simdex::pipeline {

namespace {

constexpr size_t kBatchDocuments = 256;
constexpr size_t kBatchBytes = size_t{1} << 20;

}  // namespace

Status DocumentInputs::Fill(DocumentBatch* batch, bool* eof) {
  size_t bytes = 0;
  while (batch->size < kBatchDocuments && bytes < kBatchBytes) {
    if (!reader_) {
      if (next_ == files_.paths.size()) {
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
  const std::string& path = files_.paths[next_++];
  documents_per_input_.push_back(0);
  DocumentReaderOptions options;
  options.format = files_.formats.empty() ? DocumentFormatFromPath(path) : files_.formats[next_ - 1];
  options.id_mode = files_.id_mode;
  options.id_field = files_.id_field;
  if (!files_.text_fields.empty()) options.text_fields = files_.text_fields;
  options.skip_bad = files_.skip_bad;
  options.max_errors_kept = kErrorsShown;
  options.allow_string_ids = true;
  options.score_field = files_.score_field;
  if (titles_) options.title_field = files_.title_field;
  ordinal_ = options.format == DocumentFormat::kLines || options.id_mode == IdMode::kOrdinal;
  return DocumentReader::Open(path, options, &reader_);
}

void DocumentInputs::CloseCurrent() {
  const DocumentReaderStats& st = reader_->stats();
  id_offset_ += st.records + st.skipped;
  bytes_before_ += st.bytes;
  skipped_ += st.skipped;
  blank_lines_ += st.blank_lines;
  for (const std::string& e : st.first_errors) {
    if (first_errors_.size() < kErrorsShown) first_errors_.push_back(e);
  }
  reader_.reset();
}

std::vector<std::string> DocumentInputs::input_names() const {
  std::vector<std::string> names;
  for (const std::string& p : files_.paths) names.push_back(io::DisplayName(p));
  return names;
}

bool DocumentInputs::CanReadAgain() const {
  return std::all_of(files_.paths.begin(), files_.paths.end(), io::CanReadTwice);
}

Status DocumentInputs::ReadAgain(const std::vector<uint32_t>& ordinals,
                                 const std::function<void(size_t, const Document&)>& fn) const {
  DocumentInputs inputs(files_, /*titles=*/true);
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
