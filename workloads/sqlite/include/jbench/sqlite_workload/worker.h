// Entry points of jbench-sqlite-worker (docs/worker-protocol.md):
//
//   jbench-sqlite-worker build-dataset --db PATH --rows N --row-bytes B --seed S
//   jbench-sqlite-worker serve
//   jbench-sqlite-worker oracle-engine [--subquery-cache off|transaction|connection]
//
// Each returns the process exit code (protocol.h); main() only forwards it.
#pragma once

namespace jbench::sqlite_workload {

// Protocol v1 on the given descriptors (stdin/stdout in the real worker).
int serve(int in_fd, int out_fd);

// Prints exactly one JSON line on `out_fd`: the dataset report or an error.
int build_dataset_command(int argc, char** argv, int out_fd);

// The oracle's line protocol (docs/oracle-protocol.md) on stdin/stdout over an in-memory
// database whose count_above_mean_weight runs through the subquery cache (oracle_engine.cpp).
// argv[0] is "oracle-engine".
int oracle_engine_command(int argc, char** argv);

int run_worker(int argc, char** argv);

}  // namespace jbench::sqlite_workload
