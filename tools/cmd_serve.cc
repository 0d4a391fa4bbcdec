// simdex serve: the docId service over HTTP (include/simdex/http_server.h),
// until SIGINT or SIGTERM. docs/service.md documents the API and operation.
//
//   simdex serve --data /var/lib/simdex --port 8080 --window 48h --keep max:views
#include <signal.h>
#include <sys/stat.h>

#include <boost/asio/ip/address.hpp>

#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "simdex/http_server.h"
#include "simdex/service.h"
#include "tools/commands.h"
#include "tools/service_options.h"
#include "tools/size_argument.h"

namespace simdex::tools {
namespace {

constexpr const char* kServeCommand = "serve";

struct ServeArgs {
  ServiceOptionArgs service;
  std::string listen = "127.0.0.1";
  int port = 8080;
  int threads = 2;
  std::string max_body = "1M";
  int idle_timeout = 60;
  size_t max_connections = 1024;
  std::string max_buffered = "128M";
  int stop_grace = 5;
  std::vector<std::string> allowed_hosts;
  std::vector<std::string> allowed_origins;
  std::string token_file;
  std::string port_file;
  bool quiet = false;
};

// The token of --token-file: its first line, without surrounding white
// space. An unreadable file, an empty token or one under 16 characters is
// an error; a file others may read gets a warning.
Status ReadToken(const std::string& path, std::string* token, std::string* warning) {
  std::ifstream in(path);
  if (!in) return Status::InvalidArgument("--token-file " + path + ": cannot be read");
  std::getline(in, *token);
  const size_t first = token->find_first_not_of(" \t\r");
  const size_t last = token->find_last_not_of(" \t\r");
  *token = first == std::string::npos ? "" : token->substr(first, last - first + 1);
  if (token->size() < 16) {
    return Status::InvalidArgument("--token-file " + path + ": the token is " + std::to_string(token->size()) +
                                   " characters; use at least 16 (e.g. head -c 24 /dev/urandom | base64)");
  }
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && (st.st_mode & (S_IRGRP | S_IROTH)) != 0) {
    *warning = "warning: --token-file " + path + " is readable by other users (chmod 600 it)";
  }
  return Status::OK();
}

bool IsLoopback(const std::string& listen) {
  boost::system::error_code ec;
  const boost::asio::ip::address a = boost::asio::ip::make_address(listen, ec);
  return !ec && a.is_loopback();
}

int RunServe(const ServeArgs& args) {
  ServiceOptions options;
  Status s = MakeServiceOptions(args.service, &options);
  if (!s.ok()) return ReportError(kServeCommand, s, s.IsInvalidArgument());
  HttpServerOptions http;
  http.listen = args.listen;
  http.port = static_cast<uint16_t>(args.port);
  http.threads = args.threads;
  http.idle_timeout_seconds = args.idle_timeout;
  if (!ParseSize(args.max_body, &http.max_body_bytes)) {
    return ReportError(kServeCommand, "--max-body '" + args.max_body + "' is not a size", kExitUsage);
  }
  if (http.max_body_bytes < kMinBodyBytes) {
    return ReportError(kServeCommand, "--max-body " + args.max_body + " is under the least, 1K", kExitUsage);
  }
  if (!ParseSize(args.max_buffered, &http.max_buffered_bytes)) {
    return ReportError(kServeCommand, "--max-buffered '" + args.max_buffered + "' is not a size", kExitUsage);
  }
  if (http.max_buffered_bytes < http.max_body_bytes + (size_t{128} << 10)) {
    return ReportError(kServeCommand, "--max-buffered " + args.max_buffered + " is under --max-body + 128K (" +
                                          std::to_string(http.max_body_bytes + (size_t{128} << 10)) +
                                          " bytes): one request of every size must fit",
                       kExitUsage);
  }
  http.max_connections = args.max_connections;
  http.stop_grace_seconds = args.stop_grace;
  http.allowed_hosts = args.allowed_hosts;
  http.allowed_origins = args.allowed_origins;
  if (!args.token_file.empty()) {
    std::string warning;
    s = ReadToken(args.token_file, &http.token, &warning);
    if (!s.ok()) return ReportError(kServeCommand, s, true);
    if (!warning.empty()) std::fprintf(stderr, "simdex serve: %s\n", warning.c_str());
  }
  if (!IsLoopback(args.listen) && http.token.empty()) {
    std::fprintf(stderr,
                 "simdex serve: warning: listening on %s without --token-file: anyone who can reach port %d can "
                 "write articles and read them back; give --token-file (and --allowed-hosts for the names clients "
                 "use), or put it behind a proxy that checks them (docs/service.md \"Security\")\n",
                 args.listen.c_str(), args.port);
  }
  if (!args.quiet) {
    http.log = [](std::string_view line) {
      std::fprintf(stderr, "simdex serve: %.*s\n", static_cast<int>(line.size()), line.data());
    };
  }

  // Every thread started from here on inherits the blocked signals; this
  // thread waits for them.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  std::unique_ptr<DocIdService> service;
  s = DocIdService::Open(options, &service);
  if (!s.ok()) return ReportError(kServeCommand, s, s.IsInvalidArgument());
  if (!args.quiet) {  // the method --content-method auto took (GET /stats says it too)
    std::fprintf(stderr, "simdex serve: contents matched by %s\n", ContentMethodName(service->options().content_method));
  }
  if (options.preload && !args.quiet) {
    const ServiceStats stats = service->stats();
    std::string line = "preloaded " + std::to_string(stats.preloaded_bytes) + " bytes of index files";
    if (options.preload_lock) {
      line += stats.preload_lock_error.empty() ? ", locked " + std::to_string(stats.locked_bytes)
                                               : ", not locked: " + stats.preload_lock_error;
    }
    std::fprintf(stderr, "simdex serve: %s\n", line.c_str());
  }
  std::unique_ptr<HttpServer> server;
  s = HttpServer::Start(service.get(), http, &server);
  if (!s.ok()) return ReportError(kServeCommand, s, s.IsInvalidArgument());
  if (!args.port_file.empty()) {
    // Written whole under a temporary name, so a reader never sees a part.
    const std::string tmp = args.port_file + ".tmp";
    std::ofstream(tmp) << server->port() << "\n";
    if (std::rename(tmp.c_str(), args.port_file.c_str()) != 0) {
      return ReportError(kServeCommand, "cannot write the port to " + args.port_file);
    }
  }
  int signal = 0;
  sigwait(&stop_signals, &signal);
  if (!args.quiet) std::fprintf(stderr, "simdex serve: signal %d, stopping\n", signal);
  server->Stop();
  service.reset();
  return 0;
}

}  // namespace

void AddServeCommand(CLI::App& app, CommandRunner* run) {
  auto args = std::make_shared<ServeArgs>();
  CLI::App* sub = app.add_subcommand("serve", "run the docId service over HTTP (docs/service.md)");
  AddServiceOptions(sub, &args->service);
  sub->add_option("--listen", args->listen, "address to listen on (0.0.0.0 opens it to the network)")
      ->capture_default_str();
  sub->add_option("--port", args->port, "TCP port (0: any free port)")->check(CLI::Range(0, 65535))->capture_default_str();
  sub->add_option("--threads", args->threads, "threads answering requests")->check(CLI::Range(1, 256))
      ->capture_default_str();
  sub->add_option("--max-body", args->max_body, "largest request body (larger: 413); at least 1K")->capture_default_str();
  sub->add_option("--idle-timeout", args->idle_timeout, "seconds a connection may stay idle")
      ->check(CLI::Range(1, 86400))
      ->capture_default_str();
  sub->add_option("--max-connections", args->max_connections, "connections open at once (one more: 503)")
      ->check(CLI::Range(size_t{1}, size_t{1} << 20))
      ->capture_default_str();
  sub->add_option("--max-buffered", args->max_buffered,
                  "bytes held for all connections together: read buffers, requests, answers being written (a "
                  "request past it: 503); at least --max-body + 128K")
      ->capture_default_str();
  sub->add_option("--stop-grace", args->stop_grace,
                  "seconds a stop (SIGINT, SIGTERM) gives requests in progress before it closes their connections")
      ->check(CLI::Range(0, 3600))
      ->capture_default_str();
  sub->add_option("--allowed-hosts", args->allowed_hosts,
                  "host names clients may use besides the listening address and localhost (comma-separated; *: "
                  "any); other Host fields get 421 (DNS rebinding)")
      ->delimiter(',');
  sub->add_option("--allowed-origins", args->allowed_origins,
                  "origins of web pages that may call the API, e.g. https://app.example (comma-separated; *: any); "
                  "requests from other pages get 403")
      ->delimiter(',');
  sub->add_option("--token-file", args->token_file,
                  "a file whose first line is a token every request but GET /healthz must carry as "
                  "Authorization: Bearer <token> (else 401)");
  sub->add_option("--port-file", args->port_file, "write the bound port to this file once listening");
  sub->add_flag("-q,--quiet", args->quiet, "no log lines on stderr");
  sub->footer("Stops on SIGINT or SIGTERM. Example: simdex serve --data ./state --port 8080 --window 48h");
  sub->callback([args, run] { *run = [args] { return RunServe(*args); }; });
}

}  // namespace simdex::tools
