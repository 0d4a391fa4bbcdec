// Writes the MSB-first bit stream described in bit_writer.h.
#include "format/bit_writer.h"

#include <cassert>

namespace simdex::format {

void BitWriter::Write(uint64_t value, int nbits) {
  assert(nbits >= 0 && nbits <= 64);
  assert(nbits == 64 || (value >> nbits) == 0);
  if (nbits == 0) return;
  const int room = 64 - pending_bits_;  // 1..64
  if (nbits < room) {
    pending_ |= value << (room - nbits);
    pending_bits_ += nbits;
    return;
  }
  // The value fills the word: its top `room` bits complete it, the rest
  // (0..63 bits) start the next one.
  const int rest = nbits - room;
  pending_ |= value >> rest;
  FlushWord();
  pending_ = rest == 0 ? 0 : value << (64 - rest);
  pending_bits_ = rest;
}

void BitWriter::FlushWord() {
  char buf[8];
  for (int i = 0; i < 8; ++i) buf[i] = static_cast<char>(pending_ >> (56 - 8 * i));
  dst_->append(buf, sizeof(buf));
  bits_flushed_ += 64;
}

void BitWriter::Finish() {
  const int nbytes = (pending_bits_ + 7) / 8;
  for (int i = 0; i < nbytes; ++i) dst_->push_back(static_cast<char>(pending_ >> (56 - 8 * i)));
  pending_ = 0;
  pending_bits_ = 0;
  bits_flushed_ = 0;
}

}  // namespace simdex::format
