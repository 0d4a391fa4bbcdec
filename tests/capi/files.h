/* Files for the C interface's test programs: whole files, their lines, and
 * paths in a directory. Each program includes this once, after check.h. */
#ifndef SIMDEX_TESTS_CAPI_FILES_H_
#define SIMDEX_TESTS_CAPI_FILES_H_

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* dir/name in a static buffer of each of `slot` 0..3. */
static inline const char* path_in(const char* dir, const char* name, int slot) {
  static char buffers[4][4096];
  REQUIRE(slot >= 0 && slot < 4);
  REQUIRE(snprintf(buffers[slot], sizeof(buffers[slot]), "%s/%s", dir, name) < (int)sizeof(buffers[slot]));
  return buffers[slot];
}

/* The whole file, NUL-terminated, in a malloc'ed buffer; *size its bytes. */
static inline char* read_file(const char* path, size_t* size) {
  FILE* f = fopen(path, "rb");
  if (f == NULL) fprintf(stderr, "cannot open %s\n", path);
  REQUIRE(f != NULL);
  size_t cap = 1 << 16, n = 0;
  char* data = malloc(cap + 1);
  REQUIRE(data != NULL);
  for (size_t got; (got = fread(data + n, 1, cap - n, f)) > 0;) {
    n += got;
    if (n == cap) {
      cap *= 2;
      data = realloc(data, cap + 1);
      REQUIRE(data != NULL);
    }
  }
  fclose(f);
  data[n] = '\0';
  *size = n;
  return data;
}

/* 1 when the two files hold the same bytes; says where they part if not. */
static inline int same_file(const char* a, const char* b) {
  size_t na, nb;
  char* x = read_file(a, &na);
  char* y = read_file(b, &nb);
  size_t i = 0;
  while (i < na && i < nb && x[i] == y[i]) ++i;
  const int same = na == nb && i == na;
  if (!same) fprintf(stderr, "%s and %s differ at byte %zu (sizes %zu, %zu)\n", a, b, i, na, nb);
  free(x);
  free(y);
  return same;
}

/* The lines of a file (without their '\n'), pointers into one buffer that
 * *buffer owns; *count of them. A last line without '\n' counts. */
static inline char** read_lines(const char* path, size_t* count, char** buffer) {
  size_t size;
  char* data = read_file(path, &size);
  size_t n = 0;
  for (size_t i = 0; i < size; ++i) n += data[i] == '\n';
  if (size > 0 && data[size - 1] != '\n') ++n;
  char** lines = malloc((n + 1) * sizeof(char*));
  REQUIRE(lines != NULL);
  size_t at = 0;
  for (char* p = data; at < n; ++at) {
    lines[at] = p;
    char* end = strchr(p, '\n');
    if (end == NULL) break;
    *end = '\0';
    p = end + 1;
  }
  *count = n;
  *buffer = data;
  return lines;
}

#endif /* SIMDEX_TESTS_CAPI_FILES_H_ */
