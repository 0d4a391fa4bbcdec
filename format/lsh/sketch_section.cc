// Encodes and decodes the sketches of the sketch section
// (format/lsh/sketch_section.h).
#include "format/lsh/sketch_section.h"

#include "format/coding.h"

namespace simdex::format {

namespace {
constexpr const char* kBadVarint = "sketch varint runs past its bytes or past 32 bits";
}  // namespace

void PutVarint32(std::string* dst, uint32_t v) {
  while (v >= 0x80) {
    dst->push_back(static_cast<char>(v | 0x80));
    v >>= 7;
  }
  dst->push_back(static_cast<char>(v));
}

bool GetVarint32(const uint8_t** p, const uint8_t* limit, uint32_t* v) {
  uint64_t result = 0;
  for (int shift = 0; shift <= 28 && *p < limit; shift += 7) {
    const uint8_t byte = *(*p)++;
    result |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) {
      if (result > 0xFFFFFFFFu) return false;
      *v = static_cast<uint32_t>(result);
      return true;
    }
  }
  return false;
}

void EncodeSketch(std::span<const uint32_t> hashes, bool truncated, std::string* dst) {
  PutVarint32(dst, static_cast<uint32_t>(hashes.size() * 2 + (truncated ? 1 : 0)));
  uint32_t last = 0;
  for (size_t i = 0; i < hashes.size(); ++i) {
    PutVarint32(dst, i == 0 ? hashes[i] : hashes[i] - last);
    last = hashes[i];
  }
}

Status DecodeSketch(const uint8_t* ptr, const uint8_t* limit, uint32_t k, std::vector<uint32_t>* hashes,
                    bool* truncated) {
  hashes->clear();
  uint32_t h = 0;
  if (!GetVarint32(&ptr, limit, &h)) return Status::Corruption(kBadVarint);
  const uint32_t count = h >> 1;
  *truncated = (h & 1) != 0;
  if (count > k || (*truncated && count != k)) {
    return Status::Corruption("sketch of " + std::to_string(count) + (*truncated ? " hashes, cut," : " hashes") +
                              " for k = " + std::to_string(k));
  }
  // Each hash takes at least a byte: a count the bytes cannot hold is
  // refused before anything is reserved.
  if (count > static_cast<uint64_t>(limit - ptr)) return Status::Corruption("truncated sketch");
  hashes->reserve(count);
  uint64_t value = 0;
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t v = 0;
    if (!GetVarint32(&ptr, limit, &v)) return Status::Corruption(kBadVarint);
    if (i > 0 && v == 0) return Status::Corruption("sketch hashes not increasing");
    value = i == 0 ? v : value + v;
    if (value > 0xFFFFFFFFu) return Status::Corruption("sketch hash passes 2^32 - 1");
    hashes->push_back(static_cast<uint32_t>(value));
  }
  if (ptr != limit) return Status::Corruption("sketch has trailing bytes");
  return Status::OK();
}

Status SketchBytes(const uint8_t* section, uint64_t length, uint64_t n, int w, uint64_t d, const uint8_t** begin,
                   const uint8_t** end) {
  const uint64_t data_at = (n + 1) * static_cast<uint64_t>(w);
  const uint8_t* at = section + d * static_cast<uint64_t>(w);
  const uint64_t lo = w == 4 ? DecodeFixed32(at) : DecodeFixed64(at);
  const uint64_t hi = w == 4 ? DecodeFixed32(at + w) : DecodeFixed64(at + w);
  const uint64_t data_bytes = length - data_at;
  if (lo > hi || hi > data_bytes) {
    return Status::Corruption("sketch section: document " + std::to_string(d) + ": offsets " + std::to_string(lo) +
                              ".." + std::to_string(hi) + " outside its " + std::to_string(data_bytes) +
                              " bytes of sketches");
  }
  *begin = section + data_at + lo;
  *end = section + data_at + hi;
  return Status::OK();
}

}  // namespace simdex::format
