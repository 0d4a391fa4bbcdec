// simdex plan N [--k K] [--memory SIZE] [--disk SIZE] [--block-size B]
//   [--codec C] [--json]
// Prints the scheme, block size and codec the planner (simdex/plan.h)
// chooses for an index of N entries, its predictions and the reasons, and
// the build command that makes it.
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "simdex/front_end_text.h"
#include "simdex/plan.h"
#include "tools/commands.h"
#include "tools/size_argument.h"

namespace simdex::tools {
namespace {

constexpr const char* kPlanCommand = "plan";

struct PlanArgs {
  std::string n;
  int k = 3;
  std::string memory = "1G";
  std::string disk;
  uint32_t block_size = 0;
  std::string codec;
  bool json = false;
};

// An entry count: digits ("1000000") or a power of ten's multiple ("1e6",
// "2.5e7"), a whole number from 1 to 2^63.
bool ParseCount(const std::string& text, uint64_t* out) {
  if (text.empty() || text.size() > 24 || text.find_first_not_of("0123456789.eE") != std::string::npos) return false;
  if (text.find_first_not_of("0123456789") == std::string::npos) {
    if (text.size() > 19) return false;
    *out = std::stoull(text);
    return *out > 0;
  }
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !(value >= 1) || value > 9.2e18 || value != std::floor(value)) return false;
  *out = static_cast<uint64_t>(value);
  return true;
}

std::string Fixed(double v, const char* format) {
  char text[48];
  std::snprintf(text, sizeof(text), format, v);
  return text;
}

void AppendChoiceJson(const PlanChoice& c, std::string* out) {
  *out += "{\"scheme\":";
  AppendJsonString(out, c.scheme.Name());
  *out += ",\"k\":" + std::to_string(c.scheme.k()) + ",\"tables\":" + std::to_string(c.scheme.num_tables()) +
          ",\"block_size\":" + std::to_string(c.block_size) + ",\"codec\":";
  AppendJsonString(out, c.codec);
  *out += ",\"index_bytes\":" + std::to_string(c.index_bytes) + ",\"scratch_bytes\":" + std::to_string(c.scratch_bytes) +
          ",\"disk_bytes\":" + std::to_string(c.disk_bytes) + ",\"memory_bytes\":" + std::to_string(c.memory_bytes) +
          ",\"spills\":" + (c.spills ? "true" : "false") + ",\"p50_us\":" + Fixed(c.p50_us, "%.3f") +
          ",\"p50_measured\":" + (c.p50_measured ? "true" : "false") +
          ",\"extrapolated\":" + (c.extrapolated ? "true" : "false") + "}";
}

std::string PlanJson(const PlanRequest& r, const Plan& plan) {
  std::string out = "{\"n\":" + std::to_string(r.n) + ",\"k\":" + std::to_string(r.k) +
                    ",\"memory_bytes\":" + std::to_string(r.memory_bytes) +
                    ",\"disk_bytes\":" + (r.disk_bytes ? std::to_string(r.disk_bytes) : "null") + ",\"choice\":";
  AppendChoiceJson(plan.choice, &out);
  out += ",\"runner_up\":";
  if (plan.has_runner_up) AppendChoiceJson(plan.runner_up, &out);
  else out += "null";
  out += ",\"reasons\":[";
  for (size_t i = 0; i < plan.reasons.size(); ++i) {
    if (i) out += ",";
    AppendJsonString(&out, plan.reasons[i]);
  }
  return out + "]}\n";
}

std::string ChoiceLine(const PlanChoice& c, uint64_t n) {
  return c.scheme.Name() + " (" + std::to_string(c.scheme.num_tables()) + " tables, k = " + std::to_string(c.scheme.k()) +
         "), codec " + c.codec + ", " + SizeText(c.block_size) + " blocks: index " + SizeText(c.index_bytes) +
         " (" + Fixed(static_cast<double>(c.index_bytes) / static_cast<double>(n), "%.1f") + " bytes/entry), median near query " +
         Fixed(c.p50_us, c.p50_us < 10 ? "%.2f" : "%.1f") + " us" + (c.p50_measured ? "" : " (estimated)");
}

std::string PlanText(const PlanRequest& r, const Plan& plan, const PlanArgs& args) {
  const PlanChoice& c = plan.choice;
  std::string out = "plan for " + std::to_string(r.n) + " entries, k = " + std::to_string(r.k) + ", memory " +
                    SizeText(r.memory_bytes) + ", disk " + (r.disk_bytes ? SizeText(r.disk_bytes) : "unbounded") +
                    ":\n";
  out += "  choice:    " + ChoiceLine(c, r.n) + "\n";
  out += "  build:     peak memory " + SizeText(c.memory_bytes) + ", peak disk " + SizeText(c.disk_bytes) +
         " (scratch " + SizeText(c.scratch_bytes) + "), " + (c.spills ? "sorts on disk" : "sorts in memory") + "\n";
  if (plan.has_runner_up) out += "  runner-up: " + ChoiceLine(plan.runner_up, r.n) + "\n";
  out += "why:\n";
  for (const std::string& reason : plan.reasons) out += "  - " + reason + "\n";
  out += "build it: simdex build --scheme " + c.scheme.Name() + " --block-size " + std::to_string(c.block_size) +
         " --codec " + c.codec + " --memory " + args.memory + " --out INDEX INPUT...\n";
  return out;
}

int RunPlan(const PlanArgs& args) {
  PlanRequest request;
  if (!ParseCount(args.n, &request.n)) {
    return ReportError(kPlanCommand, "N '" + args.n + "' is not a count of entries (e.g. 1000000, 1e6, 2.5e7)", kExitUsage);
  }
  request.k = args.k;
  size_t bytes = 0;
  if (!ParseSize(args.memory, &bytes)) {
    return ReportError(kPlanCommand, "--memory '" + args.memory + "' is not a size (e.g. 4096, 64K, 512M, 2G)", kExitUsage);
  }
  request.memory_bytes = bytes;
  if (!args.disk.empty()) {
    if (!ParseSize(args.disk, &bytes) || bytes == 0) {
      return ReportError(kPlanCommand, "--disk '" + args.disk + "' is not a size (e.g. 512M, 20G, 1T)", kExitUsage);
    }
    request.disk_bytes = bytes;
  }
  request.block_size = args.block_size;
  request.codec = args.codec;
  Plan plan;
  Status s = PlanIndex(request, &plan);
  if (!s.ok()) return ReportError(kPlanCommand, s);
  const std::string text = args.json ? PlanJson(request, plan) : PlanText(request, plan, args);
  if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0) {
    return ReportError(kPlanCommand, "error writing standard output");
  }
  return 0;
}

}  // namespace

void AddPlanCommand(CLI::App& app, CommandRunner* run) {
  auto args = std::make_shared<PlanArgs>();
  CLI::App* sub = app.add_subcommand("plan", "Choose a scheme, block size and codec for N entries, and say why");
  sub->add_option("n", args->n, "entries the index will hold, e.g. 1000000 or 1e7")->required();
  sub->add_option("--k", args->k, "the largest distance queries will ask for")->check(CLI::Range(0, 15))->capture_default_str();
  sub->add_option("--memory", args->memory, "the build's memory budget (simdex build --memory)")->capture_default_str();
  sub->add_option("--disk", args->disk, "bound on the build's peak disk: the index and its scratch files");
  sub->add_option("--block-size", args->block_size, "keep this block size (bytes)");
  sub->add_option("--codec", args->codec, "keep this codec: card, ef or auto");
  sub->add_flag("--json", args->json, "one JSON object instead of text");
  sub->callback([args, run] { *run = [args] { return RunPlan(*args); }; });
}

}  // namespace simdex::tools
