// A word's place in a fixed table of words (a run status's, a trace mode's, a worker setting's):
// the one lookup every parse of a word into its enum shares.
//
//   word_index(kRunStatusWords, "ok")               // 0
//   word_enum<RunStatus>(kRunStatusWords, "ok")     // RunStatus::ok (its enum lists the table's
//                                                   // words in the table's order)
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace jbench {

template <std::size_t N>
constexpr std::optional<std::size_t> word_index(const std::array<std::string_view, N>& words,
                                                std::string_view word) {
  for (std::size_t i = 0; i < N; ++i) {
    if (words[i] == word) return i;
  }
  return std::nullopt;
}

template <class Enum, std::size_t N>
constexpr std::optional<Enum> word_enum(const std::array<std::string_view, N>& words,
                                        std::string_view word) {
  const auto i = word_index(words, word);
  return i ? std::optional<Enum>(static_cast<Enum>(*i)) : std::nullopt;
}

}  // namespace jbench
