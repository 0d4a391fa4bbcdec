// Helpers for the end-to-end tests of the `simdex` program: scratch
// directories, running build/bin/simdex with captured output, the test
// fingerprints and the brute-force answers a query must print.
#ifndef SIMDEX_TESTS_CLI_CLI_HARNESS_H_
#define SIMDEX_TESTS_CLI_CLI_HARNESS_H_

#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace simdex::clitest {

struct Entry {
  uint64_t id;
  uint64_t fingerprint;
};

// A fresh directory under the system temp directory, removed with its
// contents by the destructor.
class ScratchDir {
 public:
  ScratchDir();
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::string& path() const { return path_; }
  // path() + "/" + name.
  std::string File(const std::string& name) const;
  // The names of the entries in the directory, sorted.
  std::vector<std::string> List() const;

 private:
  std::string path_;
};

struct RunResult {
  int exit_code = -1;  // the exit status, or 128 + signal number
  std::string out;
  std::string err;
};

// Limits on one run of the program; 0 is none.
struct RunLimits {
  // A run still going after this long is killed (SIGKILL: exit code 137),
  // so that a test of a hang fails instead of hanging.
  int timeout_seconds = 0;
  // The program's address space (ulimit -v, RLIMIT_AS), in KiB: what a
  // machine with that little memory would let it allocate.
  uint64_t address_space_kib = 0;
};

// Runs build/bin/simdex with `args` (each passed as one argument) and
// `stdin_text` on its standard input, in scratch, within `limits`.
RunResult RunSimdex(const ScratchDir& scratch, const std::vector<std::string>& args,
                    const std::string& stdin_text = "", const RunLimits& limits = {});

// A few hundred random fingerprints with non-contiguous ids, plus planted
// near-duplicates of some of them (1 to 4 bits away) and exact duplicates
// under other ids, shuffled. The same every call.
std::vector<Entry> TestEntries();

// "<id>\t<16 hex>\n" lines.
std::string TextFingerprints(const std::vector<Entry>& entries);

// The JSON line `simdex query` must print for `query` at distance k, by a
// scan of every entry (newline included).
std::string ExpectedQueryLine(const std::vector<Entry>& entries, uint64_t query, int k);

std::string ReadFile(const std::string& path);
void WriteFile(const std::string& path, const std::string& bytes);
bool FileExists(const std::string& path);

// The lines of text, without their '\n'.
std::vector<std::string> Lines(const std::string& text);

// Each test starts with TestEntries() written to fp.txt in a fresh scratch
// directory and built into index.sdx through IndexBuilder (t10, 128-byte
// blocks, so that tables have many blocks), independently of `simdex build`.
class CliTest : public ::testing::Test {
 public:
  static constexpr int kBlockSize = 128;

 protected:
  void SetUp() override;

  ScratchDir dir_;
  std::vector<Entry> entries_ = TestEntries();
  std::string input_ = dir_.File("fp.txt");
  std::string index_ = dir_.File("index.sdx");
};

}  // namespace simdex::clitest

#endif  // SIMDEX_TESTS_CLI_CLI_HARNESS_H_
