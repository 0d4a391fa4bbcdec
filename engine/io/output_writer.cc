// OutputWriter (include/simdex/output_writer.h): a buffer in front of
// io::OutputStream.
#include "simdex/output_writer.h"

#include "engine/io/output_stream.h"
#include "engine/util/temporary_names.h"

namespace simdex {

namespace {
constexpr size_t kFlushBytes = size_t{1} << 20;
}  // namespace

struct OutputWriter::Rep {
  std::unique_ptr<io::OutputStream> stream;
  std::string buffer;
  Status status;
  bool closed = false;
};

OutputWriter::OutputWriter(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}
OutputWriter::~OutputWriter() = default;

Status OutputWriter::Open(const std::string& path, std::unique_ptr<OutputWriter>* out) {
  auto rep = std::make_unique<Rep>();
  SIMDEX_RETURN_IF_ERROR(io::OutputStream::Open(path, &rep->stream));
  out->reset(new OutputWriter(std::move(rep)));
  return Status::OK();
}

Status OutputWriter::Append(std::string_view bytes) {
  Rep& r = *rep_;
  if (!r.status.ok()) return r.status;
  if (r.closed) return r.status = Status::InvalidArgument("Append() after Close()");
  r.buffer.append(bytes);
  if (r.buffer.size() >= kFlushBytes) {
    r.status = r.stream->Write(r.buffer.data(), r.buffer.size());
    r.buffer.clear();
  }
  return r.status;
}

Status OutputWriter::Close() {
  Rep& r = *rep_;
  if (!r.status.ok()) return r.status;
  if (r.closed) return r.status = Status::InvalidArgument("Close() called twice");
  r.closed = true;
  r.status = r.stream->Write(r.buffer.data(), r.buffer.size());
  r.buffer.clear();
  if (r.status.ok()) r.status = r.stream->Close();
  return r.status;
}

void RemoveNamedTemporaries() noexcept { util::RemoveRegisteredTemporaries(); }

}  // namespace simdex
