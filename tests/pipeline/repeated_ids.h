// The rule both batch methods keep for ids (include/simdex/batch.h): a
// batch in which two documents share an id is refused, naming both places,
// unless allow_duplicate_ids keeps every document.
#ifndef SIMDEX_TESTS_PIPELINE_REPEATED_IDS_H_
#define SIMDEX_TESTS_PIPELINE_REPEATED_IDS_H_

#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <string>

#include "simdex/batch.h"

namespace simdex::testing {

// Writes three documents, the first and third with id "a", to `path` and
// checks the refusal, then the run that allows it (whose result is returned,
// or null when it failed). `dedup(files, options, &result)` runs the method.
template <typename Options, typename Result, typename Dedup>
std::unique_ptr<Result> ExpectRepeatedIdRefusedUnlessAllowed(const std::string& path, Dedup dedup) {
  std::ofstream(path) << "{\"id\":\"a\",\"text\":\"x y z\"}\n{\"id\":\"b\",\"text\":\"u v\"}\n{\"id\":\"a\",\"text\":\"w\"}\n";
  DocumentFiles files;
  files.paths = {path};
  Options o;
  std::unique_ptr<Result> r;
  EXPECT_EQ(dedup(files, o, &r).message(), path + ":3: duplicate id 'a' (first at " + path +
                                                ":1); ids must be unique (allow_duplicate_ids keeps every document)");
  o.allow_duplicate_ids = true;
  r.reset();
  const Status s = dedup(files, o, &r);
  EXPECT_TRUE(s.ok()) << s.ToString();
  if (!s.ok()) return nullptr;
  EXPECT_EQ(r->IdString(2), "a");
  return r;
}

}  // namespace simdex::testing

#endif  // SIMDEX_TESTS_PIPELINE_REPEATED_IDS_H_
