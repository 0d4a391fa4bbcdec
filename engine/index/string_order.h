// OrderOfStrings: the order that sorts n strings bytewise, computed on
// 8-byte pieces of them rather than by comparing strings through pointers.
// The pieces (bytes [d, d + 8) of each, zero-padded, big-endian, with d the
// group's common prefix) are sorted with the strings' indexes as 16-byte
// records; a group that ties on its piece is ordered on the next piece, and
// a group whose strings all end within the piece by comparing them. Ids that
// share long prefixes (URLs) then cost a sort of integers, not a memcmp
// chasing two pointers per comparison.
#ifndef SIMDEX_ENGINE_INDEX_STRING_ORDER_H_
#define SIMDEX_ENGINE_INDEX_STRING_ORDER_H_

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

namespace simdex::index {

// Indexes 0..n-1 ordered so that at(order[i]) <= at(order[i + 1]) bytewise;
// equal strings in index order.
std::vector<uint64_t> OrderOfStrings(uint64_t n, const std::function<std::string_view(uint64_t)>& at);

}  // namespace simdex::index

#endif  // SIMDEX_ENGINE_INDEX_STRING_ORDER_H_
