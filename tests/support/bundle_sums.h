// What someone who edits a bundle and covers their tracks does next: SHA256SUMS written anew over
// every regular file, so that only the validator's deeper checks can still tell. For tests of
// those checks.
#pragma once

#include <string>

namespace jbench::test {

// Rewrites <bundle>/SHA256SUMS to agree with every regular file below the bundle; throws
// std::runtime_error when a file cannot be read.
void rewrite_sums(const std::string& bundle);

}  // namespace jbench::test
