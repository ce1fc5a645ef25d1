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

void CompressedFile::fail(const std::string& why, int sys_errno) {
  if (!error_) error_ = Error{"cannot write " + path_ + ": " + why, sys_errno};
}

Status CompressedFile::open(const std::string& path) {
  path_ = path;
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    const int e = errno;
    return Error{"cannot create " + path + ": " + std::strerror(e), e};
  }
  cctx_ = ZSTD_createCCtx();
  if (cctx_ == nullptr) {
    return Error{"cannot create " + path + ": zstd has no memory for a stream", ENOMEM};
  }
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
      const int e = n < 0 ? errno : 0;
      fail(n < 0 ? std::strerror(e) : "nothing written", e);
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
      fail(std::string("zstd: ") + ZSTD_getErrorName(left), 0);
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
  if (fd_ < 0 || cctx_ == nullptr || error_) return false;
  pending_ = bytes;
  since_flush_ += bytes.size();
  const bool flush = since_flush_ >= kFlushBytes;
  if (flush) since_flush_ = 0;
  return drain(flush ? ZSTD_e_flush : ZSTD_e_continue);
}

Status CompressedFile::close() {
  if (fd_ < 0) return error_ ? *error_ : Error{"the file was never opened"};
  if (cctx_ != nullptr && !error_) drain(ZSTD_e_end);
  if (::close(fd_) != 0) {
    const int e = errno;
    fail(std::strerror(e), e);
  }
  fd_ = -1;
  if (error_) return *error_;
  return {};
}

Status compress_file(const std::string& from, const std::string& to) {
  const int in = ::open(from.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) {
    const int e = errno;
    return Error{"cannot open " + from + ": " + std::strerror(e), e};
  }
  CompressedFile out;
  Status status = out.open(to);
  const bool created = status.ok();  // never remove a file this call did not make
  std::vector<char> buffer(1 << 20);
  while (status) {
    const ssize_t got = ::read(in, buffer.data(), buffer.size());
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      const int e = errno;
      status = Error{"cannot read " + from + ": " + std::strerror(e), e};
    }
    if (got <= 0) break;
    if (!out.write(std::string_view(buffer.data(), static_cast<std::size_t>(got)))) break;
  }
  ::close(in);
  if (!created) return status;
  const Status closed = out.close();
  if (status) status = closed;
  if (!status) ::unlink(to.c_str());
  return status;
}

std::string keep_compressed(const std::string& dir, const std::string& file) {
  const std::string plain = dir + "/" + file;
  const std::string compressed = file + kCompressedSuffix;
  struct stat st {};
  if (::lstat(plain.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return file;
  if (!compress_file(plain, dir + "/" + compressed)) return file;
  ::unlink(plain.c_str());
  return compressed;
}

}  // namespace jbench::events
