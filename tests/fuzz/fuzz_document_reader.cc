// Decode-garbage fuzz target for the reader of documents (DocumentReader:
// engine/io/document_reader.cc, line_reader.cc, buffered_input.cc,
// json_record.cc, string_id.cc, and for ".zst" zstd_checked_decompressor.cc)
// and DetectBatchFormat (batch_format.cc). The first byte chooses the
// options and the file's name (plain, .zst, .gz), the rest is the file.
//
// A bug is: a crash or sanitizer report; an error other than InvalidArgument
// (a bad record, named by file and line) or Corruption (a damaged compressed
// stream); a document whose line does not follow the previous one's; counts
// that disagree with what was returned; a line document whose id is not its
// line; a string id the id rule refuses, or one where none was allowed; a
// skipped record without skip_bad; DetectBatchFormat failing on a file the
// reader could open other than by refusing it (InvalidArgument: MinHash
// signatures without their header), or judging it differently twice.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "engine/io/output_stream.h"
#include "simdex/document_reader.h"
#include "simdex/front_end_text.h"
#include "tests/fuzz/fuzz_input_file.h"

namespace {

using simdex::Status;
using simdex::fuzz::InputFile;

InputFile& File() { return simdex::fuzz::TheInputFile(); }

bool RecordOrStreamError(const Status& s) { return s.IsInvalidArgument() || s.IsCorruption(); }

// Seeds: JSONL with numeric, decimal-string and string ids, a score, blank
// lines and a bad record; lines with CRLF and a BOM; compressed copies.
void WriteSeeds(const std::string& dir) {
  const std::string jsonl =
      "{\"id\":1,\"text\":\"alpha beta\",\"title\":\"t\",\"s\":2.5}\n\n"
      "{\"id\":\"007\",\"text\":\"\\u6625 gamma\",\"title\":null,\"s\":null}\n"
      "{\"id\":\"https://a.example/x\",\"text\":\"delta\",\"title\":\"u\"}\n"
      "{\"id\":-3,\"text\":1}\n";
  const std::string lines = "\xEF\xBB\xBF" "first line\r\nsecond\n\nlast without end";
  struct Seed {
    const char* name;
    uint8_t mode, limit;
    const char* file;  // written through io::OutputStream: compressed by its name
    const std::string* text;
  };
  const Seed seeds[] = {{"jsonl", 0x00, 0x00, "s", &jsonl},       {"jsonl_strings_skip", 0x4c, 0x00, "s", &jsonl},
                        {"jsonl_short", 0x8c, 0x90, "s", &jsonl}, {"lines", 0x01, 0x00, "s", &lines},
                        {"jsonl_zst", 0x14, 0x00, "s.zst", &jsonl}, {"lines_gz", 0x21, 0x00, "s.gz", &lines}};
  for (const Seed& seed : seeds) {
    const std::string made = File().Scratch(seed.file);
    std::unique_ptr<simdex::io::OutputStream> out;
    FUZZ_CHECK(simdex::io::OutputStream::Open(made, &out).ok());
    FUZZ_CHECK(out->Write(seed.text->data(), seed.text->size()).ok());
    FUZZ_CHECK(out->Close().ok());
    simdex::fuzz::WriteSeed(dir, seed.name, seed.mode, seed.limit, made);
  }
}

}  // namespace

SIMDEX_FUZZ_SEED_EMPTY_CORPORA_WITH(WriteSeeds)

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  simdex::fuzz::Input in(data, size);
  const uint8_t mode = in.Byte();
  const uint8_t limit = in.Byte();
  const std::string path = File().Take(&in, mode);

  simdex::DocumentReaderOptions options;
  options.format = mode & 1 ? simdex::DocumentFormat::kLines : simdex::DocumentFormat::kJsonl;
  options.id_mode = mode & 2 ? simdex::IdMode::kOrdinal : simdex::IdMode::kField;
  options.allow_string_ids = mode & 4;
  options.skip_bad = mode & 8;
  if (mode & 0x40) options.score_field = "s";
  if (mode & 0x80) options.text_fields = {"text", "title"};
  options.max_record_bytes = limit < 0x80 ? size_t{1} << 20 : 1 + (limit & 0x7f);  // short lines are too long

  std::unique_ptr<simdex::DocumentReader> reader;
  Status s = simdex::DocumentReader::Open(path, options, &reader);
  FUZZ_CHECK(s.ok() || RecordOrStreamError(s));
  if (!s.ok()) return 0;
  uint64_t documents = 0, last_line = 0;
  simdex::Document doc;
  for (bool eof = false;;) {
    s = reader->Next(&doc, &eof);
    if (!s.ok()) {
      FUZZ_CHECK(RecordOrStreamError(s));
      FUZZ_CHECK(s.message().rfind(reader->name() + ":", 0) == 0);  // names the file
      break;
    }
    if (eof) break;
    ++documents;
    FUZZ_CHECK(doc.line > last_line);
    last_line = doc.line;
    if (options.format == simdex::DocumentFormat::kLines) {
      FUZZ_CHECK(doc.id == doc.line && doc.id_string.empty());
    } else if (!doc.id_string.empty()) {
      FUZZ_CHECK(options.allow_string_ids && options.id_mode == simdex::IdMode::kField);
      FUZZ_CHECK(simdex::CheckStringId(doc.id_string).ok());
    }
    if (options.score_field.empty()) FUZZ_CHECK(std::isinf(doc.score) && doc.score < 0);
    FUZZ_CHECK(doc.text.size() <= options.max_record_bytes);
  }
  const simdex::DocumentReaderStats& stats = reader->stats();
  FUZZ_CHECK(stats.records == documents);
  if (!options.skip_bad) FUZZ_CHECK(stats.skipped == 0);
  FUZZ_CHECK(stats.first_errors.size() <= options.max_errors_kept);

  simdex::BatchFormat first, second;
  Status d = simdex::DetectBatchFormat(path, &first);
  FUZZ_CHECK(d.ok() || d.IsCorruption() || d.IsInvalidArgument());
  if (d.ok()) {
    FUZZ_CHECK(simdex::DetectBatchFormat(path, &second).ok());
    FUZZ_CHECK(first == second);
  }
  return 0;
}
