// DocumentReader: lines from a BufferedInput, each turned into a Document
// either as it is (kLines) or through JsonRecordParser (kJsonl).
#include "simdex/document_reader.h"

#include <limits>

#include "engine/io/bad_records.h"
#include "engine/io/buffered_input.h"
#include "engine/io/input_stream.h"
#include "engine/io/json_record.h"
#include "engine/io/line_reader.h"

namespace simdex {

static_assert(io::BufferedInput::kPadding >= simdjson::SIMDJSON_PADDING,
              "JSON lines are parsed in place and need simdjson's padding");

DocumentFormat DocumentFormatFromPath(std::string_view path) {
  std::string_view base = io::StripCompressionSuffix(path);
  for (std::string_view ext : {".jsonl", ".json", ".ndjson"}) {
    if (base.ends_with(ext)) return DocumentFormat::kJsonl;
  }
  return DocumentFormat::kLines;
}

struct DocumentReader::Rep {
  Rep(std::unique_ptr<io::BufferedInput> in, const DocumentReaderOptions& opts, std::string display)
      : options(opts),
        name(std::move(display)),
        input(std::move(in)),
        lines(input.get(), opts.max_record_bytes),
        json(opts),
        bad(opts.skip_bad, opts.max_errors_kept) {}

  DocumentReaderOptions options;
  std::string name;
  std::unique_ptr<io::BufferedInput> input;
  io::LineReader lines;
  io::JsonRecordParser json;
  io::BadRecords bad;
  DocumentReaderStats stats;
  uint64_t ordinal = 0;  // records seen, bad ones included
};

DocumentReader::DocumentReader(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}
DocumentReader::~DocumentReader() = default;

Status DocumentReader::Open(const std::string& path, const DocumentReaderOptions& options,
                            std::unique_ptr<DocumentReader>* out) {
  if (options.format == DocumentFormat::kJsonl) {
    if (options.text_fields.empty()) return Status::InvalidArgument("no text field given for JSONL input");
    if (options.id_mode == IdMode::kField && options.id_field.empty()) {
      return Status::InvalidArgument("empty id field name for JSONL input");
    }
  }
  if (options.max_record_bytes == 0) return Status::InvalidArgument("max_record_bytes must be positive");
  std::unique_ptr<io::BufferedInput> input;
  std::string name;
  SIMDEX_RETURN_IF_ERROR(io::OpenBatchInput(path, "a file of documents", &input, &name));
  out->reset(new DocumentReader(std::make_unique<Rep>(std::move(input), options, std::move(name))));
  return Status::OK();
}

Status DocumentReader::Next(Document* doc, bool* eof) {
  Rep& r = *rep_;
  for (;;) {
    std::string_view line;
    Status s = r.lines.Next(&line, eof);
    r.stats.bytes = r.lines.end_offset();
    if (!s.ok()) {
      // Only a too-long line is a bad record; I/O and decompression errors
      // already name the file and end the input.
      if (!s.IsInvalidArgument()) return s;
      ++r.ordinal;
      SIMDEX_RETURN_IF_ERROR(r.bad.Handle(r.lines.AtLine(s, r.name), &r.stats));
      continue;
    }
    if (*eof) return Status::OK();
    if (r.options.format == DocumentFormat::kLines) {
      doc->id = r.lines.line_number();
      doc->id_string.clear();
      doc->text.assign(line);
      doc->score = -std::numeric_limits<double>::infinity();
      doc->title.clear();
    } else {
      if (io::IsBlank(line)) {
        ++r.stats.blank_lines;
        continue;
      }
      ++r.ordinal;
      doc->id = r.ordinal;
      doc->id_string.clear();
      s = r.json.Parse(line, doc);
      if (!s.ok()) {
        SIMDEX_RETURN_IF_ERROR(r.bad.Handle(r.lines.AtLine(s, r.name), &r.stats));
        continue;
      }
    }
    doc->line = r.lines.line_number();
    ++r.stats.records;
    return Status::OK();
  }
}

const DocumentReaderStats& DocumentReader::stats() const { return rep_->stats; }

const std::string& DocumentReader::name() const { return rep_->name; }

uint64_t CodePointLength(std::string_view text) {
  uint64_t n = 0;
  for (char c : text) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

}  // namespace simdex
