#include "jbench/host_caps/privilege.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "jbench/common/text.h"

namespace jbench::host_caps {
namespace {

// The value of "Field:\t..." in a /proc status file.
std::optional<std::string> status_field(const std::string& status, const std::string& field) {
  std::istringstream in(status);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(field + ":", 0) == 0) return trim(line.substr(field.size() + 1));
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::uint64_t> parse_cap_mask(const std::string& status, const std::string& field) {
  auto value = status_field(status, field);
  if (!value || value->empty() || value->size() > 16) return std::nullopt;
  if (value->find_first_not_of("0123456789abcdefABCDEF") != std::string::npos) return std::nullopt;
  return std::strtoull(value->c_str(), nullptr, 16);
}

std::optional<long> parse_effective_uid(const std::string& status) {
  auto value = status_field(status, "Uid");
  if (!value) return std::nullopt;
  std::istringstream in(*value);
  long real = -1;
  long effective = -1;
  if (!(in >> real >> effective) || effective < 0) return std::nullopt;
  return effective;
}

bool has_capability(std::uint64_t mask, int capability) {
  return capability >= 0 && capability < 64 && ((mask >> capability) & 1U) != 0;
}

ProcessPrivilege read_process_privilege(const std::string& root) {
  ProcessPrivilege p;
  const std::string path = root + "/proc/self/status";
  std::ifstream in(path);
  if (!in) {
    p.why = "cannot open " + path + ": " + std::strerror(errno);
    return p;
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) {
    p.why = "cannot read " + path;
    return p;
  }
  p.euid = parse_effective_uid(text.str());
  p.cap_eff = parse_cap_mask(text.str(), "CapEff");
  if (!p.euid || !p.cap_eff) p.why = path + " has no parsable Uid or CapEff line";
  return p;
}

}  // namespace jbench::host_caps
