#include "tests/compat/python_vectors.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

namespace simdex::compat {
namespace {

std::vector<std::string> SplitTabs(const std::string& line) {
  std::vector<std::string> fields;
  std::istringstream in(line);
  std::string field;
  while (std::getline(in, field, '\t')) fields.push_back(field);
  return fields;
}

bool DecodeHex(const std::string& hex, std::string* out) {
  if (hex.size() % 2 != 0) return false;
  out->clear();
  for (size_t i = 0; i < hex.size(); i += 2) {
    unsigned byte = 0;
    if (std::sscanf(hex.c_str() + i, "%2x", &byte) != 1) return false;
    out->push_back(static_cast<char>(byte));
  }
  return true;
}

}  // namespace

std::vector<PythonVector> LoadPythonVectors() {
  const std::string path = std::string(SIMDEX_SOURCE_DIR) + "/tests/compat/python_simhash_vectors.tsv";
  std::ifstream in(path);
  if (!in) {
    ADD_FAILURE() << "cannot open " << path;
    return {};
  }
  std::vector<PythonVector> rows;
  std::string line;
  for (int line_no = 1; std::getline(in, line); ++line_no) {
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> f = SplitTabs(line);
    PythonVector v;
    if (f.size() != 5 || !DecodeHex(f[3], &v.utf8)) {
      ADD_FAILURE() << path << ":" << line_no << ": malformed row";
      return {};
    }
    v.label = f[0];
    if (f[1] != "empty") v.value = std::stoull(f[1]);
    v.substitutions = static_cast<uint32_t>(std::stoul(f[2]));
    rows.push_back(v);
  }
  return rows;
}

}  // namespace simdex::compat
