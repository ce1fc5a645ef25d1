#include "jbench/doctor/capabilities_text.h"

#include <fmt/format.h>

#include <vector>

#include "jbench/doctor/capabilities.h"

namespace jbench {

std::string capabilities_to_text(const nlohmann::json& caps) {
  std::string out;
  const auto& host = caps.at("host");
  out += fmt::format("{:<22}{} {} {}\n", "host", host.at("os").get<std::string>(),
                     host.at("arch").get<std::string>(), host.at("kernel").get<std::string>());
  const auto& inputs = caps.at("inputs");
  if (!inputs.at("try_attach").get<bool>()) {
    out += fmt::format("{:<22}{}\n", "note", "attach not tried (--no-attach): nothing is proven");
  }
  if (!inputs.at("root").get<std::string>().empty()) {
    out += fmt::format("{:<22}/proc and /sys read under {}\n", "note",
                       inputs.at("root").get<std::string>());
  }
  for (const auto& c : caps.at("checks")) {
    const std::string name = c.at("name").get<std::string>();
    const std::string detail = c.at("detail").get<std::string>();
    if (c.at("status") == "available") {
      out += fmt::format("{:<22}available — {}\n", name, detail);
    } else {
      out += fmt::format("{:<22}not available: {} — {}; fix: {}\n", name,
                         c.at("reason_code").get<std::string>(), detail,
                         c.at("remediation").get<std::string>());
    }
  }
  // The syscall backends in trace-mode order, then the rest (usdt; an older document's syscall).
  const auto& backends = caps.at("backends");
  std::vector<std::string> kinds;
  for (const char* first : {"syscall_light", "syscall_full"}) {
    if (backends.contains(first)) kinds.emplace_back(first);
  }
  for (const auto& [kind, b] : backends.items()) {
    if (kind != "syscall_light" && kind != "syscall_full") kinds.push_back(kind);
  }
  for (const std::string& kind : kinds) {
    const auto& b = backends.at(kind);
    const std::string chosen =
        b.at("chosen").is_null() ? "none" : b.at("chosen").get<std::string>();
    out +=
        fmt::format("{:<22}{} — {}\n", "backend " + kind, chosen, b.at("why").get<std::string>());
    if (b.contains("remediation")) {
      out += fmt::format("{:<22}fix: {}\n", "", b.at("remediation").get<std::string>());
    }
  }
  return out;
}

}  // namespace jbench
