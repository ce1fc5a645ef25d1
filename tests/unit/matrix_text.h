// Matrices for tests, written as YAML text so the tests exercise the real decoder.
#pragma once

#include <string>

#include "jbench/matrix/load.h"

namespace jbench::test {

// A small valid matrix; `axes` and `extra` (more top-level keys) replace the defaults.
std::string matrix_yaml(const std::string& axes = "", const std::string& extra = "",
                        int repetitions = 2);

// Parses text that must be valid; fails the current test (and returns a default) otherwise.
Matrix must_parse(const std::string& yaml);

}  // namespace jbench::test
