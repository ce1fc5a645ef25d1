// How far the writers of a storm have got: the number of lines appended to their ledgers, read
// incrementally (only the bytes added since the last look). The storm paces its kills by it, so
// they spread over the whole run however fast the host commits. Private to jbench::oracle_ledger.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace jbench::oracle {

class LedgerProgress {
 public:
  explicit LedgerProgress(std::vector<std::string> paths);
  // Lines appended to all ledgers so far (a missing ledger counts 0).
  std::uint64_t lines();

 private:
  std::vector<std::string> paths_;
  std::vector<std::uint64_t> offsets_;
  std::uint64_t lines_ = 0;
};

}  // namespace jbench::oracle
