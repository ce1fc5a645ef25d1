#!/usr/bin/env bash
# Installs everything jbench needs to build, test and run, from Debian 12 packages only.
# Idempotent: packages already present are not reinstalled; safe to run on every build.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config python3
  libbenchmark-dev libyaml-cpp-dev libboost-dev libboost-filesystem-dev
  nlohmann-json3-dev libfmt-dev libgtest-dev libgmock-dev libcli11-dev libspdlog-dev
  libssl-dev libsqlite3-dev sqlite3 systemtap-sdt-dev bpftrace strace chezscheme
  libarchive-dev zstd libzstd-dev clang-format ccache lld clang llvm libbpf-dev bpftool zlib1g-dev
  valgrind # counted runs: callgrind counts the workers' instructions (docs/trace-modes.md)
  chromium # the HTML report's browser test (tests/report_html): headless, no display needed
  slurmctld slurmd slurm-client munge # the Slurm backend's test: a private single-node Slurm (tests/slurm)
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi

if [ "${#missing[@]}" -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# valijson is header-only, but its Debian package pulls every adapter it supports (~170
# packages). Unpack just the package into a private prefix instead; CMake finds it there.
prefix="${JBENCH_DEPS_PREFIX:-/opt/jbench-deps}"
if [ ! -f "$prefix/usr/share/cmake/valijson/valijsonConfig.cmake" ]; then
  echo "install-deps: unpacking libvalijson-dev into $prefix" >&2
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && apt-get download libvalijson-dev >/dev/null 2>&1 || { $SUDO apt-get update -qq && apt-get download libvalijson-dev >/dev/null; })
  $SUDO mkdir -p "$prefix"
  $SUDO dpkg-deb -x "$tmp"/libvalijson-dev_*.deb "$prefix"
fi
# Kernel-side tracing (bpftrace's syscall tracepoints) needs tracefs; some hosts do not mount it.
# Mounting needs root; without it `jbench doctor` says so and the syscall collector falls back.
if [ -d /sys/kernel/tracing ] && [ ! -e /sys/kernel/tracing/events ] && [ "$(id -u)" = 0 ]; then
  mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null ||
    echo "install-deps: could not mount tracefs on /sys/kernel/tracing" >&2
fi
echo "install-deps: ok" >&2
