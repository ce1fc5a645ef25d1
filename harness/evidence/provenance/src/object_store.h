// Internal: the content-addressed store of a bundle, provenance/objects/<sha256>. Each object is
// kept once whatever how many binaries, runs or paths name it, and only while the bytes stored
// stay within the cap; an object the cap (or a failure) leaves out is still listed, with its
// digest, size, the paths it came from and why it is not there. Never silently dropped.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "jbench/provenance/retained.h"

namespace jbench {
class StagingBundle;
}

namespace jbench::provenance_detail {

inline constexpr const char* kObjectsDir = "provenance/objects";

class ObjectStore {
 public:
  ObjectStore(StagingBundle& bundle, std::uint64_t cap_bytes) : bundle_(bundle), cap_(cap_bytes) {}

  // A file whose digest and size were read when it was described: its bytes are read again from
  // `read_path` (e.g. /proc/<pid>/exe) and stored under `sha256` only if they still hash to it.
  void add_file(const std::string& kind, const std::string& path, const std::string& read_path,
                const std::string& sha256, std::uint64_t size);
  // Bytes made here (a symbol map), already hashed by the caller.
  void add_bytes(const std::string& kind, const std::string& path, const std::string& sha256,
                 const std::string& bytes);
  bool known(const std::string& sha256) const { return objects_.count(sha256) != 0; }
  // Known and its bytes written into the store (not left out).
  bool stored(const std::string& sha256) const {
    const auto it = objects_.find(sha256);
    return it != objects_.end() && it->second.left_out.empty();
  }
  // Adds `path` to the names of a known object.
  void name(const std::string& sha256, const std::string& path);

  // {"cap_bytes", "stored_bytes", "left_out_bytes", "objects": [...]}: objects in digest order.
  nlohmann::json to_json() const;

 private:
  struct Object {
    std::string kind;
    std::uint64_t size = 0;
    std::vector<std::string> paths;
    std::string left_out;  // empty: stored
  };
  // Whether `size` more bytes fit; if not, the object is entered as left out.
  bool admit(const std::string& kind, const std::string& path, const std::string& sha256,
             std::uint64_t size);
  void store(const std::string& sha256, const std::string& bytes);

  StagingBundle& bundle_;
  std::uint64_t cap_;
  std::uint64_t stored_ = 0;
  std::map<std::string, Object> objects_;
};

}  // namespace jbench::provenance_detail
