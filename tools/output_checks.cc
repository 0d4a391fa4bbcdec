#include "tools/output_checks.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <optional>

namespace simdex::tools {

namespace {

// What a path names, for comparing: the file's identity when it exists, else
// its absolute normalized name.
struct Identity {
  bool exists = false;
  bool character_device = false;
  dev_t device = 0;
  ino_t inode = 0;
  std::string name;

  bool operator==(const Identity& o) const {
    if (exists != o.exists) return false;
    return exists ? device == o.device && inode == o.inode : name == o.name;
  }
};

Identity IdentityOf(const std::string& path) {
  Identity id;
  struct stat st;
  const bool ok = path == "-" ? ::fstat(STDIN_FILENO, &st) == 0 : ::stat(path.c_str(), &st) == 0;
  if (ok) {
    id.exists = true;
    id.character_device = S_ISCHR(st.st_mode);
    id.device = st.st_dev;
    id.inode = st.st_ino;
    return id;
  }
  std::error_code ec;
  id.name = std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec), ec).string();
  if (ec) id.name = path;
  return id;
}

bool Unchecked(const std::string& path) { return path.empty() || path == "-"; }

}  // namespace

Status CheckOutputsAreNotInputs(const std::vector<OutputPath>& outputs, const std::vector<std::string>& inputs) {
  std::vector<std::optional<Identity>> inputs_seen(inputs.size());
  for (size_t o = 0; o < outputs.size(); ++o) {
    const OutputPath& out = outputs[o];
    if (Unchecked(out.path)) continue;
    const Identity id = IdentityOf(out.path);
    if (id.character_device) continue;
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (inputs[i].empty()) continue;
      if (!inputs_seen[i]) inputs_seen[i] = IdentityOf(inputs[i]);
      // A missing input is reported by its reader; only files that exist can be destroyed.
      if (!inputs_seen[i]->exists || !(*inputs_seen[i] == id)) continue;
      const std::string input = inputs[i] == "-" ? "standard input" : "the input " + inputs[i];
      return Status::InvalidArgument(out.option + " " + out.path + " is " + input +
                                     ": writing it would destroy the input");
    }
    for (size_t p = 0; p < o; ++p) {
      if (Unchecked(outputs[p].path) || !(IdentityOf(outputs[p].path) == id)) continue;
      return Status::InvalidArgument(out.option + " " + out.path + " and " + outputs[p].option + " " +
                                     outputs[p].path + " are the same file: one output would replace the other");
    }
  }
  return Status::OK();
}

std::string ScratchDirFor(const std::string& output, const std::string& tmpdir) {
  if (!tmpdir.empty()) return tmpdir;
  struct stat st;
  if (Unchecked(output) || ::stat(output.c_str(), &st) != 0 || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) {
    return "";
  }
  const char* env = std::getenv("TMPDIR");
  return env != nullptr && *env != '\0' ? env : "/tmp";
}

}  // namespace simdex::tools
