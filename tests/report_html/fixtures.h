// The checked-in attribution reports the tests render (tests/fixtures/attribution-report/):
// example.json is the report format's reference example; sparse-hostile.json has the nulls,
// empty arrays, an invalid bundle and markup in paths and names that a foreign bundle can carry.
#pragma once

#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace jbench::test {

inline nlohmann::json attribution_fixture(const std::string& name) {
  const std::string path =
      std::string(JBENCH_SOURCE_DIR) + "/tests/fixtures/attribution-report/" + name;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read the fixture " + path);
  return nlohmann::json::parse(in);
}

// The markup sparse-hostile.json puts in a path, a label, a cell name and the bundle's name.
inline constexpr const char* kHostile = "</script><img src=x onerror=alert(1)>";

}  // namespace jbench::test
