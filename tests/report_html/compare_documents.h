// The compare and history documents the page tests render, made by jbench::compare itself from
// the checked-in bundles of real runs (tests/fixtures/compare/bundles): what `jbench compare
// --json` and `jbench history --json` print for them, so the pages are tested on the documents
// the commands really write.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace jbench::test {

// compare_bundles over two of the checked-in bundles (by name: writer-a, writer-b,
// writer-planted, reader), as comparison_to_json gives it.
nlohmann::json comparison_document(const std::string& base, const std::string& candidate,
                                   bool allow_different_settings = false);

// Fills `dir` with seventeen bundles, in the order they started: eight nights of the writer
// (copies of writer-a and writer-b), one invalid copy of writer-b (a run's summary changed after
// it was sealed: a gap), then eight nights of writer-planted (the change for the worse).
void fill_history_folder(const std::string& dir);
inline constexpr std::size_t kHistoryBundles = 17, kHistoryGapAt = 8, kHistoryPoints = 16;

// read_history over `dir` with the default options, as history_to_json gives it.
nlohmann::json history_document(const std::string& dir);

// The opening <tr> the compare page writes for a document row whose cell and metric need no
// escaping: the same in the page's text and in Chromium's serialized DOM.
std::string row_markup(const nlohmann::json& row);

// A markup string the hostile documents put in every text field.
inline constexpr const char* kMarkup = "</script><img src=x onerror=alert(1)>";

}  // namespace jbench::test
