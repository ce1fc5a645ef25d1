// A test's text files: read whole, and copied with edits (a checked-in matrix or proposal with
// its build paths pointed at this build, say).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace jbench::test {

// The whole file; "" when it cannot be read (the test's next check then says what is missing).
std::string read_text(const std::string& path);

// `text` with every `from` of each edit replaced by its `to`, in order. An edit whose `from` is
// not there throws std::runtime_error naming it: an edit that silently did nothing would leave
// the test checking something else than it says.
using TextEdits = std::vector<std::pair<std::string, std::string>>;
std::string edited(std::string text, const TextEdits& edits);

// `source` with `edits` made, written to `dest`; returns `dest`.
std::string write_edited_copy(const std::string& source, const std::string& dest,
                              const TextEdits& edits);

}  // namespace jbench::test
