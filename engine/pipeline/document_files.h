// The documents of several input files read one after the other, in
// batches for engine/pipeline/batch_pipeline.h, as `simdex fingerprint` and
// `simdex dedup` read them (their options: DocumentFiles, include/simdex/batch.h). Ordinal ids (line
// numbers, --id ordinal) continue from one input to the next. JSONL ids may be strings
// (Document::id_string). ChooseBatchFormats (include/simdex/document_inputs.h)
// is defined in document_files.cc.
#ifndef SIMDEX_ENGINE_PIPELINE_DOCUMENT_FILES_H_
#define SIMDEX_ENGINE_PIPELINE_DOCUMENT_FILES_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "simdex/batch.h"
#include "simdex/document_reader.h"
#include "simdex/status.h"
#include "engine/pipeline/batch_pipeline.h"
#include "engine/pipeline/document_source.h"

namespace simdex::pipeline {

// The documents of the files, in order (DocumentSource). REQUIRES: files
// outlives it.
class DocumentInputs : public DocumentSource {
 public:
  static constexpr size_t kErrorsShown = 5;

  // titles: read files.title_field into Document::title (the reads again do).
  explicit DocumentInputs(const DocumentFiles& files, bool titles = false) : files_(files), titles_(titles) {}

  // A BatchSource: fills the batch from the inputs in order.
  Status Fill(DocumentBatch* batch, bool* eof) override;

  // Decompressed bytes read so far (any thread).
  uint64_t bytes_read() const override { return bytes_read_.load(std::memory_order_relaxed); }
  // JSONL lines holding only white space; valid once Fill() has reported the end.
  uint64_t blank_lines() const { return blank_lines_; }
  // The inputs as messages name them ("standard input" for "-").
  std::vector<std::string> input_names() const override;
  // False when an input is standard input, a pipe or a device: read once.
  bool CanReadAgain() const override;
  bool HasTitles() const override { return !files_.title_field.empty(); }
  std::unique_ptr<DocumentSource> Reopen() const override { return std::make_unique<DocumentInputs>(files_); }
  // Reads the inputs again from the start, with titles: fn(i, document)
  // for the document of ordinal ordinals[i] (input order, counting from 0,
  // bad records skipped as in the first read). REQUIRES: ordinals sorted,
  // no input is standard input.
  Status ReadAgain(const std::vector<uint32_t>& ordinals,
                   const std::function<void(size_t, const Document&)>& fn) const override;

 private:
  Status OpenNext();
  void CloseCurrent();

  const DocumentFiles& files_;
  const bool titles_;
  size_t next_ = 0;
  std::unique_ptr<DocumentReader> reader_;
  bool ordinal_ = false;
  uint64_t id_offset_ = 0;
  uint64_t bytes_before_ = 0;
  std::atomic<uint64_t> bytes_read_{0};
  uint64_t blank_lines_ = 0;
};

}  // namespace simdex::pipeline

#endif  // SIMDEX_ENGINE_PIPELINE_DOCUMENT_FILES_H_
