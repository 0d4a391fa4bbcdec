#include "tests/service/server_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>

namespace simdex::servicetest {

namespace {

// fork + exec of simdex with stdin from /dev/null, stdout to /dev/null and
// stderr to err_path; nofile_limit > 0 lowers RLIMIT_NOFILE first.
pid_t Spawn(const std::vector<std::string>& args, const std::string& err_path, int nofile_limit) {
  std::vector<std::string> argv_strings = {SimdexBinary()};
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_strings) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid != 0) return pid;
  // The child: only async-signal-safe calls until exec.
  const int in = open("/dev/null", O_RDONLY);
  const int out = open("/dev/null", O_WRONLY);
  const int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (in < 0 || out < 0 || err < 0) _exit(126);
  dup2(in, 0);
  dup2(out, 1);
  dup2(err, 2);
  // Descriptors the test process holds (sockets of its clients) are not the server's.
  close_range(3, ~0U, 0);
  if (nofile_limit > 0) {
    const rlimit limit{static_cast<rlim_t>(nofile_limit), static_cast<rlim_t>(nofile_limit)};
    if (setrlimit(RLIMIT_NOFILE, &limit) != 0) _exit(125);
  }
  execv(argv[0], argv.data());
  _exit(127);
}

// Waits for pid's exit up to `timeout`: its exit code, 128 + signal, or -1.
int WaitExit(pid_t pid, std::chrono::seconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    int status = 0;
    const pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    if (r < 0) return -1;
    if (std::chrono::steady_clock::now() >= deadline) return -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

void KillAndReap(pid_t pid) {
  ::kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);  // SIGKILL cannot be ignored: bounded
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

std::string SimdexBinary() { return std::string(SIMDEX_BINARY_DIR) + "/bin/simdex"; }

ServerProcess::ServerProcess(const std::string& data_dir, std::vector<std::string> extra, int nofile_limit) {
  port_file_ = data_dir + ".port";
  log_path_ = data_dir + ".log";
  std::remove(port_file_.c_str());
  std::vector<std::string> args = {"serve", "--data", data_dir, "--port", "0", "--port-file", port_file_};
  args.insert(args.end(), extra.begin(), extra.end());
  pid_ = Spawn(args, log_path_, nofile_limit);
}

ServerProcess::~ServerProcess() {
  if (pid_ > 0) KillAndReap(pid_);
}

uint16_t ServerProcess::WaitForPort() {
  for (int i = 0; i < 3000 && pid_ > 0; ++i) {
    std::ifstream in(port_file_);
    int port = 0;
    if (in >> port && port > 0) return static_cast<uint16_t>(port);
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {  // exited without listening
      pid_ = -1;
      return 0;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return 0;
}

int ServerProcess::Stop(int signal, std::chrono::seconds timeout) {
  if (pid_ <= 0) return -1;
  ::kill(pid_, signal);
  const int code = WaitExit(pid_, timeout);
  if (code < 0) KillAndReap(pid_);
  pid_ = -1;
  return code;
}

std::string ServerProcess::Log() const { return ReadFile(log_path_); }

CommandResult RunSimdex(const std::vector<std::string>& args, std::chrono::seconds timeout) {
  char path[] = "/tmp/simdex-command-XXXXXX";
  const int fd = mkstemp(path);
  if (fd >= 0) close(fd);
  CommandResult result;
  const pid_t pid = Spawn(args, path, 0);
  result.exit_code = WaitExit(pid, timeout);
  if (result.exit_code < 0) KillAndReap(pid);
  result.err = ReadFile(path);
  std::remove(path);
  return result;
}

}  // namespace simdex::servicetest
