// ByteBudget: the bytes the HTTP server may hold for its connections, all
// of them together: read buffers, request headers and bodies, responses
// waiting to be written (HttpServerOptions::max_buffered_bytes).
//
// A connection holds a ByteCharge: what it has taken from the budget. It
// takes more before it allocates (a read buffer that grows, a body of a
// known length, a chunked body at its limit) and is refused when the budget
// has not that much left; the server then answers 503 and closes the
// connection. What it already holds (a response built, a request's header
// copied from its read buffer) and its first read buffer it takes past the
// limit (Force), which makes the next requests wait instead: the budget's
// use stays under its limit plus, per connection, 16 KiB and a response.
//
// BudgetedBuffer: a read buffer for Beast (a DynamicBuffer, as
// beast::flat_buffer) whose growth is taken from a connection's charge; a
// refused growth makes Beast's read fail with error::buffer_overflow.
//
// Thread safety: ByteBudget is safe to share between threads. ByteCharge
// and BudgetedBuffer belong to one connection (its strand).
#ifndef SIMDEX_ENGINE_SERVICE_BYTE_BUDGET_H_
#define SIMDEX_ENGINE_SERVICE_BYTE_BUDGET_H_

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <memory>

#include <boost/asio/buffer.hpp>

namespace simdex::service {

class ByteBudget {
 public:
  explicit ByteBudget(size_t limit) : limit_(limit) {}
  ByteBudget(const ByteBudget&) = delete;
  ByteBudget& operator=(const ByteBudget&) = delete;

  // Takes n bytes if they fit under the limit; false (nothing taken) if not.
  bool TryTake(size_t n);
  // Takes n bytes whatever the limit.
  void Force(size_t n) { used_.fetch_add(n, std::memory_order_relaxed); }
  void Give(size_t n) { used_.fetch_sub(n, std::memory_order_relaxed); }

  size_t limit() const { return limit_; }
  size_t used() const { return used_.load(std::memory_order_relaxed); }

 private:
  const size_t limit_;
  std::atomic<size_t> used_{0};
};

// What one connection holds of a ByteBudget; gives it all back when
// destroyed.
class ByteCharge {
 public:
  explicit ByteCharge(ByteBudget* budget) : budget_(budget) {}
  ~ByteCharge() { budget_->Give(held_); }
  ByteCharge(const ByteCharge&) = delete;
  ByteCharge& operator=(const ByteCharge&) = delete;

  // Takes n more bytes if the budget has them.
  bool TryTake(size_t n);
  // Takes n more bytes whatever the limit.
  void Force(size_t n);
  // Gives back n bytes. REQUIRES: n bytes held.
  void Give(size_t n);

 private:
  ByteBudget* budget_;
  size_t held_ = 0;
};

// A contiguous read buffer whose capacity is charged to a ByteCharge.
// Meets Boost.Asio's DynamicBuffer (v1) requirements, as flat_buffer does:
// data() the readable bytes, prepare(n) room for n more (grown to twice
// the size, at most max_size(); std::length_error when over max_size() or
// when the charge is refused), commit(n), consume(n).
class BudgetedBuffer {
 public:
  using const_buffers_type = boost::asio::const_buffer;
  using mutable_buffers_type = boost::asio::mutable_buffer;

  // REQUIRES: charge outlives the buffer. Allocates nothing yet.
  BudgetedBuffer(ByteCharge* charge, size_t max_size) : charge_(charge), max_(max_size) {}
  ~BudgetedBuffer() { Release(); }
  BudgetedBuffer(const BudgetedBuffer&) = delete;
  BudgetedBuffer& operator=(const BudgetedBuffer&) = delete;

  size_t size() const { return out_ - in_; }
  size_t max_size() const { return max_; }
  size_t capacity() const { return capacity_; }
  const_buffers_type data() const { return {data_.get() + in_, size()}; }
  mutable_buffers_type prepare(size_t n);
  void commit(size_t n) { out_ += std::min(n, last_ - out_); last_ = out_; }
  void consume(size_t n);

  // Takes `n` bytes of capacity now, whatever the budget (Force): a
  // connection's first buffer, so that small reads do not grow it step by
  // step, and so that a full budget still lets a small request in (the
  // connection limit bounds these). False only when memory is out.
  bool Reserve(size_t n);
  // Back to at most `n` bytes of capacity when it holds no more than that
  // (after a large request), giving the rest back to the budget.
  void ShrinkTo(size_t n);
  // Frees everything and gives it back.
  void Release();

 private:
  // Moves the readable bytes to a new allocation of `capacity` bytes
  // (charged, forced or not, or given back). False when the charge is
  // refused or memory is out.
  bool Reallocate(size_t capacity, bool force = false);

  ByteCharge* charge_;
  size_t max_;
  std::unique_ptr<char[]> data_;
  size_t capacity_ = 0;
  size_t in_ = 0;    // first readable byte
  size_t out_ = 0;   // end of the readable bytes
  size_t last_ = 0;  // end of the prepared room
};

}  // namespace simdex::service

#endif  // SIMDEX_ENGINE_SERVICE_BYTE_BUDGET_H_
