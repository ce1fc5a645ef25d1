// The text form of a capability document (`jbench doctor` without --json): one line per check,
// then the chosen backends (syscall_light, syscall_full, then the others).
//
//   name                  available — detail
//   name                  not available: reason_code — detail; fix: remediation
//   backend syscall_light libbpf — why
//   backend syscall_full  libbpf — why
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace jbench {

std::string capabilities_to_text(const nlohmann::json& capabilities);

}  // namespace jbench
