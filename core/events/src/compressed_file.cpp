#include "jbench/events/compressed_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace jbench::events {
namespace {

// Level 3 (zstd's default) compresses a run's call records at several hundred MB/s on one core,
// well ahead of the tracer; higher levels gain a few percent of size for several times the CPU.
constexpr int kLevel = 3;

ZSTD_CCtx* context(void* p) { return static_cast<ZSTD_CCtx*>(p); }

}  // namespace

CompressedFile::~CompressedFile() {
  if (fd_ >= 0) ::close(fd_);
  ZSTD_freeCCtx(context(cctx_));
}

void CompressedFile::fail(const std::string& why) {
  if (error_.empty()) error_ = "cannot write " + path_ + ": " + why;
}

std::string CompressedFile::open(const std::string& path) {
  path_ = path;
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd_ < 0) return "cannot create " + path + ": " + std::strerror(errno);
  cctx_ = ZSTD_createCCtx();
  if (cctx_ == nullptr) return "cannot create " + path + ": zstd has no memory for a stream";
  ZSTD_CCtx_setParameter(context(cctx_), ZSTD_c_compressionLevel, kLevel);
  ZSTD_CCtx_setParameter(context(cctx_), ZSTD_c_checksumFlag, 1);
  buffer_.resize(ZSTD_CStreamOutSize());
  return {};
}

bool CompressedFile::put(const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd_, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      fail(n < 0 ? std::strerror(errno) : "nothing written");
      return false;
    }
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

bool CompressedFile::drain(int mode) {
  ZSTD_inBuffer in{pending_.data(), pending_.size(), 0};
  for (;;) {
    ZSTD_outBuffer out{buffer_.data(), buffer_.size(), 0};
    const std::size_t left =
        ZSTD_compressStream2(context(cctx_), &out, &in, static_cast<ZSTD_EndDirective>(mode));
    if (ZSTD_isError(left)) {
      fail(std::string("zstd: ") + ZSTD_getErrorName(left));
      return false;
    }
    if (out.pos > 0 && !put(buffer_.data(), out.pos)) return false;
    const bool consumed = in.pos == in.size;
    if (mode == ZSTD_e_continue ? consumed : (consumed && left == 0)) break;
  }
  pending_ = {};
  return true;
}

bool CompressedFile::write(std::string_view bytes) {
  if (fd_ < 0 || cctx_ == nullptr || !error_.empty()) return false;
  pending_ = bytes;
  since_flush_ += bytes.size();
  const bool flush = since_flush_ >= kFlushBytes;
  if (flush) since_flush_ = 0;
  return drain(flush ? ZSTD_e_flush : ZSTD_e_continue);
}

std::string CompressedFile::close() {
  if (fd_ < 0) return error_.empty() ? "the file was never opened" : error_;
  if (cctx_ != nullptr && error_.empty()) drain(ZSTD_e_end);
  if (::close(fd_) != 0) fail(std::strerror(errno));
  fd_ = -1;
  return error_;
}

std::string compress_file(const std::string& from, const std::string& to) {
  const int in = ::open(from.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) return "cannot open " + from + ": " + std::strerror(errno);
  CompressedFile out;
  std::string error = out.open(to);
  const bool created = error.empty();  // never remove a file this call did not make
  std::vector<char> buffer(1 << 20);
  while (error.empty()) {
    const ssize_t got = ::read(in, buffer.data(), buffer.size());
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) error = "cannot read " + from + ": " + std::strerror(errno);
    if (got <= 0) break;
    if (!out.write(std::string_view(buffer.data(), static_cast<std::size_t>(got)))) break;
  }
  ::close(in);
  if (!created) return error;
  const std::string closed = out.close();
  if (error.empty()) error = closed;
  if (!error.empty()) ::unlink(to.c_str());
  return error;
}

std::string keep_compressed(const std::string& dir, const std::string& file) {
  const std::string plain = dir + "/" + file;
  const std::string compressed = file + kCompressedSuffix;
  struct stat st {};
  if (::lstat(plain.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return file;
  if (!compress_file(plain, dir + "/" + compressed).empty()) return file;
  ::unlink(plain.c_str());
  return compressed;
}

}  // namespace jbench::events
