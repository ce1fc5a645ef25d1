#include "jbench/events/line_reader.h"

#include <fcntl.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

namespace jbench::events {
namespace {

// A file's bytes as they are, or decompressed when it begins with zstd's magic number (a raw
// file written by CompressedFile): the readers never need to know which.
class Source {
 public:
  explicit Source(int fd) : fd_(fd), in_(ZSTD_DStreamInSize()) {}
  ~Source() { ZSTD_freeDCtx(dctx_); }
  Source(const Source&) = delete;
  Source& operator=(const Source&) = delete;

  // Up to `size` bytes into `into`: how many, 0 at the end, -1 when `error` says why not.
  ssize_t read(char* into, std::size_t size, std::string& error) {
    if (!probed_ && !probe(error)) return -1;
    if (dctx_ == nullptr) return plain(into, size, error);
    for (;;) {
      if (in_pos_ == in_size_ && !refill(error)) return -1;
      if (in_size_ == 0) {
        if (!frame_open_) return 0;
        error = "cannot read: the compressed stream ends inside a frame (the file was cut short)";
        return -1;
      }
      ZSTD_inBuffer in{in_.data(), in_size_, in_pos_};
      ZSTD_outBuffer out{into, size, 0};
      const std::size_t left = ZSTD_decompressStream(dctx_, &out, &in);
      in_pos_ = in.pos;
      if (ZSTD_isError(left)) {
        error = std::string("cannot read: the compressed stream is damaged (") +
                ZSTD_getErrorName(left) + ")";
        return -1;
      }
      frame_open_ = left != 0;
      if (out.pos > 0) return static_cast<ssize_t>(out.pos);
    }
  }

 private:
  // One read of the file, again when a signal interrupted it; -1 when `error` says why not.
  ssize_t read_file(char* into, std::size_t size, std::string& error) {
    for (;;) {
      const ssize_t got = ::read(fd_, into, size);
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) error = std::string("cannot read: ") + std::strerror(errno);
      return got;
    }
  }

  bool refill(std::string& error) {
    in_pos_ = 0;
    in_size_ = 0;
    const ssize_t got = read_file(in_.data(), in_.size(), error);
    if (got < 0) return false;
    in_size_ = static_cast<std::size_t>(got);
    return true;
  }

  bool probe(std::string& error) {
    probed_ = true;
    if (!refill(error)) return false;
    const unsigned char magic[4] = {0x28, 0xB5, 0x2F, 0xFD};
    if (in_size_ >= 4 && std::memcmp(in_.data(), magic, 4) == 0) {
      dctx_ = ZSTD_createDCtx();
      if (dctx_ == nullptr) {
        error = "cannot read: zstd has no memory for a stream";
        return false;
      }
    }
    return true;
  }

  // Plain text: what the probe read first, then straight from the file.
  ssize_t plain(char* into, std::size_t size, std::string& error) {
    if (in_pos_ < in_size_) {
      const std::size_t n = std::min(size, in_size_ - in_pos_);
      std::memcpy(into, in_.data() + in_pos_, n);
      in_pos_ += n;
      return static_cast<ssize_t>(n);
    }
    return read_file(into, size, error);
  }

  int fd_;
  std::vector<char> in_;
  std::size_t in_pos_ = 0;
  std::size_t in_size_ = 0;
  bool probed_ = false;
  bool frame_open_ = false;
  ZSTD_DCtx* dctx_ = nullptr;
};

}  // namespace

LineRead for_each_line(const std::string& path, std::size_t max_line_bytes,
                       const std::function<bool(std::size_t, std::string_view)>& on_line,
                       const std::function<void(std::size_t)>& on_overlong) {
  LineRead r;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    r.error = std::string("cannot open: ") + std::strerror(errno);
    return r;
  }
  // Whole lines are handed out of the buffer itself; only a line split across two reads is
  // copied into `carry`, so the common case never copies.
  Source source(fd);
  std::vector<char> buffer(1 << 20);
  std::string carry;
  bool overlong = false;
  const auto deliver = [&](std::string_view line) {
    ++r.lines;
    if (overlong || line.size() > max_line_bytes) {
      on_overlong(r.lines);
      return true;
    }
    return on_line(r.lines, line);
  };
  for (;;) {
    const ssize_t got = source.read(buffer.data(), buffer.size(), r.error);
    if (got < 0) break;
    if (got == 0) break;
    r.bytes += static_cast<std::uint64_t>(got);
    const char* p = buffer.data();
    const char* const end = p + got;
    while (p < end) {
      const char* nl =
          static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
      if (nl == nullptr) {
        if (!overlong) carry.append(p, end);
        if (carry.size() > max_line_bytes) {
          overlong = true;
          carry.clear();
        }
        break;
      }
      bool go_on;
      if (carry.empty() && !overlong) {
        go_on = deliver(std::string_view(p, static_cast<std::size_t>(nl - p)));
      } else {
        if (!overlong) carry.append(p, nl);
        go_on = deliver(carry);
        carry.clear();
      }
      overlong = false;
      p = nl + 1;
      if (!go_on) {
        r.stopped = true;
        ::close(fd);
        return r;
      }
    }
  }
  if (r.error.empty() && (overlong || !carry.empty())) {
    if (!deliver(carry)) r.stopped = true;
  }
  ::close(fd);
  return r;
}

}  // namespace jbench::events
