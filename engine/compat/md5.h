// MD5 message digest (RFC 1321), written from the RFC for the python-simhash
// compatibility profile, whose feature hash is MD5. It is here only to
// reproduce another program's values: MD5 is broken as a cryptographic hash
// and nothing in simdex relies on it for security.
#ifndef SIMDEX_ENGINE_COMPAT_MD5_H_
#define SIMDEX_ENGINE_COMPAT_MD5_H_

#include <array>
#include <cstdint>
#include <string_view>

namespace simdex::compat {

using Md5Digest = std::array<uint8_t, 16>;

// Returns the 16-byte MD5 digest of the bytes of `data`, in the RFC's output
// order (byte 0 is the first two of the 32 hex digits md5sum prints).
// Any length is accepted, including zero. Stateless and thread-safe.
Md5Digest Md5(std::string_view data);

}  // namespace simdex::compat

#endif  // SIMDEX_ENGINE_COMPAT_MD5_H_
