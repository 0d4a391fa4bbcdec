// simdex: near-duplicate detection with MinHash-LSH and SimHash over a
// compressed on-disk index. One binary, git-style subcommands.
#include <malloc.h>
#include <pthread.h>
#include <signal.h>

#include <cstdio>
#include <exception>
#include <initializer_list>
#include <new>
#include <string>

#include <CLI/CLI.hpp>

#include "simdex/front_end_text.h"
#include "simdex/output_writer.h"
#include "tools/commands.h"

namespace {

// SIGINT, SIGTERM, SIGHUP: the named temporaries go (an output has a name
// only while it is renamed into place, or throughout where the file system
// has no O_TMPFILE; scratch files never have one), then the signal's
// default action ends the process, so that its parent sees it killed by
// the signal (a shell's $? is 128 + the signal's number).
void RemoveTemporariesAndDie(int signal) {
  simdex::RemoveNamedTemporaries();
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  ::sigaction(signal, &default_action, nullptr);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, signal);
  ::pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
  ::raise(signal);
}

void CleanUpOnTerminatingSignals() {
  struct sigaction action {};
  action.sa_handler = RemoveTemporariesAndDie;
  sigemptyset(&action.sa_mask);
  for (int signal : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old {};
    // A signal ignored by whoever started us (nohup's SIGHUP) stays ignored.
    if (::sigaction(signal, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    ::sigaction(signal, &action, nullptr);
  }
}

}  // namespace

int main(int argc, char** argv) {
  // Buffers of 1 MiB and more are mapped and go back to the system when
  // freed. glibc's default raises that threshold each time such a buffer is
  // freed (up to 32 MiB), after which a phase's buffers stay in the heap
  // when the phase is done and push the next phase past --memory: a build of
  // 10^7 string ids at 512M peaked at 658 MB of its own memory, 559 MB with
  // this (docs/library.md, "Sizes and limits"); the time was the same.
  mallopt(M_MMAP_THRESHOLD, 1 << 20);
  // Before any thread starts, so that every thread has these handlers
  // (simdex serve blocks SIGINT and SIGTERM and waits for them itself).
  CleanUpOnTerminatingSignals();
  CLI::App app{"simdex: near-duplicate detection with MinHash-LSH (documents, by default) and SimHash fingerprints"};
  app.require_subcommand(1);
  simdex::tools::CommandRunner run;
  namespace t = simdex::tools;
  for (auto* add : {t::AddDistanceCommand, t::AddFingerprintCommand, t::AddPairsCommand, t::AddDedupCommand,
                    t::AddEvalCommand, t::AddMergeCommand, t::AddBuildCommand, t::AddPlanCommand, t::AddQueryCommand,
                    t::AddInspectCommand, t::AddVerifyCommand, t::AddServeCommand, t::AddImportCommand,
                    t::AddIdfCommand}) {
    add(app, &run);
  }
  // "simdex nosuch" and "simdex" name the problem and the commands (CLI11
  // would say only that a subcommand is required).
  std::string commands;
  bool known = false;
  for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
    commands += (commands.empty() ? "" : ", ") + sub->get_name();
    known = known || (argc > 1 && sub->get_name() == argv[1]);
  }
  if (argc < 2) {
    std::fprintf(stderr, "simdex: a command is required: %s (see simdex --help)\n", commands.c_str());
    return simdex::tools::kExitUsage;
  }
  const std::string first = argv[1];
  if (!first.starts_with("-") && !known) {
    std::fprintf(stderr, "simdex: '%s' is not a command; the commands are %s (see simdex --help)\n",
                 simdex::Printable(first, 40).c_str(), commands.c_str());
    return simdex::tools::kExitUsage;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    // A usage error is one line too: "simdex <command>: <what> (see --help)".
    const std::vector<CLI::App*> selected = app.get_subcommands();
    const std::string command = selected.empty() ? "" : " " + selected.front()->get_name();
    std::fprintf(stderr, "simdex%s: %s (see simdex%s --help)\n", command.c_str(), simdex::Printable(e.what()).c_str(),
                 command.c_str());
    return simdex::tools::kExitUsage;
  }
  if (!run) return simdex::tools::kExitUsage;
  // The library reports what it cannot allocate as a Status; whatever still
  // throws (a container's growth in a command's own code) ends as one line
  // and exit 1, never as an abort.
  const std::string command = app.get_subcommands().empty() ? "" : app.get_subcommands().front()->get_name();
  try {
    return run();
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "simdex %s: out of memory (std::bad_alloc); give a smaller --memory or more memory\n",
                 command.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "simdex %s: %s\n", command.c_str(), simdex::Printable(e.what()).c_str());
  }
  return simdex::tools::kExitFailure;
}
