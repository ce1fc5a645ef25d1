// Dataset cells, each built once per session by the workload's own binary (outside every run's
// phases) and copied into each run's scratch directory, so every run starts from the same bytes.
// Private to jbench::run.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "jbench/matrix/matrix.h"

namespace jbench::run {

struct BuiltDataset {
  std::string path;
  nlohmann::json facts;  // the build's own report plus what was measured about the file
  std::string error;     // non-empty: the cell could not be built; its runs fail with this
};

class DatasetCache {
 public:
  DatasetCache(std::string scratch_dir, std::vector<std::string> worker, std::uint64_t matrix_seed,
               std::uint32_t build_timeout_s);

  // Builds dataset `d` on first use. Later calls return the same result.
  const BuiltDataset& get(const Dataset& d);
  bool has(const Dataset& d) const;  // built already: `get` returns at once

  // Every cell built so far, for the manifest.
  nlohmann::json to_json() const;

 private:
  const BuiltDataset* find(const Dataset& d) const;  // null: not built yet
  BuiltDataset build(const Dataset& d) const;

  std::string scratch_dir_;
  std::vector<std::string> worker_;  // program and arguments; "build-dataset" follows them
  std::uint64_t matrix_seed_;
  std::uint32_t build_timeout_s_;
  std::vector<std::pair<std::string, BuiltDataset>> built_;
};

// The seed a dataset cell is built from: the matrix seed and the cell's name, so that the same
// cell has the same content in every run and in every session of the same matrix.
std::uint64_t dataset_seed(std::uint64_t matrix_seed, const std::string& name);

}  // namespace jbench::run
