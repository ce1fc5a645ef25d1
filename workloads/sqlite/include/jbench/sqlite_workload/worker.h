// Entry points of jbench-sqlite-worker (docs/worker-protocol.md):
//
//   jbench-sqlite-worker build-dataset --db PATH --rows N --row-bytes B --seed S
//   jbench-sqlite-worker serve
//
// Both return the process exit code (protocol.h); main() only forwards it.
#pragma once

namespace jbench::sqlite_workload {

// Protocol v1 on the given descriptors (stdin/stdout in the real worker).
int serve(int in_fd, int out_fd);

// Prints exactly one JSON line on `out_fd`: the dataset report or an error.
int build_dataset_command(int argc, char** argv, int out_fd);

int run_worker(int argc, char** argv);

}  // namespace jbench::sqlite_workload
