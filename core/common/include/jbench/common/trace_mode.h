// The trace modes (docs/trace-modes.md): what a run arms in and around its target. A matrix
// names them on its trace axis; the collectors' table says what each one runs. `counted` runs the
// target under an instruction-counting runtime: its figures are counts, never its wall time.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace jbench {

enum class TraceMode : std::uint8_t { baseline, no_consumer, light, full, counted };

// The names, in the modes' order: a matrix's trace axis accepts exactly these.
inline constexpr std::array<std::string_view, 5> kTraceValues = {"baseline", "no-consumer", "light",
                                                                 "full", "counted"};

std::string_view trace_mode_name(TraceMode mode);  // "no-consumer" etc.
std::optional<TraceMode> trace_mode_from_name(std::string_view name);

}  // namespace jbench
