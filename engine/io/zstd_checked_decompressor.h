// A Boost.Iostreams input filter that decompresses zstd and reports a
// truncated stream. Boost 1.74's zstd_decompressor returns a short result
// without error when the input ends inside a frame; this filter tracks frame
// completion with ZSTD_decompressStream's return value instead.
#ifndef SIMDEX_ENGINE_IO_ZSTD_CHECKED_DECOMPRESSOR_H_
#define SIMDEX_ENGINE_IO_ZSTD_CHECKED_DECOMPRESSOR_H_

#include <ios>
#include <memory>
#include <stdexcept>
#include <string>

#include <boost/iostreams/concepts.hpp>
#include <boost/iostreams/operations.hpp>

namespace simdex::io {

// Thrown from read(); the message is the whole description
// ("truncated zstd stream", "corrupt zstd stream (Data corruption detected)").
class ZstdStreamError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class ZstdCheckedDecompressor : public boost::iostreams::multichar_input_filter {
 public:
  ZstdCheckedDecompressor();

  template <typename Source>
  std::streamsize read(Source& src, char* s, std::streamsize n) {
    State& st = *state_;
    std::streamsize written = 0;
    while (written < n) {
      if (st.in_pos == st.in_size && !st.source_done) {
        std::streamsize r = boost::iostreams::read(src, st.in.get(), static_cast<std::streamsize>(kInSize));
        if (r <= 0) {
          st.source_done = true;
        } else {
          st.in_pos = 0;
          st.in_size = static_cast<size_t>(r);
          st.saw_input = true;
        }
      }
      size_t produced = 0;
      bool progress = Decompress(s + written, static_cast<size_t>(n - written), &produced);
      written += static_cast<std::streamsize>(produced);
      if (!progress && st.in_pos == st.in_size && st.source_done) {
        Finish();
        break;
      }
    }
    return written > 0 ? written : -1;
  }

 private:
  static constexpr size_t kInSize = 1 << 17;
  struct State;
  // Runs the decoder over the buffered input into [out, out + cap). Returns
  // whether it consumed or produced anything.
  bool Decompress(char* out, size_t cap, size_t* produced);
  // Called at the end of the input: throws if a frame is incomplete.
  void Finish();

  struct State {
    State();
    ~State();
    void* dctx;
    std::unique_ptr<char[]> in;
    size_t in_pos = 0;
    size_t in_size = 0;
    bool source_done = false;
    bool saw_input = false;
    bool frame_open = false;
  };
  // Filters are copied when pushed onto a chain; copies share the state.
  std::shared_ptr<State> state_;
};

}  // namespace simdex::io

#endif  // SIMDEX_ENGINE_IO_ZSTD_CHECKED_DECOMPRESSOR_H_
