// Status: the one error style of the simdex library.
//
// Every fallible call returns a Status. A Status is either OK or carries a
// code and a one-line message that names what went wrong and where
// ("block 1234 of table 7: checksum mismatch"). No exception escapes the
// public API; programmer mistakes (broken REQUIRES clauses) are asserts.
//
// Thread safety: a Status is a value; distinct objects may be used from
// distinct threads freely.
#ifndef SIMDEX_STATUS_H_
#define SIMDEX_STATUS_H_

#include <string>
#include <string_view>
#include <utility>

namespace simdex {

class Status {
 public:
  enum class Code : unsigned char {
    kOk = 0,
    kInvalidArgument = 1,  // the caller passed something unusable
    kCorruption = 2,       // stored or input bytes are not what the format allows
    kIOError = 3,          // the operating system refused a read, write, map, ...
    kNotFound = 4,
    kNotSupported = 5,
  };

  // Creates an OK status.
  Status() = default;

  static Status OK() { return Status(); }
  static Status InvalidArgument(std::string msg) { return Status(Code::kInvalidArgument, std::move(msg)); }
  static Status Corruption(std::string msg) { return Status(Code::kCorruption, std::move(msg)); }
  static Status IOError(std::string msg) { return Status(Code::kIOError, std::move(msg)); }
  static Status NotFound(std::string msg) { return Status(Code::kNotFound, std::move(msg)); }
  static Status NotSupported(std::string msg) { return Status(Code::kNotSupported, std::move(msg)); }

  bool ok() const { return code_ == Code::kOk; }
  bool IsInvalidArgument() const { return code_ == Code::kInvalidArgument; }
  bool IsCorruption() const { return code_ == Code::kCorruption; }
  bool IsIOError() const { return code_ == Code::kIOError; }
  bool IsNotFound() const { return code_ == Code::kNotFound; }
  bool IsNotSupported() const { return code_ == Code::kNotSupported; }

  Code code() const { return code_; }
  // The message alone, without the code ("" for OK).
  const std::string& message() const { return message_; }
  // "OK", or "<code name>: <message>", e.g. "Corruption: bad magic number".
  std::string ToString() const;

  // Returns a status of the same code whose message is "<context>: <message>".
  // OK stays OK.
  Status WithContext(std::string_view context) const;

 private:
  Status(Code code, std::string msg) : code_(code), message_(std::move(msg)) {}

  Code code_ = Code::kOk;
  std::string message_;
};

// Propagates a non-OK status to the caller.
#define SIMDEX_RETURN_IF_ERROR(expr)           \
  do {                                         \
    ::simdex::Status _simdex_s = (expr);       \
    if (!_simdex_s.ok()) return _simdex_s;     \
  } while (0)

}  // namespace simdex

#endif  // SIMDEX_STATUS_H_
