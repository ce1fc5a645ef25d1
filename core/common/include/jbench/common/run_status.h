// How a run ended (run.json's and manifest.json's "status"): the run loop decides it, the first
// failure winning; a reader parses the word once, here, and compares statuses, never words.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace jbench {

// not_run: planned, but the session ended (interrupted) before it began.
enum class RunStatus : std::uint8_t { ok, failed, timeout, interrupted, not_run };

// The words, in the statuses' order: the only ones a bundle holds.
inline constexpr std::array<std::string_view, 5> kRunStatusWords = {"ok", "failed", "timeout",
                                                                    "interrupted", "not_run"};

std::string_view run_status_name(RunStatus status);
std::optional<RunStatus> run_status_from_name(std::string_view name);

}  // namespace jbench
