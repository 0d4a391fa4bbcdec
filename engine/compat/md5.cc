// MD5 as specified in RFC 1321 section 3:
//   3.1/3.2 pad the message with one 0x80 byte and zeros to 56 mod 64 bytes,
//           then append its length in bits as a 64-bit little-endian number;
//   3.3     start from A, B, C, D = 67452301 efcdab89 98badcfe 10325476;
//   3.4     run the four 16-step rounds over each 64-byte block;
//   3.5     output A, B, C, D as little-endian words.
// The message is never copied: whole blocks are read where they lie and only
// the padded tail (one or two blocks) is built on the stack, which keeps the
// hash of a short feature (one block) cheap.
#include "engine/compat/md5.h"

#include <bit>
#include <cstring>

namespace simdex::compat {
namespace {

// T[i] = floor(2^32 * |sin(i + 1)|), the table of RFC 1321 section 3.4.
constexpr uint32_t kT[64] = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee,
    0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be,
    0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa,
    0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed,
    0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c,
    0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05,
    0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039,
    0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1,
    0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
};

uint32_t LoadLe32(const uint8_t* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

void StoreLe32(uint32_t v, uint8_t* p) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

// The auxiliary functions of section 3.4.
uint32_t F(uint32_t x, uint32_t y, uint32_t z) { return (x & y) | (~x & z); }
uint32_t G(uint32_t x, uint32_t y, uint32_t z) { return (x & z) | (y & ~z); }
uint32_t H(uint32_t x, uint32_t y, uint32_t z) { return x ^ y ^ z; }
uint32_t I(uint32_t x, uint32_t y, uint32_t z) { return y ^ (x | ~z); }

// s of the RFC's operations, by round and by step within a group of four.
constexpr int kS[4][4] = {{7, 12, 17, 22}, {5, 9, 14, 20}, {4, 11, 16, 23}, {6, 10, 15, 21}};

void Transform(uint32_t state[4], const uint8_t* block) {
  uint32_t x[16];
  for (int k = 0; k < 16; ++k) x[k] = LoadLe32(block + 4 * k);
  uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
  // The RFC's 64 operations [abcd k s i]: a = b + ((a + fn(b,c,d) + X[k] +
  // T[i]) <<< s), the roles of a, b, c and d rotating by one each step; round
  // r uses F, G, H, I and k = i, 5i + 1, 3i + 5, 7i (mod 16). Unrolled, so
  // that every k, s and T[i] is a constant the compiler can fold in.
#pragma GCC unroll 64
  for (int i = 0; i < 64; ++i) {
    const int round = i / 16;
    const uint32_t f = round == 0 ? F(b, c, d) : round == 1 ? G(b, c, d) : round == 2 ? H(b, c, d) : I(b, c, d);
    const int k = round == 0 ? i : round == 1 ? (5 * i + 1) % 16 : round == 2 ? (3 * i + 5) % 16 : (7 * i) % 16;
    const uint32_t next = b + std::rotl(a + f + x[k] + kT[i], kS[round][i % 4]);
    a = d;
    d = c;
    c = b;
    b = next;
  }

  state[0] += a;
  state[1] += b;
  state[2] += c;
  state[3] += d;
}

}  // namespace

Md5Digest Md5(std::string_view data) {
  uint32_t state[4] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};
  const auto* p = reinterpret_cast<const uint8_t*>(data.data());
  const size_t n = data.size();
  size_t done = 0;
  for (; n - done >= 64; done += 64) Transform(state, p + done);

  // The tail, 0x80, zeros and the 64-bit bit count fill one block when the
  // tail is at most 55 bytes and two otherwise.
  uint8_t tail[128] = {};
  const size_t rest = n - done;
  if (rest > 0) std::memcpy(tail, p + done, rest);
  tail[rest] = 0x80;
  const size_t tail_len = rest <= 55 ? 64 : 128;
  const uint64_t bits = static_cast<uint64_t>(n) * 8;
  StoreLe32(static_cast<uint32_t>(bits), tail + tail_len - 8);
  StoreLe32(static_cast<uint32_t>(bits >> 32), tail + tail_len - 4);
  Transform(state, tail);
  if (tail_len == 128) Transform(state, tail + 64);

  Md5Digest digest;
  for (int i = 0; i < 4; ++i) StoreLe32(state[i], digest.data() + 4 * i);
  return digest;
}

}  // namespace simdex::compat
