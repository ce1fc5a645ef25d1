// The ways a bundle can lie, each a named mutation of the checked-in valid bundle
// (tests/fixtures/bundles/valid) with the finding codes `jbench validate` must report for it —
// exactly those codes, nothing else. Every mutation but the checksum ones rewrites SHA256SUMS
// afterwards, so that its rule, not the checksum, is what fails.
//
//   for (const auto& m : mutations()) { copy valid/ to <tmp>/<m.dir_name()>; m.apply(editor); }
//
// tests/validate/make_bad_bundles writes them all out for people to look at.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "bundle_editor.h"

namespace jbench::test {

struct Mutation {
  std::string name;                         // also the copy's directory name
  std::vector<std::string> expected_codes;  // the set of codes, each at least once
  std::string what;                         // the lie, in one line
  std::function<void(const BundleEditor&)> apply;
  std::string directory = "";  // the copy's name when it matters (".invalid"); "" = name
  std::string dir_name() const { return directory.empty() ? name : directory; }
};

const std::vector<Mutation>& mutations();

// A raw/syscall.summary.json as the syscall collector writes it (one worker, one call), valid
// against manifests/syscall-summary.schema.json.
nlohmann::json honest_syscall_summary();

// GoogleTest prints a parameter with this instead of its bytes.
inline void PrintTo(const Mutation& m, std::ostream* os) { *os << m.name; }

// The runs of the valid fixture (tests/fixtures/bundles/fixture-matrix.yaml).
inline const std::string kWriterRun = "w1.persistent.writer.tiny.baseline.r1";
inline const std::string kMixedRun = "w1.persistent.mixed.tiny.baseline.r1";

}  // namespace jbench::test
