/* String ids through the C interface, compiled as C11.
 * Usage: capi_string_ids_test STRING_INDEX STRING_FINGERPRINTS NUMERIC_INDEX
 *   STRING_INDEX         built from STRING_FINGERPRINTS (by the CTest fixture)
 *   STRING_FINGERPRINTS  "<string id>\t<16 hex>" lines
 *   NUMERIC_INDEX        an index of numeric ids
 * Checks that every id of the file is found, that its number gives the same
 * string back and that an exact search of its fingerprint reports that
 * number; that the map is sorted bytewise and ends where id_string says; and
 * the errors for ids no entry has, for numbers past the map, for NULL
 * arguments and for an index of numeric ids. Exits 0 when every check
 * passes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simdex/simdex_c.h"
#include "check.h"

static simdex_index* open_index(const char* path) {
  simdex_index* idx = NULL;
  char* err = NULL;
  simdex_code rc = simdex_index_open(path, 1, &idx, &err);
  if (rc != SIMDEX_OK) {
    fprintf(stderr, "open %s: %s: %s\n", path, simdex_code_name(rc), err ? err : "");
    exit(1);
  }
  return idx;
}

/* Compares two byte strings as the id map orders them: bytewise, a prefix
 * first. */
static int compare_bytes(const char* a, size_t na, const char* b, size_t nb) {
  int c = memcmp(a, b, na < nb ? na : nb);
  if (c != 0) return c;
  return na < nb ? -1 : na > nb ? 1 : 0;
}

static const char kProfileLine[] = "#simdex-profile\t";

/* The index records the profile of the file's first line (docs/fingerprint.md,
 * "Profiles"); an index built without one records none. */
static void check_profile(simdex_index* idx, const char* path, simdex_index* unrecorded) {
  FILE* f = fopen(path, "r");
  REQUIRE(f != NULL);
  char line[8192];
  REQUIRE(fgets(line, sizeof(line), f) != NULL);
  fclose(f);
  REQUIRE(strncmp(line, kProfileLine, strlen(kProfileLine)) == 0);
  line[strcspn(line, "\n")] = '\0';
  char* profile = simdex_index_profile(idx);
  CHECK(profile != NULL && strcmp(profile, line + strlen(kProfileLine)) == 0);
  simdex_free_string(profile);
  CHECK(simdex_index_profile(unrecorded) == NULL);
  CHECK(simdex_index_profile(NULL) == NULL);
}

/* Every id of the file: found, its string given back, its number reported by
 * an exact search of its fingerprint. Returns how many lines were checked. */
static size_t check_every_id(simdex_index* idx, const char* path) {
  FILE* f = fopen(path, "r");
  REQUIRE(f != NULL);
  char line[8192];
  size_t n = 0;
  simdex_match m[64];
  while (fgets(line, sizeof(line), f) != NULL) {
    if (n == 0 && strncmp(line, kProfileLine, strlen(kProfileLine)) == 0) continue;
    char* tab = strchr(line, '\t');
    REQUIRE(tab != NULL);
    const size_t len = (size_t)(tab - line);
    const uint64_t fp = strtoull(tab + 1, NULL, 16);
    uint64_t number = UINT64_MAX;
    char* err = (char*)"untouched";
    CHECK(simdex_index_find_id(idx, line, len, &number, &err) == SIMDEX_OK);
    CHECK(err == NULL);
    const char* data = NULL;
    size_t size = 0;
    CHECK(simdex_index_id_string(idx, number, &data, &size, NULL) == SIMDEX_OK);
    CHECK(size == len && data != NULL && memcmp(data, line, len) == 0);
    size_t count = 0;
    CHECK(simdex_index_search(idx, fp, 0, m, 64, &count, NULL) == SIMDEX_OK);
    int reported = 0;
    for (size_t i = 0; i < count && i < 64; ++i) reported |= m[i].id == number && m[i].fingerprint == fp;
    CHECK(reported);
    ++n;
  }
  fclose(f);
  return n;
}

/* The map's strings in increasing bytewise order; the first number past the
 * map is InvalidArgument. Returns the map's size. */
static uint64_t check_map_order(simdex_index* idx) {
  const char* prev = NULL;
  size_t prev_size = 0;
  uint64_t number = 0;
  for (;; ++number) {
    const char* data = NULL;
    size_t size = 0;
    char* err = NULL;
    simdex_code rc = simdex_index_id_string(idx, number, &data, &size, &err);
    if (rc != SIMDEX_OK) {
      CHECK(rc == SIMDEX_INVALID_ARGUMENT);
      CHECK(err != NULL && strstr(err, "is not a number of the id map") != NULL);
      CHECK(data == NULL && size == 0);
      simdex_free_string(err);
      break;
    }
    CHECK(size >= 1 && size <= 4096);
    if (prev != NULL) CHECK(compare_bytes(prev, prev_size, data, size) < 0);
    prev = data;
    prev_size = size;
  }
  return number;
}

static void check_errors(simdex_index* strings, simdex_index* numbers) {
  uint64_t number = 7;
  char* err = NULL;
  CHECK(simdex_index_find_id(strings, "https://nowhere.example/", 24, &number, &err) == SIMDEX_NOT_FOUND);
  CHECK(err != NULL && strstr(err, "no entry has the id") != NULL);
  CHECK(number == 0);
  simdex_free_string(err);
  CHECK(simdex_index_find_id(strings, NULL, 0, &number, NULL) == SIMDEX_NOT_FOUND);
  CHECK(simdex_index_find_id(strings, NULL, 3, &number, NULL) == SIMDEX_INVALID_ARGUMENT);
  CHECK(simdex_index_find_id(strings, "x", 1, NULL, NULL) == SIMDEX_INVALID_ARGUMENT);
  CHECK(simdex_index_find_id(NULL, "x", 1, &number, NULL) == SIMDEX_INVALID_ARGUMENT);
  const char* data = "untouched";
  size_t size = 9;
  CHECK(simdex_index_id_string(strings, 0, NULL, &size, NULL) == SIMDEX_INVALID_ARGUMENT);
  CHECK(size == 0);
  CHECK(simdex_index_id_string(NULL, 0, &data, &size, NULL) == SIMDEX_INVALID_ARGUMENT);
  CHECK(data == NULL);

  CHECK(simdex_index_has_string_ids(strings) == 1);
  CHECK(simdex_index_has_string_ids(numbers) == 0);
  CHECK(simdex_index_has_string_ids(NULL) == 0);
  err = NULL;
  CHECK(simdex_index_id_string(numbers, 0, &data, &size, &err) == SIMDEX_INVALID_ARGUMENT);
  CHECK(err != NULL && strstr(err, "numeric ids") != NULL);
  simdex_free_string(err);
  err = NULL;
  CHECK(simdex_index_find_id(numbers, "1", 1, &number, &err) == SIMDEX_INVALID_ARGUMENT);
  CHECK(err != NULL && strstr(err, "numeric ids") != NULL);
  simdex_free_string(err);
}

int main(int argc, char** argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s STRING_INDEX STRING_FINGERPRINTS NUMERIC_INDEX\n", argv[0]);
    return 2;
  }
  simdex_index* strings = open_index(argv[1]);
  simdex_index* numbers = open_index(argv[3]);
  const size_t lines = check_every_id(strings, argv[2]);
  const uint64_t map_size = check_map_order(strings);
  CHECK(lines > 0 && map_size == lines); /* the file's ids are distinct */
  check_errors(strings, numbers);
  check_profile(strings, argv[2], numbers);
  simdex_index_close(strings);
  simdex_index_close(numbers);
  if (failures > 0) {
    fprintf(stderr, "%d checks failed\n", failures);
    return 1;
  }
  printf("all checks passed: %zu string ids\n", lines);
  return 0;
}
