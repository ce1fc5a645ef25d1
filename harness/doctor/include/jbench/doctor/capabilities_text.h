// The text form of a capability document (`jbench doctor` without --json): one line per check,
// then the chosen backends.
//
//   name                  available — detail
//   name                  not available: reason_code — detail; fix: remediation
//   backend syscall       strace — why
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace jbench {

std::string capabilities_to_text(const nlohmann::json& capabilities);

}  // namespace jbench
