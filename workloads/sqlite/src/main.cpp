#include "jbench/sqlite_workload/worker.h"

int main(int argc, char** argv) { return jbench::sqlite_workload::run_worker(argc, argv); }
