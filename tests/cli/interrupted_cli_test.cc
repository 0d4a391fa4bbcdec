// Interrupted commands leave no scratch file and no temporary (issue 36,
// item 8): build, merge (also in place), dedup by either method and build
// --method minhash, each killed mid-run by SIGTERM, SIGINT, SIGHUP and
// SIGKILL, with a tiny --memory so that their sorts spill. "Mid-run" is
// once the process holds a file open in its scratch directory (a spilled
// sort), and then a little later for each signal in turn. Before, every
// such kill left simdex-sort-*, -ids-, -values-, -fingerprints-,
// -signatures-, -records-* and *.tmp-* files behind.
//
// Each command runs twice: as it is (O_TMPFILE: nothing ever has a name
// until the output is complete), and with SIMDEX_NO_TMPFILE=1, as on a file
// system without O_TMPFILE, killed once its output's named temporary is in
// the directory: a catchable signal's handler removes it, and only kill -9
// leaves it (the one promise that is weaker there: docs/reliability.md).
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "tests/cli/cli_harness.h"
#include "tests/open_files.h"

namespace simdex::clitest {
namespace {

struct Command {
  const char* name;
  std::vector<std::string> args;  // "{in}", "{tmp}", "{out}" are replaced
  std::string scratch;            // "tmp" or "out": where its sorts spill
  std::string output;             // the output's name in out/
};

// Starts build/bin/simdex with args in dir, its output thrown away, and
// SIMDEX_NO_TMPFILE=1 when no_tmpfile.
pid_t Start(const std::vector<std::string>& args, const std::string& dir, bool no_tmpfile) {
  std::vector<char*> argv;
  const std::string binary = SIMDEX_BINARY_DIR "/bin/simdex";
  argv.push_back(const_cast<char*>(binary.c_str()));
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int null = ::open("/dev/null", O_RDWR);
    if (null < 0 || ::chdir(dir.c_str()) != 0) ::_exit(126);
    for (int fd = 0; fd <= 2; ++fd) ::dup2(null, fd);
    if (no_tmpfile) ::setenv("SIMDEX_NO_TMPFILE", "1", 1);
    else ::unsetenv("SIMDEX_NO_TMPFILE");
    ::execv(binary.c_str(), argv.data());
    ::_exit(127);
  }
  return pid;
}

class InterruptedCli : public ::testing::TestWithParam<Command> {
 protected:
  static void SetUpTestSuite() {
    inputs_ = new ScratchDir();
    std::string fingerprints;
    uint64_t x = 88172645463325252ULL;
    for (int i = 0; i < 600000; ++i) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      char hex[17];
      std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(x));
      fingerprints += std::to_string(i) + "\t" + hex + "\n";
    }
    WriteFile(inputs_->File("fp.txt"), fingerprints);
    std::string docs;
    for (int i = 0; i < 80000; ++i) {
      std::string text;
      for (int w = 0; w < 30; ++w) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        text += " w" + std::to_string(x % 5000);
      }
      docs += "{\"id\":" + std::to_string(i) + ",\"text\":\"" + text + "\"}\n";
    }
    WriteFile(inputs_->File("docs.jsonl"), docs);
    ASSERT_EQ(RunSimdex(*inputs_, {"build", "-q", "--out", inputs_->File("old.sdx"), inputs_->File("fp.txt")})
                  .exit_code,
              0);
  }
  static void TearDownTestSuite() {
    delete inputs_;
    inputs_ = nullptr;
  }

  // Replaces {in}, {tmp} and {out} in the command's arguments.
  std::vector<std::string> Args(const std::string& tmp, const std::string& out) const {
    std::vector<std::string> args;
    for (std::string a : GetParam().args) {
      for (const auto& [key, value] : {std::pair<std::string, std::string>{"{in}", inputs_->path()},
                                       {"{tmp}", tmp}, {"{out}", out}}) {
        for (size_t at; (at = a.find(key)) != std::string::npos;) a.replace(at, key.size(), value);
      }
      args.push_back(a);
    }
    return args;
  }

  static ScratchDir* inputs_;
};

ScratchDir* InterruptedCli::inputs_ = nullptr;

TEST_P(InterruptedCli, KilledMidRunLeavesNoScratchFileAndNoTemporary) {
  const Command& command = GetParam();
  const std::string old_index = ReadFile(inputs_->File("old.sdx"));
  int round = 0;
  // SIGINT and SIGHUP go through SIGTERM's handler: under the sanitizers,
  // whose runs take several times as long, SIGTERM stands for the three.
  const std::vector<int> signals = SIMDEX_SANITIZED_BUILD ? std::vector<int>{SIGTERM, SIGKILL}
                                                          : std::vector<int>{SIGTERM, SIGINT, SIGHUP, SIGKILL};
  for (const bool no_tmpfile : {false, true}) {
    for (const int signal : signals) {
      SCOPED_TRACE(std::string(command.name) + ", " + strsignal(signal) + (no_tmpfile ? ", SIMDEX_NO_TMPFILE=1" : ""));
      ScratchDir tmp, out;
      WriteFile(out.File("old.sdx"), old_index);  // merge's old index; replaced in place by one
      const std::string watched = command.scratch == "tmp" ? tmp.path() : out.path();
      const pid_t pid = Start(Args(tmp.path(), out.path()), inputs_->path(), no_tmpfile);
      ASSERT_GT(pid, 0);
      // Mid-run: a file open in the scratch directory, then 0 to 150 ms
      // more; under SIMDEX_NO_TMPFILE, the output's temporary by its name.
      auto named_output = [&] {
        for (const std::string& name : out.List()) {
          if (name.rfind(command.output + ".tmp-", 0) == 0) return true;
        }
        return false;
      };
      auto mid_run = [&] {
        return no_tmpfile ? named_output() : !testing::OpenFilesIn(watched, std::to_string(pid)).empty();
      };
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
      int status = 0;
      bool exited = false;
      while (!mid_run()) {
        if (::waitpid(pid, &status, WNOHANG) == pid) {
          exited = true;
          break;
        }
        ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "not mid-run after 60 s";
        std::this_thread::sleep_for(std::chrono::microseconds(200));
      }
      ASSERT_FALSE(exited) << "finished before it was mid-run (status " << status << "): give it more input";
      if (!no_tmpfile) std::this_thread::sleep_for(std::chrono::milliseconds(50 * (round++ % 4)));
      ASSERT_EQ(::kill(pid, signal), 0);
      ASSERT_EQ(::waitpid(pid, &status, 0), pid);
      ASSERT_TRUE(WIFSIGNALED(status)) << "finished before the kill (exit " << WEXITSTATUS(status)
                                       << "): give it more input";
      EXPECT_EQ(WTERMSIG(status), signal) << "killed by the signal's default action, after the clean-up";
      EXPECT_EQ(tmp.List(), std::vector<std::string>{}) << "scratch files left in --tmpdir";
      std::vector<std::string> left;
      for (const std::string& name : out.List()) {
        const bool kill9_named_output = no_tmpfile && signal == SIGKILL && name.rfind(command.output + ".tmp-", 0) == 0;
        if (name != "old.sdx" && !kill9_named_output) left.push_back(name);
      }
      EXPECT_EQ(left, std::vector<std::string>{}) << "files left beside the output";
      EXPECT_TRUE(ReadFile(out.File("old.sdx")) == old_index) << "the old index changed";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    EveryCommandThatSpills, InterruptedCli,
    ::testing::Values(
        Command{"Build", {"build", "-q", "--memory", "64K", "--out", "{out}/new.sdx", "{in}/fp.txt"}, "out", "new.sdx"},
        Command{"Merge",
                {"merge", "-q", "--replace", "--memory", "64K", "--tmpdir", "{tmp}", "{out}/old.sdx", "{in}/fp.txt", "--out",
                 "{out}/new.sdx"},
                "tmp", "new.sdx"},
        Command{"MergeInPlace",
                {"merge", "-q", "--replace", "--memory", "64K", "--tmpdir", "{tmp}", "{out}/old.sdx", "{in}/fp.txt", "--out",
                 "{out}/old.sdx"},
                "tmp", "old.sdx"},
        Command{"DedupSimHash",
                {"dedup", "-q", "--method", "simhash", "--memory", "64K", "--tmpdir", "{tmp}", "-o",
                 "{out}/out.jsonl", "--pairs", "{out}/pairs.jsonl", "{in}/fp.txt"},
                "tmp", "out.jsonl"},
        Command{"DedupMinHash",
                {"dedup", "-q", "--method", "minhash", "--memory", "512K", "--tmpdir", "{tmp}", "-o",
                 "{out}/out.jsonl", "--pairs", "{out}/pairs.jsonl", "{in}/docs.jsonl"},
                "tmp", "out.jsonl"},
        Command{"BuildMinHash",
                {"build", "-q", "--method", "minhash", "--memory", "2M", "--tmpdir", "{tmp}", "--out",
                 "{out}/new.sdx", "{in}/docs.jsonl"},
                "tmp", "new.sdx"}),
    [](const ::testing::TestParamInfo<Command>& p) { return std::string(p.param.name); });

}  // namespace
}  // namespace simdex::clitest
