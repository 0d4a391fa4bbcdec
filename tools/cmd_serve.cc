// simdex serve: the docId service over HTTP (include/simdex/http_server.h),
// until SIGINT or SIGTERM. docs/service.md documents the API and operation.
//
//   simdex serve --data /var/lib/simdex --port 8080 --window 48h --keep max:views
#include <signal.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <string>

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
  std::string port_file;
  bool quiet = false;
};

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
  sub->add_option("--max-body", args->max_body, "largest request body (larger: 413)")->capture_default_str();
  sub->add_option("--idle-timeout", args->idle_timeout, "seconds a connection may stay idle")
      ->check(CLI::Range(1, 86400))
      ->capture_default_str();
  sub->add_option("--port-file", args->port_file, "write the bound port to this file once listening");
  sub->add_flag("-q,--quiet", args->quiet, "no log lines on stderr");
  sub->footer("Stops on SIGINT or SIGTERM. Example: simdex serve --data ./state --port 8080 --window 48h");
  sub->callback([args, run] { *run = [args] { return RunServe(*args); }; });
}

}  // namespace simdex::tools
