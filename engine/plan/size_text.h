// Byte counts for people: "812 B", "4 KiB", "31.5 MiB", "2.31 GiB" (binary
// units; whole ones as they are, others to three significant digits), as
// the planner's reasons and `simdex plan` print them.
#ifndef SIMDEX_ENGINE_PLAN_SIZE_TEXT_H_
#define SIMDEX_ENGINE_PLAN_SIZE_TEXT_H_

#include <cstdint>
#include <string>

namespace simdex::plan {

std::string SizeText(uint64_t bytes);

}  // namespace simdex::plan

#endif  // SIMDEX_ENGINE_PLAN_SIZE_TEXT_H_
