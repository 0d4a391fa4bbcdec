// DocumentSource: where a batch job's documents come from. The pipeline's
// reader thread reads them once, in batches (Fill); the work that needs
// texts after the first pass (the confirmation of pairs, the clusters'
// snippets) reads some again by ordinal (ReadAgain). Two kinds: files
// (DocumentInputs, engine/pipeline/document_files.h) and texts in memory
// (TextDocuments, below).
#ifndef SIMDEX_ENGINE_PIPELINE_DOCUMENT_SOURCE_H_
#define SIMDEX_ENGINE_PIPELINE_DOCUMENT_SOURCE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/pipeline/batch_pipeline.h"
#include "simdex/batch.h"
#include "simdex/document_reader.h"
#include "simdex/status.h"

namespace simdex::pipeline {

// The score `keep` ranks a document by when it chooses representatives
// (the largest wins): its text's length in code points (kLongest), its
// score field (kField), else 0.
double KeepScore(KeepRule keep, const Document& doc);

class DocumentSource {
 public:
  virtual ~DocumentSource() = default;

  // Fills batch->docs[0, batch->size) with the next documents (reusing the
  // Document objects there) and sets *eof at the end; a batch may be both
  // non-empty and last. Ordinals count documents from 0 in this order.
  virtual Status Fill(DocumentBatch* batch, bool* eof) = 0;
  // Bytes of text read so far (decompressed); may be called from any thread.
  virtual uint64_t bytes_read() const = 0;

  // Valid once Fill() has reported the end: records skipped (skip_bad) and
  // the first of their errors; the inputs' names and how many documents
  // each gave, in order (for messages that name a document's place).
  uint64_t skipped() const { return skipped_; }
  const std::vector<std::string>& first_errors() const { return first_errors_; }
  virtual std::vector<std::string> input_names() const = 0;
  const std::vector<uint64_t>& documents_per_input() const { return documents_per_input_; }

  // Whether ReadAgain() and Reopen() can be called (not for standard input).
  virtual bool CanReadAgain() const = 0;
  // Whether ReadAgain() gives each document's Document::title (a JSONL
  // title field was named; "" for a document without one).
  virtual bool HasTitles() const { return false; }
  // A new source of the same documents, from the first. REQUIRES:
  // CanReadAgain().
  virtual std::unique_ptr<DocumentSource> Reopen() const = 0;
  // Calls fn(i, document) for the document of ordinal ordinals[i].
  // REQUIRES: CanReadAgain(); ordinals sorted.
  virtual Status ReadAgain(const std::vector<uint32_t>& ordinals,
                           const std::function<void(size_t, const Document&)>& fn) const = 0;

 protected:
  // The figures above, which Fill() keeps (bad records skipped are not
  // documents of their input).
  uint64_t skipped_ = 0;
  std::vector<std::string> first_errors_;
  std::vector<uint64_t> documents_per_input_;
};

// Texts held by the caller, one document each: document i has id i (a
// number, and the line i + 1 of an input named "texts"), text texts[i] and
// score scores[i] (-infinity, as a missing field's, when scores is empty). REQUIRES: the texts (and
// scores) outlive the source; scores empty or of the texts' size.
class TextDocuments : public DocumentSource {
 public:
  TextDocuments(std::span<const std::string_view> texts, std::span<const double> scores)
      : texts_(texts), scores_(scores) {}

  Status Fill(DocumentBatch* batch, bool* eof) override;
  uint64_t bytes_read() const override { return bytes_; }
  std::vector<std::string> input_names() const override { return {"texts"}; }
  bool CanReadAgain() const override { return true; }
  std::unique_ptr<DocumentSource> Reopen() const override { return std::make_unique<TextDocuments>(texts_, scores_); }
  Status ReadAgain(const std::vector<uint32_t>& ordinals,
                   const std::function<void(size_t, const Document&)>& fn) const override;

 private:
  std::span<const std::string_view> texts_;
  std::span<const double> scores_;
  size_t next_ = 0;
  uint64_t bytes_ = 0;  // written by the reader thread; read for progress only
};

}  // namespace simdex::pipeline

#endif  // SIMDEX_ENGINE_PIPELINE_DOCUMENT_SOURCE_H_
