// `simdex serve` (and other simdex commands) as child processes of a test,
// each bounded in time: a server is killed by its destructor (so a failed
// test never leaves one behind), waits for its port and its exit give up
// after a deadline, and a command that runs too long is killed and
// reported.
#ifndef SIMDEX_TESTS_SERVICE_SERVER_PROCESS_H_
#define SIMDEX_TESTS_SERVICE_SERVER_PROCESS_H_

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace simdex::servicetest {

// The simdex binary of this build.
std::string SimdexBinary();

class ServerProcess {
 public:
  // Starts `simdex serve --data data_dir --port 0 --port-file ... extra...`
  // with its stderr in log_path() (data_dir + ".log"). With
  // nofile_limit > 0, the child's RLIMIT_NOFILE is lowered to it first.
  explicit ServerProcess(const std::string& data_dir, std::vector<std::string> extra = {}, int nofile_limit = 0);
  // Kills the server (SIGKILL) if it still runs.
  ~ServerProcess();
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  // The bound port once the server listens; 0 when it exits first or does
  // not listen within 30 s.
  uint16_t WaitForPort();

  // Sends `signal` and waits up to `timeout` for the exit: the exit code,
  // 128 + the signal when killed by one, or -1 when it did not exit in time
  // (it is then killed).
  int Stop(int signal, std::chrono::seconds timeout = std::chrono::seconds(30));

  pid_t pid() const { return pid_; }
  const std::string& log_path() const { return log_path_; }
  // What the server logged so far.
  std::string Log() const;

 private:
  pid_t pid_ = -1;
  std::string port_file_;
  std::string log_path_;
};

struct CommandResult {
  int exit_code = -1;  // -1: killed after the timeout
  std::string err;     // its stderr
};

// Runs simdex with `args` (stdin from /dev/null, stdout discarded, stderr
// captured) and waits at most `timeout`.
CommandResult RunSimdex(const std::vector<std::string>& args,
                        std::chrono::seconds timeout = std::chrono::seconds(30));

}  // namespace simdex::servicetest

#endif  // SIMDEX_TESTS_SERVICE_SERVER_PROCESS_H_
