// Fake inputs for the capability probe: a root holding proc/ and sys/ files, and a directory of
// fake tools to use as PATH.
//
//   FakeRoot root;                         // a host where everything is allowed
//   root.file("proc/sys/kernel/perf_event_paranoid", "3\n");
//   FakeTools tools;
//   tools.script("bpftrace", "echo 'bpftrace v0.99.0'\nexit 1\n");
//   auto caps = probe_capabilities({.root = root.path(), .path_env = tools.path()});
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "temp_dir.h"

namespace jbench::test {

class FakeRoot {
 public:
  // Starts as a permissive Linux host: root with every capability, Yama scope 1, paranoid 2,
  // unprivileged BPF disabled (2), lockdown none, tracefs with sys_enter_openat, a uprobe PMU.
  FakeRoot();
  const std::string& path() const { return dir_.path(); }
  // Writes path()/relative, creating its directories.
  void file(const std::string& relative, const std::string& content) const;
  void mkdir(const std::string& relative) const;
  void remove(const std::string& relative) const;
  // The /proc/self/status of a process with this effective uid and capability mask.
  void status(long euid, const std::string& cap_eff_hex) const;

 private:
  TempDir dir_;
};

class FakeTools {
 public:
  const std::string& path() const { return dir_.path(); }
  // An executable path()/name running `body` under /bin/sh.
  std::string script(const std::string& name, const std::string& body) const;
  // path()/name -> target.
  void link(const std::string& name, const std::string& target) const;

 private:
  TempDir dir_;
};

// The check called `name` in a capability document (fails the test when absent).
nlohmann::json check_named(const nlohmann::json& caps, const std::string& name);

}  // namespace jbench::test
