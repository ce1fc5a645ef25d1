#!/usr/bin/env bash
# The main job: set everything up, build, and run the SQLite matrix — a quick selection of it
# (workers 1 and 4, the writer and mixed lanes: 48 runs, about 2 minutes on 2 cores). Extra
# arguments go to `jbench run` (e.g. --out DIR). The whole matrix is one command away:
#   build/bin/jbench run matrices/sqlite.yaml
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/build.sh >&2
exec "${BUILD_DIR:-build}/bin/jbench" run matrices/sqlite.yaml \
  --only workers=1,4 --only lane=writer,mixed "$@"
