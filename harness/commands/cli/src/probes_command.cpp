// `jbench probes BINARY [--json] [--contract FILE]`: the USDT probes a binary carries (its ELF
// stapsdt notes) checked against the bridge's ABI contract before any collection relies on
// them. Exit 0: every contract probe is there, as the contract says; 1: findings; 2: bad usage
// or a file that cannot be read.
//
// `--dtrace PID [--arm | --disarm]`: instead, a D program that reaches those probes in process
// PID through DTrace's pid provider (each site an offset probe, its arguments printed), for a
// DTrace that cannot register USDT providers itself (DTrace for Linux without CUSE); --arm raises
// the probes' semaphores in PID first (they fire only then), --disarm lowers them again.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "commands.h"
#include "jbench/cli/cli.h"
#include "jbench/elf/functions.h"
#include "jbench/probes/contract.h"
#include "jbench/probes/stapsdt.h"
#include "jbench/probes/usdt_dtrace.h"
#include "jbench/probes/usdt_semaphores.h"

namespace jbench::cli {
namespace {

struct ProbesOptions {
  std::string binary;
  std::string contract;  // empty: the compiled-in manifests/bridge-abi-v1.json
  bool json = false;
  pid_t dtrace_pid = 0;  // --dtrace: print the D program for this process
  bool arm = false;
  bool disarm = false;
};

// The D program for DTrace's pid provider in process `pid`, after raising or lowering the
// semaphores as asked. Exit 0, or 2 with the reason (a site that cannot be placed, a process
// that does not map the binary).
int print_dtrace_program(const ProbesOptions& o, const ProbeContract& contract,
                         const SdtNotes& notes) {
  std::error_code ec;
  const std::string binary = std::filesystem::canonical(o.binary, ec).string();
  const elf::FunctionTable functions = elf::read_function_table_of(binary);
  const UsdtPlacement placed = place_usdt_sites(notes.probes, functions);
  if (!placed.problems.empty()) {
    for (const auto& p : placed.problems) std::cerr << "jbench probes: " << p << '\n';
    return kExitUsage;
  }
  if (o.arm || o.disarm) {
    const Status changed =
        add_to_semaphores(o.dtrace_pid, binary, notes.probes, functions, o.arm ? +1 : -1);
    if (!changed) {
      std::cerr << "jbench probes: " << changed.error().message << '\n';
      return kExitUsage;
    }
  }
  std::cout << fmt::format(
      "/* The {} probes of {} in process {}, through DTrace's pid provider (jbench probes "
      "--dtrace).\n   They fire while their semaphores are raised: jbench probes {} --dtrace {} "
      "--arm. */\n#pragma D option quiet\n",
      contract.provider, binary, o.dtrace_pid, o.binary, o.dtrace_pid);
  std::cout << usdt_pid_clauses(o.dtrace_pid, std::filesystem::path(binary).filename().string(),
                                placed.sites, usdt_printing_bodies(contract));
  return kExitOk;
}

std::string hex(std::uint64_t v) { return fmt::format("0x{:x}", v); }

nlohmann::json to_json(const std::string& binary, const ProbeContract& contract,
                       const SdtNotes& notes, const std::vector<ProbeFinding>& findings) {
  nlohmann::json probes = nlohmann::json::array();
  for (const SdtProbe& p : notes.probes) {
    probes.push_back({{"provider", p.provider},
                      {"name", p.name},
                      {"args", p.args},
                      {"pc", hex(p.pc)},
                      {"base", hex(p.base)},
                      {"semaphore", hex(p.semaphore)}});
  }
  nlohmann::json list = nlohmann::json::array();
  for (const ProbeFinding& f : findings) list.push_back({{"code", f.code}, {"message", f.message}});
  nlohmann::json abi = nullptr;
  if (notes.abi) abi = {{"major", notes.abi->major}, {"minor", notes.abi->minor}};
  return {{"binary", binary},
          {"abi_version", abi},
          {"contract",
           {{"provider", contract.provider},
            {"abi_version", {{"major", contract.abi.major}, {"minor", contract.abi.minor}}}}},
          {"probes", probes},
          {"findings", list},
          {"ok", findings.empty()}};
}

void print_text(const std::string& binary, const ProbeContract& contract, const SdtNotes& notes,
                const std::vector<ProbeFinding>& findings) {
  std::cout << fmt::format(
      "{}: bridge ABI {}; contract {} {}.{}\n", binary,
      notes.abi ? fmt::format("{}.{}", notes.abi->major, notes.abi->minor) : std::string("(none)"),
      contract.provider, contract.abi.major, contract.abi.minor);
  std::cout << fmt::format("{} probe site(s)\n", notes.probes.size());
  for (const SdtProbe& p : notes.probes) {
    std::cout << fmt::format("  {}:{}  args \"{}\"  semaphore {}  pc {}\n", p.provider, p.name,
                             p.args, hex(p.semaphore), hex(p.pc));
  }
  if (findings.empty()) {
    std::cout << "ok: the binary carries every probe of the contract\n";
    return;
  }
  for (const ProbeFinding& f : findings) std::cout << fmt::format("{}: {}\n", f.code, f.message);
}

int run_probes(const ProbesOptions& o) {
  std::string text = bridge_contract_json();
  if (!o.contract.empty()) {
    std::ifstream in(o.contract);
    if (!in) {
      std::cerr << fmt::format("jbench probes: cannot read the contract {}\n", o.contract);
      return kExitUsage;
    }
    std::ostringstream s;
    s << in.rdbuf();
    text = s.str();
  }
  const auto contract = load_probe_contract(text);
  if (!contract) {
    std::cerr << fmt::format("jbench probes: {}: {}\n",
                             o.contract.empty() ? "the built-in contract" : o.contract,
                             contract.error().message);
    return kExitUsage;
  }
  const auto read = read_sdt_notes(o.binary);
  if (!read) {
    std::cerr << fmt::format("jbench probes: {}\n", read.error().message);
    return kExitUsage;
  }
  const SdtNotes& notes = *read;
  if (o.dtrace_pid != 0) return print_dtrace_program(o, *contract, notes);
  const auto findings = check_probes(*contract, notes);
  if (o.json) {
    std::cout << to_json(o.binary, *contract, notes, findings).dump(2) << '\n';
  } else {
    print_text(o.binary, *contract, notes, findings);
  }
  return findings.empty() ? kExitOk : kExitCheckFailed;
}

}  // namespace

Action add_probes_command(CLI::App& app) {
  auto o = std::make_shared<ProbesOptions>();
  app.add_option("BINARY", o->binary, "an executable or shared library (64-bit ELF)")->required();
  app.add_flag("--json", o->json, "print the probes and findings as JSON");
  app.add_option("--contract", o->contract,
                 "check against this contract instead of the built-in "
                 "manifests/bridge-abi-v1.json");
  auto* dtrace = app.add_option("--dtrace", o->dtrace_pid,
                                "print a D program reaching the probes in this process through "
                                "DTrace's pid provider (for a DTrace that cannot register USDT)")
                     ->check(CLI::Range(1, 1 << 22));
  auto* arm = app.add_flag("--arm", o->arm, "with --dtrace: raise the probes' semaphores first")
                  ->needs(dtrace);
  app.add_flag("--disarm", o->disarm, "with --dtrace: lower them again")
      ->needs(dtrace)
      ->excludes(arm);
  dtrace->excludes("--json");
  app.footer(
      "Lists the USDT probes in the binary's .note.stapsdt notes and checks them against the "
      "bridge's ABI contract: same major version, every probe present with its argument layout "
      "and a semaphore. Findings: docs/bridge.md. With --dtrace PID: a D program for DTrace's "
      "pid provider instead (docs/collectors/dtrace.md).\nExit codes: 0 the binary carries the "
      "contract's probes (or the program was printed), 1 findings, 2 bad usage, an unreadable "
      "file or a process that does not map it.");
  return [o] { return run_probes(*o); };
}

}  // namespace jbench::cli
