#include "tests/cli/cli_harness.h"

#include <stdlib.h>
#include <sys/wait.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "simdex/fingerprint.h"
#include "simdex/index.h"

namespace simdex::clitest {

namespace fs = std::filesystem;

ScratchDir::ScratchDir() {
  std::string tmpl = (fs::temp_directory_path() / "simdex-cli-XXXXXX").string();
  if (mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed for " + tmpl);
  path_ = tmpl;
}

ScratchDir::~ScratchDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

std::string ScratchDir::File(const std::string& name) const { return path_ + "/" + name; }

std::vector<std::string> ScratchDir::List() const {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(path_)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

namespace {

// Quotes s for /bin/sh.
std::string ShellQuote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

}  // namespace

RunResult RunSimdex(const ScratchDir& scratch, const std::vector<std::string>& args,
                    const std::string& stdin_text, const RunLimits& limits) {
  const std::string in = scratch.File(".stdin"), out = scratch.File(".stdout"),
                    err = scratch.File(".stderr");
  WriteFile(in, stdin_text);
  std::string command;
  if (limits.address_space_kib > 0) command += "ulimit -v " + std::to_string(limits.address_space_kib) + " && ";
  if (limits.timeout_seconds > 0) command += "timeout -s KILL " + std::to_string(limits.timeout_seconds) + " ";
  command += ShellQuote(SIMDEX_BINARY_DIR "/bin/simdex");
  for (const std::string& a : args) command.append(" ").append(ShellQuote(a));
  command.append(" <").append(ShellQuote(in)).append(" >").append(ShellQuote(out));
  command.append(" 2>").append(ShellQuote(err));
  const int status = std::system(command.c_str());
  RunResult r;
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  else if (WIFSIGNALED(status)) r.exit_code = 128 + WTERMSIG(status);
  r.out = ReadFile(out);
  r.err = ReadFile(err);
  for (const std::string& f : {in, out, err}) fs::remove(f);
  return r;
}

std::vector<Entry> TestEntries() {
  std::mt19937_64 rng(20240607);
  std::vector<Entry> entries;
  uint64_t next_id = 5;
  const auto new_id = [&] { return next_id += 1 + rng() % 1000; };
  for (int i = 0; i < 300; ++i) entries.push_back({new_id(), rng()});
  for (int i = 0; i < 40; ++i) {
    const uint64_t base = entries[i].fingerprint;
    for (int d = 0; d <= 4; ++d) {
      uint64_t v = base;
      while (HammingDistance(v, base) < d) v ^= uint64_t{1} << (rng() % 64);
      entries.push_back({new_id(), v});
    }
  }
  std::shuffle(entries.begin(), entries.end(), rng);
  return entries;
}

std::string TextFingerprints(const std::vector<Entry>& entries) {
  std::string text;
  for (const Entry& e : entries) {
    text += std::to_string(e.id) + "\t" + FormatHexFingerprint(e.fingerprint) + "\n";
  }
  return text;
}

std::string ExpectedQueryLine(const std::vector<Entry>& entries, uint64_t query, int k) {
  std::vector<std::tuple<int, uint64_t, uint64_t>> found;  // distance, id, fingerprint
  for (const Entry& e : entries) {
    const int d = HammingDistance(e.fingerprint, query);
    if (d <= k) found.emplace_back(d, e.id, e.fingerprint);
  }
  std::sort(found.begin(), found.end());
  std::string line = "{\"query\":\"" + FormatHexFingerprint(query) + "\",\"matches\":[";
  for (size_t i = 0; i < found.size(); ++i) {
    const auto& [d, id, fp] = found[i];
    line += (i > 0 ? ",{\"id\":" : "{\"id\":") + std::to_string(id) + ",\"fingerprint\":\"" +
            FormatHexFingerprint(fp) + "\",\"distance\":" + std::to_string(d) + "}";
  }
  return line + "]}\n";
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out.flush()) throw std::runtime_error("cannot write " + path);
}

bool FileExists(const std::string& path) { return fs::exists(path); }

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

void CliTest::SetUp() {
  WriteFile(input_, TextFingerprints(entries_));
  BuildOptions options;
  options.block_size = kBlockSize;
  std::unique_ptr<IndexBuilder> builder;
  ASSERT_TRUE(IndexBuilder::Create(index_, options, &builder).ok());
  for (const Entry& e : entries_) ASSERT_TRUE(builder->Add(e.id, e.fingerprint).ok());
  const Status s = builder->Finish();
  ASSERT_TRUE(s.ok()) << s.ToString();
}

}  // namespace simdex::clitest
