/* A C program as another service would write it, built out of tree against an
 * installed simdex with `pkg-config --cflags --libs simdex` (tests/package/
 * consumers_test.sh). Usage: consumer INDEX HEX...; prints one line per
 * match, "<query> <id> <fingerprint> <distance>", in the library's order.
 * consumer --lsh INDEX: opens a MinHash-LSH index (after checking its kind)
 * and prints "<documents> <num_perm> <bands> <rows>", as `simdex inspect`
 * says them. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simdex/simdex_c.h>

static int PrintLsh(const char* path) {
  int kind;
  char* err;
  if (simdex_index_kind(path, &kind, &err) != SIMDEX_OK || kind != SIMDEX_KIND_MINHASH_LSH) {
    fprintf(stderr, "consumer: %s is not a MinHash-LSH index\n", path);
    return 1;
  }
  simdex_lsh_index* idx;
  if (simdex_lsh_index_open(path, 0, &idx, &err) != SIMDEX_OK) {
    fprintf(stderr, "consumer: %s\n", err);
    simdex_free_string(err);
    return 1;
  }
  simdex_lsh_index_info info;
  if (simdex_lsh_index_stats(idx, &info) != SIMDEX_OK) return 1;
  printf("%" PRIu64 " %d %d %d\n", info.documents, (int)info.num_perm, (int)info.bands, (int)info.rows);
  simdex_lsh_index_close(idx);
  return 0;
}

int main(int argc, char** argv) {
  if (argc == 3 && strcmp(argv[1], "--lsh") == 0) return PrintLsh(argv[2]);
  if (argc < 2) {
    fprintf(stderr, "usage: consumer INDEX HEX...\n");
    return 2;
  }
  simdex_index* idx;
  char* err;
  if (simdex_index_open(argv[1], 0, &idx, &err) != SIMDEX_OK) {
    fprintf(stderr, "consumer: %s\n", err);
    simdex_free_string(err);
    return 1;
  }
  simdex_index_info info;
  if (simdex_index_stats(idx, &info) != SIMDEX_OK) return 1;
  for (int i = 2; i < argc; ++i) {
    const uint64_t query = strtoull(argv[i], NULL, 16);
    simdex_match matches[256];
    size_t n;
    if (simdex_index_search(idx, query, info.k, matches, 256, &n, &err) != SIMDEX_OK) {
      fprintf(stderr, "consumer: %s\n", err);
      simdex_free_string(err);
      return 1;
    }
    for (size_t j = 0; j < n && j < 256; ++j) {
      printf("%016" PRIx64 " %" PRIu64 " %016" PRIx64 " %d\n", query, matches[j].id, matches[j].fingerprint,
             (int)matches[j].distance);
    }
  }
  simdex_index_close(idx);
  return 0;
}
