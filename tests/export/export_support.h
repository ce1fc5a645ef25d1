// Running `jbench export` for a test and checking what it wrote.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "folded_lines.h"
#include "run_process.h"

namespace jbench::test {

// A copy of tests/fixtures/export/<name>: a bundle directory is sealed with SHA256SUMS as a
// finished bundle is (the fixtures are hand-written and hand-edited, so their sums are made here,
// not checked in); a file (a matrix) is copied as it is.
std::string export_fixture(const std::string& name);
// Writes `bundle_dir`'s SHA256SUMS anew, after a test edited a file of it on purpose.
void seal_bundle(const std::string& bundle_dir);
ProcessResult run_jbench(const std::vector<std::string>& args);
std::string slurp(const std::string& path);

// Every B has its E on the same (pid, tid), later or at the same time, properly nested, in
// file order; an empty string when so, else what is wrong.
std::string unpaired_slices(const nlohmann::json& trace);

// The raw text of every "ts" and "dur" value in a Chrome trace file.
std::vector<std::string> time_texts(const std::string& text);

}  // namespace jbench::test
