// The workload kinds a matrix may name, as data: each kind's parameters (type, range, default)
// and the axes it needs. The decoder validates `workload:` against this table, and docs/matrix.md
// documents the same table.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include "jbench/matrix/matrix.h"

namespace jbench {

struct ParamSpec {
  // file_name: a plain file name (jbench/common/file_name.h), created beside the run's files.
  enum class Type : std::uint8_t { integer, number, choice, file_name };
  std::string_view key;
  Type type;
  double min = 0;  // integer and number
  double max = 0;
  std::span<const std::string_view> choices;  // choice
  // std::monostate: the parameter is absent (none) unless the matrix gives it.
  ParamValue default_value;
  std::string_view meaning;
};

// The axes every worker is sent a value of (workers, connection, lane, dataset), so every kind
// requires them: the protocol's, whatever the worker (docs/worker-protocol.md, configure).
inline constexpr std::array<bool, kAxisCount> kProtocolAxes = {true, true, true, true, false};

struct WorkloadKind {
  std::string_view name;
  std::string_view meaning;
  std::span<const ParamSpec> params;
  std::array<bool, kAxisCount> requires_axis;  // indexed by Axis
};

std::span<const WorkloadKind> workload_kinds();
const WorkloadKind* find_workload_kind(std::string_view name);
// The kind's parameter `key`, or null.
const ParamSpec* find_param(const WorkloadKind& kind, std::string_view key);

}  // namespace jbench
