// What probe_target.c `fire` passes, the two linkages it is built with, and the reading of a
// tracer's "probe NAME ARGS..." lines: shared by the tests that watch `fire` through bpftrace
// (probe_test.cpp) and through DTrace (dtrace_probe_test.cpp).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <ostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace jbench {

// What probe_target.c `fire` passes.
inline constexpr const char* kSpanName = "probe-span";
inline constexpr const char* kPhase = "probe-phase";
inline constexpr const char* kDone = "probe-done";
inline constexpr const char* kCounter = "probe-counter";
inline constexpr std::int64_t kCounterValue = -42;
inline constexpr std::uint64_t kGeneration = 2;
inline constexpr std::uint64_t kBytesBefore = 4096;
inline constexpr std::uint64_t kBytesAfter = 1024;
inline constexpr std::uint64_t kAllocBytes = 96;
inline constexpr const char* kAllocSite = "probe-site";
inline constexpr const char* kProviderProbes[] = {"span__begin", "span__end", "canary",
                                                  "gc__begin",   "gc__end",   "alloc__sample",
                                                  "counter",     "phase"};

struct Linkage {
  const char* name;
  std::string program;
  std::string probes_in;  // the file whose ELF notes hold the probes
};

inline void PrintTo(const Linkage& linkage, std::ostream* os) { *os << linkage.program; }

inline const Linkage kLinkages[] = {{"Shared", PROBE_TARGET_SHARED, JBENCH_BRIDGE_SO},
                                    {"Static", PROBE_TARGET_STATIC, PROBE_TARGET_STATIC}};

inline std::uint64_t hex(const std::string& text) { return std::stoull(text, nullptr, 16); }

// "probe NAME ARGS..." lines of a tracer's output: NAME -> its argument lists.
inline std::multimap<std::string, std::vector<std::string>> seen_probes(const std::string& out) {
  std::multimap<std::string, std::vector<std::string>> seen;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string tag, name;
    if (!(words >> tag >> name) || tag != "probe") continue;
    std::vector<std::string> args;
    for (std::string w; words >> w;) args.push_back(w);
    seen.emplace(name, args);
  }
  return seen;
}

// Every argument `fire` passed, as a tracer printed it ("probe NAME ARGS..." lines read by
// seen_probes): the span and its id, the canary, the GC pair, the allocation sample, the signed
// counter, both phases.
inline void expect_fire_arguments(const std::multimap<std::string, std::vector<std::string>>& seen,
                                  std::uint64_t span) {
  using Args = std::vector<std::string>;
  const auto args = [&](const char* probe) {
    const auto it = seen.find(probe);
    return it == seen.end() ? Args{"(not seen)"} : it->second;
  };
  EXPECT_EQ(args("span__begin"), (Args{std::to_string(span), "0", kSpanName}));
  EXPECT_EQ(args("span__end"), Args{std::to_string(span)});
  EXPECT_EQ(args("canary"), Args{"0"});
  EXPECT_EQ(args("gc__begin"), (Args{std::to_string(kGeneration), std::to_string(kBytesBefore)}));
  EXPECT_EQ(args("gc__end"), (Args{std::to_string(kGeneration), std::to_string(kBytesAfter)}));
  EXPECT_EQ(args("alloc__sample"), (Args{std::to_string(kAllocBytes), kAllocSite}));
  EXPECT_EQ(args("counter"), (Args{kCounter, std::to_string(kCounterValue)}));
  std::set<std::string> phases;
  for (auto [it, end] = seen.equal_range("phase"); it != end; ++it) phases.insert(it->second[0]);
  EXPECT_EQ(phases, (std::set<std::string>{kPhase, kDone}));
}

}  // namespace jbench
