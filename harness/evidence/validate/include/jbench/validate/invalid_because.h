// Why a bundle its judgement (jbench/bundle/bundle_validity.h) found invalid is invalid, in the
// validator's words: the readers that trust a bundle's own verdict and checksums (compare,
// merge) validate in full only a bundle that fails them, to say why.
//
//   const BundleValidity judged = judge_bundle(dir, /*check_sums=*/true);
//   if (!judged.valid) for (const auto& r : invalid_because(dir, judged).reasons) say(r);
#pragma once

#include <string>
#include <vector>

#include "jbench/bundle/bundle_validity.h"

namespace jbench {

struct InvalidBecause {
  bool unreadable = false;  // the validator could not open it at all
  // Every finding as "code file: message" ("(bundle)" for the bundle as a whole): what made it
  // invalid first, the marks that only say it is (its `.invalid` name, its recorded verdict)
  // last, so the first few quoted tell why. The judgement's own reasons where the validator
  // finds nothing.
  std::vector<std::string> reasons;
};

InvalidBecause invalid_because(const std::string& bundle_dir, const BundleValidity& judged);

}  // namespace jbench
