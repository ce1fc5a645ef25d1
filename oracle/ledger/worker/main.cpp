// jbench-ledger-worker: one writer or reader process of a ledger storm (docs/oracle-ledger.md).
#include <cstdio>

#include "reader.h"
#include "worker_options.h"
#include "writer.h"

int main(int argc, char** argv) {
  std::string error;
  const auto options = jbench::oracle::ledger_worker::parse_worker_options(argc, argv, error);
  if (!options) {
    std::fprintf(stderr, "jbench-ledger-worker: %s\n", error.c_str());
    return 2;
  }
  return options->role == "writer" ? jbench::oracle::ledger_worker::run_writer(*options)
                                   : jbench::oracle::ledger_worker::run_reader(*options);
}
