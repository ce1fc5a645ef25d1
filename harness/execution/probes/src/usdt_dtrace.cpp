#include "jbench/probes/usdt_dtrace.h"

#include <fmt/format.h>

#include <charconv>
#include <sstream>
#include <string_view>

namespace jbench {
namespace {

// x86-64 register names, every width, to the uregs[] index regs.d names.
std::optional<std::string_view> ureg_of(std::string_view reg) {
  static const std::map<std::string_view, std::string_view> kRegisters = {
      {"rax", "R_RAX"},  {"eax", "R_RAX"},  {"ax", "R_RAX"},   {"al", "R_RAX"},   {"rbx", "R_RBX"},
      {"ebx", "R_RBX"},  {"bx", "R_RBX"},   {"bl", "R_RBX"},   {"rcx", "R_RCX"},  {"ecx", "R_RCX"},
      {"cx", "R_RCX"},   {"cl", "R_RCX"},   {"rdx", "R_RDX"},  {"edx", "R_RDX"},  {"dx", "R_RDX"},
      {"dl", "R_RDX"},   {"rsi", "R_RSI"},  {"esi", "R_RSI"},  {"si", "R_RSI"},   {"sil", "R_RSI"},
      {"rdi", "R_RDI"},  {"edi", "R_RDI"},  {"di", "R_RDI"},   {"dil", "R_RDI"},  {"rbp", "R_RBP"},
      {"ebp", "R_RBP"},  {"rsp", "R_RSP"},  {"esp", "R_RSP"},  {"r8", "R_R8"},    {"r8d", "R_R8"},
      {"r8w", "R_R8"},   {"r8b", "R_R8"},   {"r9", "R_R9"},    {"r9d", "R_R9"},   {"r9w", "R_R9"},
      {"r9b", "R_R9"},   {"r10", "R_R10"},  {"r10d", "R_R10"}, {"r10w", "R_R10"}, {"r10b", "R_R10"},
      {"r11", "R_R11"},  {"r11d", "R_R11"}, {"r11w", "R_R11"}, {"r11b", "R_R11"}, {"r12", "R_R12"},
      {"r12d", "R_R12"}, {"r12w", "R_R12"}, {"r12b", "R_R12"}, {"r13", "R_R13"},  {"r13d", "R_R13"},
      {"r13w", "R_R13"}, {"r13b", "R_R13"}, {"r14", "R_R14"},  {"r14d", "R_R14"}, {"r14w", "R_R14"},
      {"r14b", "R_R14"}, {"r15", "R_R15"},  {"r15d", "R_R15"}, {"r15w", "R_R15"}, {"r15b", "R_R15"},
  };
  const auto it = kRegisters.find(reg);
  if (it == kRegisters.end()) return std::nullopt;
  return it->second;
}

std::optional<std::int64_t> integer(std::string_view text) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

}  // namespace

std::optional<std::string> usdt_argument_expression(const std::string& argument) {
  // The size, read as the contract check reads it (stapsdt.h), then held to C's integer widths.
  const auto sizes = sdt_arg_sizes(argument);
  if (!sizes || sizes->size() != 1) return std::nullopt;
  const int size = sizes->front();
  if (size != 1 && size != 2 && size != 4 && size != 8 && size != -1 && size != -2 && size != -4 &&
      size != -8) {
    return std::nullopt;
  }
  const auto at = argument.find('@');
  const std::string type =
      fmt::format("{}int{}_t", size < 0 ? "" : "u", 8 * (size < 0 ? -size : size));
  const std::string_view where = std::string_view(argument).substr(at + 1);
  if (where.starts_with("%")) {
    const auto reg = ureg_of(where.substr(1));
    if (!reg) return std::nullopt;
    return fmt::format("({})uregs[{}]", type, *reg);
  }
  if (where.starts_with("$")) {
    const auto value = integer(where.substr(1));
    if (!value) return std::nullopt;
    return fmt::format("({}){}", type, *value);
  }
  // "disp(%reg)": the value in memory at the register plus the displacement.
  const auto open = where.find("(%");
  if (open == std::string_view::npos || !where.ends_with(")")) return std::nullopt;
  const auto displacement =
      open == 0 ? std::optional<std::int64_t>(0) : integer(where.substr(0, open));
  const auto reg = ureg_of(where.substr(open + 2, where.size() - open - 3));
  if (!displacement || !reg) return std::nullopt;
  const int bytes = static_cast<int>(size < 0 ? -size : size);
  return fmt::format("*({} *)copyin(uregs[{}] + ({}), {})", type, *reg, *displacement, bytes);
}

UsdtPlacement place_usdt_sites(const std::vector<SdtProbe>& probes,
                               const elf::FunctionTable& functions) {
  UsdtPlacement out;
  for (const SdtProbe& p : probes) {
    const std::string where = fmt::format("{}:{} at 0x{:x}", p.provider, p.name, p.pc);
    const elf::Function* f = functions.covering(p.pc);
    if (!f) {
      out.problems.push_back(where + ": no function symbol covers the site");
      continue;
    }
    UsdtSite site{p, f->name, p.pc - f->start, {}};
    std::istringstream args(p.args);
    bool readable = true;
    for (std::string a; args >> a;) {
      auto expression = usdt_argument_expression(a);
      if (!expression) {
        out.problems.push_back(fmt::format("{}: argument '{}' is not a form D can read", where, a));
        readable = false;
        break;
      }
      site.arguments.push_back(std::move(*expression));
    }
    if (readable) out.sites.push_back(std::move(site));
  }
  return out;
}

std::string usdt_pid_clauses(pid_t pid, const std::string& module,
                             const std::vector<UsdtSite>& sites,
                             const std::map<std::string, std::string>& bodies) {
  std::string out;
  for (const UsdtSite& s : sites) {
    const auto body = bodies.find(s.probe.name);
    if (body == bodies.end()) continue;
    // Each {argN} becomes the argument's expression, typed by the note: D's clause-local
    // variables (this->) take one type for the whole program, which a signed argument of one
    // probe and an unsigned one of another would not share.
    std::string text = body->second;
    for (std::size_t i = 0; i < s.arguments.size(); ++i) {
      const std::string placeholder = fmt::format("{{arg{}}}", i);
      for (auto at = text.find(placeholder); at != std::string::npos;
           at = text.find(placeholder, at)) {
        text.replace(at, placeholder.size(), "(" + s.arguments[i] + ")");
        at += s.arguments[i].size() + 2;
      }
    }
    out += fmt::format("pid{}:{}:{}:{:x} {{\n  {}\n}}\n", pid, module, s.function, s.offset, text);
  }
  return out;
}

std::map<std::string, std::string> usdt_printing_bodies(const ProbeContract& contract) {
  std::map<std::string, std::string> bodies;
  for (const ContractProbe& p : contract.probes) {
    std::string format = "probe " + p.name;
    std::string values;
    for (std::size_t i = 0; i < p.arg_sizes.size(); ++i) {
      const bool text =
          i < p.arg_types.size() && p.arg_types[i].find("char *") != std::string::npos;
      format += text ? " %s" : p.arg_sizes[i] < 0 ? " %d" : " %u";
      values += text ? fmt::format(", copyinstr({{arg{}}})", i) : fmt::format(", {{arg{}}}", i);
    }
    bodies[p.name] = fmt::format("printf(\"{}\\n\"{});", format, values);
  }
  return bodies;
}

}  // namespace jbench
