/* The checks of the C interface's test programs: CHECK counts a failure in
 * `failures` and goes on; REQUIRE stops the test, since later checks would
 * only repeat the same failure. Each program includes this once. */
#ifndef SIMDEX_TESTS_CAPI_CHECK_H_
#define SIMDEX_TESTS_CAPI_CHECK_H_

#include <stdio.h>
#include <stdlib.h>

static int failures = 0;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

#define REQUIRE(cond)                                                                \
  do {                                                                               \
    if (!(cond)) {                                                                   \
      fprintf(stderr, "%s:%d: requirement failed: %s\n", __FILE__, __LINE__, #cond); \
      exit(1);                                                                       \
    }                                                                                \
  } while (0)

/* main's return value: 1 after saying how many checks failed, else 0
 * after saying that `program` passed them all. */
static inline int finish(const char* program) {
  if (failures > 0) {
    fprintf(stderr, "%s: %d checks failed\n", program, failures);
    return 1;
  }
  printf("%s: every check passed\n", program);
  return 0;
}

#endif /* SIMDEX_TESTS_CAPI_CHECK_H_ */
