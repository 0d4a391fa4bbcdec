#include "engine/io/line_reader.h"

#include <cstring>
#include <string>

namespace simdex::io {

LineReader::LineReader(BufferedInput* in, size_t max_line) : in_(in), max_line_(max_line) {}

Status LineReader::Discard(bool* eof) {
  for (;;) {
    const char* nl = static_cast<const char*>(std::memchr(in_->data(), '\n', in_->size()));
    if (nl != nullptr) {
      in_->Consume(static_cast<size_t>(nl - in_->data()) + 1);
      discarding_ = false;
      return Status::OK();
    }
    in_->Consume(in_->size());
    if (in_->eof()) {
      *eof = true;
      return Status::OK();
    }
    SIMDEX_RETURN_IF_ERROR(in_->FillMore());
  }
}

Status LineReader::Next(std::string_view* line, bool* eof) {
  *eof = false;
  in_->Consume(pending_);
  pending_ = 0;
  if (discarding_) {
    SIMDEX_RETURN_IF_ERROR(Discard(eof));
    if (*eof) return Status::OK();
  }
  if (line_number_ == 0) {
    SIMDEX_RETURN_IF_ERROR(in_->Fill(kUtf8Bom.size()));
    if (std::string_view(in_->data(), in_->size()).starts_with(kUtf8Bom)) in_->Consume(kUtf8Bom.size());
  }
  size_t scanned = 0;
  for (;;) {
    const char* data = in_->data();
    const char* nl = static_cast<const char*>(std::memchr(data + scanned, '\n', in_->size() - scanned));
    size_t len;
    if (nl != nullptr) {
      len = static_cast<size_t>(nl - data);
      pending_ = len + 1;
    } else if (in_->eof()) {
      if (in_->size() == 0) {
        *eof = true;
        return Status::OK();
      }
      len = in_->size();
      pending_ = len;
    } else if (in_->size() > max_line_) {
      ++line_number_;
      discarding_ = true;
      in_->Consume(in_->size());
      return Status::InvalidArgument("line is longer than " + std::to_string(max_line_) + " bytes");
    } else {
      scanned = in_->size();
      SIMDEX_RETURN_IF_ERROR(in_->FillMore());
      continue;
    }
    ++line_number_;
    if (len > max_line_) {
      return Status::InvalidArgument("line is longer than " + std::to_string(max_line_) + " bytes");
    }
    if (len > 0 && data[len - 1] == '\r') --len;
    *line = std::string_view(data, len);
    return Status::OK();
  }
}

}  // namespace simdex::io
