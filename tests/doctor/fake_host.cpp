#include "fake_host.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace jbench::test {

FakeRoot::FakeRoot() {
  status(0, "000001ffffffffff");
  file("proc/sys/kernel/perf_event_paranoid", "2\n");
  file("proc/sys/kernel/yama/ptrace_scope", "1\n");
  file("proc/sys/kernel/unprivileged_bpf_disabled", "2\n");
  file("sys/kernel/security/lockdown", "[none] integrity confidentiality\n");
  mkdir("sys/kernel/tracing/events/syscalls/sys_enter_openat");
  file("sys/bus/event_source/devices/uprobe/type", "7\n");
}

void FakeRoot::file(const std::string& relative, const std::string& content) const {
  const std::filesystem::path full = std::filesystem::path(path()) / relative;
  std::filesystem::create_directories(full.parent_path());
  std::ofstream out(full, std::ios::binary);
  out << content;
  if (!out) throw std::runtime_error("cannot write " + full.string());
}

void FakeRoot::mkdir(const std::string& relative) const {
  std::filesystem::create_directories(std::filesystem::path(path()) / relative);
}

void FakeRoot::remove(const std::string& relative) const {
  std::filesystem::remove_all(std::filesystem::path(path()) / relative);
}

void FakeRoot::status(long euid, const std::string& cap_eff_hex) const {
  const std::string uid = std::to_string(euid);
  file("proc/self/status", "Name:\tjbench\nUid:\t" + uid + "\t" + uid + "\t" + uid + "\t" + uid +
                               "\nCapInh:\t0000000000000000\nCapPrm:\t" + cap_eff_hex +
                               "\nCapEff:\t" + cap_eff_hex + "\n");
}

std::string FakeTools::script(const std::string& name, const std::string& body) const {
  const std::string full = dir_.write(name, "#!/bin/sh\n" + body);
  ::chmod(full.c_str(), 0755);
  return full;
}

void FakeTools::link(const std::string& name, const std::string& target) const {
  std::filesystem::create_symlink(target, std::filesystem::path(path()) / name);
}

nlohmann::json check_named(const nlohmann::json& caps, const std::string& name) {
  for (const auto& c : caps.at("checks")) {
    if (c.at("name") == name) return c;
  }
  ADD_FAILURE() << "no check named " << name << " in " << caps.dump(2);
  return nlohmann::json::object();
}

}  // namespace jbench::test
