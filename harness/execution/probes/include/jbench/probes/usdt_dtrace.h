// A binary's USDT probes for DTrace's pid provider, where the host's DTrace cannot register them
// as a provider (DTrace for Linux needs CUSE for that, and it does not read systemtap's notes):
// each probe site of a `.note.stapsdt` note becomes an instruction-offset probe of its function,
// `pid<PID>:<module>:<function>:<offset>`, and each argument the D expression that reads it from
// the registers or memory the note names. The sites fire only where their semaphores are armed
// (usdt_semaphores.h). Pure: notes and symbols in, D text out.
//
//   auto placed = place_usdt_sites(read_sdt_notes(so).probes, elf::read_function_table_of(so));
//   std::string d = usdt_pid_clauses(pid, "libjbench_bridge.so.1", placed.sites,
//                                    {{"span__end", "printf(\"%u\\n\", {arg0});"}});
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "jbench/elf/functions.h"
#include "jbench/probes/contract.h"
#include "jbench/probes/stapsdt.h"

namespace jbench {

struct UsdtSite {
  SdtProbe probe;
  std::string function;  // the symbol whose code holds the site, as the file names it
  std::uint64_t offset = 0;
  std::vector<std::string> arguments;  // D expressions, one per argument of the note
};

struct UsdtPlacement {
  std::vector<UsdtSite> sites;
  std::vector<std::string> problems;  // sites that cannot be placed, and why
};

// The D expression of one stapsdt argument ("8@%rsi" -> "(uint64_t)uregs[R_RSI]", "-4@%edi" ->
// "(int32_t)uregs[R_RDI]", "8@-16(%rbp)" -> a copyin of 8 bytes at uregs[R_RBP] - 16, "4@$5" ->
// "(uint32_t)5"), x86-64 only; nullopt for a form it does not read (an indexed address).
std::optional<std::string> usdt_argument_expression(const std::string& argument);

// Each note's site located in its function; a site in no function, or with an argument no
// expression reads, is a problem, never a guess.
UsdtPlacement place_usdt_sites(const std::vector<SdtProbe>& probes,
                               const elf::FunctionTable& functions);

// One clause per site of the probes `bodies` names, in process `pid` and module `module` (the
// file's name as the process maps it): the body with each {argN} replaced by the N-th argument's
// expression.
std::string usdt_pid_clauses(pid_t pid, const std::string& module,
                             const std::vector<UsdtSite>& sites,
                             const std::map<std::string, std::string>& bodies);

// A body per probe of `contract` that prints "probe <name> <arg> ..." on a line: strings copied
// in (%s), signed arguments with %d, the others with %u.
std::map<std::string, std::string> usdt_printing_bodies(const ProbeContract& contract);

}  // namespace jbench
