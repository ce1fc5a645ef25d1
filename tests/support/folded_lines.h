// The lines of a folded-stack export (`jbench export --format folded*`): "a;b;c 123".
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace jbench::test {

// stack -> value; `bad` gets each line that is not of that form, or repeats a stack.
std::map<std::string, std::uint64_t> folded_lines(const std::string& text,
                                                  std::vector<std::string>& bad);

// The values summed by the last `frames` frames of each stack ("reason;waker" for 2).
std::map<std::string, std::uint64_t> folded_by_tail(
    const std::map<std::string, std::uint64_t>& lines, int frames);

}  // namespace jbench::test
