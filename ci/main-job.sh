#!/usr/bin/env bash
# The main job: set everything up, build only what it runs, and run the SQLite matrix — its
# correctness pass first (about 2 s), then a quick selection of it: workers 1 and 4, the mixed
# lane (reads and writes), both connection kinds and both datasets, the four trace modes, 3
# repetitions: 96 runs, about 3½ minutes on 2 cores after the build. Extra arguments go to `jbench run` after the selection (e.g. --out DIR,
# --repetitions 1, --only dataset=below; an axis is filtered once, so other lanes need
# build/bin/jbench run directly).
# The whole matrix is one command away:
#   build/bin/jbench run matrices/sqlite.yaml
set -euo pipefail
cd "$(dirname "$0")/.."
# The harness, the SQLite worker, the trace bridge it loads, the allocation sampler, and the
# ledger worker of the correctness pass the matrix stands on (its `oracle:`).
bash ci/build.sh jbench jbench-sqlite-worker jbench_bridge_shared jbench_alloc_preload \
  jbench-ledger-worker >&2
exec "${BUILD_DIR:-build}/bin/jbench" run matrices/sqlite.yaml \
  --only workers=1,4 --only lane=mixed "$@"
