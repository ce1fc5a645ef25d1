#include "object_store.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "jbench/bundle/staging_bundle.h"
#include "jbench/common/sha256.h"

namespace jbench::provenance_detail {
namespace {

// The whole file, or why not. Objects are read into memory to be hashed and written through
// the bundle's atomic writer; the cap bounds how much that is in all.
std::string read_all(const std::string& path, std::uint64_t expected, std::string& bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return fmt::format("cannot open {}: {}", path, std::strerror(errno));
  bytes.assign(static_cast<std::size_t>(expected) + 1, '\0');
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::read(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      return fmt::format("cannot read {}: {}", path, std::strerror(err));
    }
    if (n == 0) break;
    done += static_cast<std::size_t>(n);
  }
  ::close(fd);
  bytes.resize(done);
  return {};
}

}  // namespace

bool ObjectStore::admit(const std::string& kind, const std::string& path, const std::string& sha256,
                        std::uint64_t size) {
  if (known(sha256)) {
    name(sha256, path);
    return false;
  }
  Object& o = objects_[sha256];
  o.kind = kind;
  o.size = size;
  o.paths.push_back(path);
  if (size > cap_ || stored_ > cap_ - size) {
    o.left_out = kLeftOutOverCap;
    return false;
  }
  return true;
}

void ObjectStore::store(const std::string& sha256, const std::string& bytes) {
  Object& o = objects_[sha256];
  const Status written = bundle_.write_file(fmt::format("{}/{}", kObjectsDir, sha256), bytes);
  if (!written.ok()) {
    o.left_out = "not retained: " + written.error().message;
    return;
  }
  stored_ += o.size;
}

void ObjectStore::add_file(const std::string& kind, const std::string& path,
                           const std::string& read_path, const std::string& sha256,
                           std::uint64_t size) {
  if (!admit(kind, path, sha256, size)) return;
  std::string bytes;
  if (std::string why = read_all(read_path.empty() ? path : read_path, size, bytes); !why.empty()) {
    objects_[sha256].left_out = "not retained: " + why;
    return;
  }
  // What is stored is exactly what the digest names, or nothing.
  if (bytes.size() != size || sha256_hex(bytes) != sha256) {
    objects_[sha256].left_out = fmt::format(
        "not retained: {} changed after it was hashed (now {} bytes)", path, bytes.size());
    return;
  }
  store(sha256, bytes);
}

void ObjectStore::add_bytes(const std::string& kind, const std::string& path,
                            const std::string& sha256, const std::string& bytes) {
  if (admit(kind, path, sha256, bytes.size())) store(sha256, bytes);
}

void ObjectStore::name(const std::string& sha256, const std::string& path) {
  auto& paths = objects_[sha256].paths;
  if (std::find(paths.begin(), paths.end(), path) == paths.end()) paths.push_back(path);
}

nlohmann::json ObjectStore::to_json() const {
  nlohmann::json list = nlohmann::json::array();
  std::uint64_t left_out = 0;
  for (const auto& [sha256, o] : objects_) {
    nlohmann::json e = {{"sha256", sha256},
                        {"kind", o.kind},
                        {"size_bytes", o.size},
                        {"paths", o.paths},
                        {"stored", o.left_out.empty()}};
    if (!o.left_out.empty()) {
      e["left_out"] = o.left_out;
      left_out += o.size;
    }
    list.push_back(std::move(e));
  }
  return {{"cap_bytes", cap_},
          {"stored_bytes", stored_},
          {"left_out_bytes", left_out},
          {"objects", std::move(list)}};
}

}  // namespace jbench::provenance_detail
