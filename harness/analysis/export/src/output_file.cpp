#include "output_file.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <ostream>

namespace jbench::exports {

OutputFile::~OutputFile() {
  if (file_) std::fclose(file_);
  if (!committed_ && !temp_.empty()) ::unlink(temp_.c_str());
}

std::string OutputFile::open() {
  buffer_.reserve(kChunk + (64 << 10));
  if (path_.empty()) return {};
  // Beside the destination, so the rename stays within one filesystem.
  const auto dir = std::filesystem::path(path_).parent_path();
  std::string pattern = (dir.empty() ? std::string(".") : dir.string()) + "/." +
                        std::filesystem::path(path_).filename().string() + ".tmp-XXXXXX";
  const int fd = ::mkstemp(pattern.data());
  if (fd < 0) {
    return fmt::format("cannot create a temporary file beside {}: {}", path_, std::strerror(errno));
  }
  temp_ = pattern;
  // mkstemp makes the file 0600; the export is an ordinary file, readable as the umask allows.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  file_ = ::fdopen(fd, "w");
  if (!file_) {
    ::close(fd);
    return fmt::format("cannot open {}: {}", temp_, std::strerror(errno));
  }
  return {};
}

void OutputFile::flush() {
  if (buffer_.empty() || !write_error_.empty()) {
    buffer_.clear();
    return;
  }
  if (file_) {
    if (std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size()) {
      write_error_ = fmt::format("cannot write {}: {}", temp_, std::strerror(errno));
    }
  } else {
    stream_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
    if (!stream_) write_error_ = "cannot write the standard output";
  }
  buffer_.clear();
}

std::string OutputFile::commit() {
  flush();
  if (!write_error_.empty()) return write_error_;
  if (!file_) {
    stream_.flush();
    return stream_ ? std::string{} : std::string("cannot write the standard output");
  }
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  if (!closed) return fmt::format("cannot write {}: {}", temp_, std::strerror(errno));
  if (::rename(temp_.c_str(), path_.c_str()) != 0) {
    return fmt::format("cannot rename {} to {}: {}", temp_, path_, std::strerror(errno));
  }
  committed_ = true;
  return {};
}

}  // namespace jbench::exports
