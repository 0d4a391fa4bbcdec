/* simdex_index_file_*: one handle for an index file of either kind, opened
 * by the kind its header records; its kind, size, verify summary, inspect
 * JSON and preload, and the errors of a missing file and NULL arguments.
 * Usage: capi_index_file_test SIMHASH_INDEX LSH_INDEX */
#include <stdio.h>
#include <string.h>

#include "simdex/simdex_c.h"
#include "check.h"

static int starts_with(const char* s, const char* prefix) {
  return s != NULL && strncmp(s, prefix, strlen(prefix)) == 0;
}

static void check_file(const char* path, int kind, const char* summary_part, const char* json_prefix) {
  simdex_index_file* file = NULL;
  char* err = NULL;
  REQUIRE(simdex_index_file_open(path, 1, &file, &err) == SIMDEX_OK && file != NULL && err == NULL);
  CHECK(simdex_index_file_kind(file) == kind);
  CHECK(simdex_index_file_records(file) > 0);
  char* summary = NULL;
  CHECK(simdex_index_file_verify(file, &summary, &err) == SIMDEX_OK);
  CHECK(summary != NULL && strstr(summary, summary_part) != NULL);
  simdex_free_string(summary);
  char* json = NULL;
  CHECK(simdex_index_file_inspect(file, &json, &err) == SIMDEX_OK);
  CHECK(starts_with(json, json_prefix));
  simdex_free_string(json);
  int locked = 7;
  CHECK(simdex_index_file_preload(file, 0, &locked, &err) == SIMDEX_OK && locked == 0);
  simdex_index_file_close(file);
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: capi_index_file_test SIMHASH_INDEX LSH_INDEX\n");
    return 2;
  }
  check_file(argv[1], SIMDEX_KIND_SIMHASH, " entries, ", "{\n  \"entries\": ");
  check_file(argv[2], SIMDEX_KIND_MINHASH_LSH, " documents, 8 band tables", "{\n  \"kind\": \"minhash-lsh\",\n  \"documents\": ");

  simdex_index_file* file = (simdex_index_file*)1;
  char* err = NULL;
  CHECK(simdex_index_file_open("/nonexistent/x.sdx", 0, &file, &err) == SIMDEX_IO_ERROR && file == NULL);
  CHECK(err != NULL && strstr(err, "/nonexistent/x.sdx") != NULL);
  simdex_free_string(err);
  CHECK(simdex_index_file_open(NULL, 0, &file, NULL) == SIMDEX_INVALID_ARGUMENT);
  CHECK(simdex_index_file_inspect(NULL, NULL, NULL) == SIMDEX_INVALID_ARGUMENT);
  simdex_index_file_close(NULL);
  return finish("capi_index_file_test");
}
