#include "unknown_words.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>

#include "jbench/common/text.h"

namespace jbench::cli {
namespace {

std::string suggestion(const std::string& word, const std::vector<std::string>& names) {
  const auto near = nearest_names(word, names);
  if (near.empty()) return fmt::format(" (one of: {})", fmt::join(names, ", "));
  return fmt::format(" (did you mean '{}'?)", fmt::join(near, "' or '"));
}

// Every option word `app` takes: "--name" and "-n" forms, help included.
std::vector<std::string> option_words(const CLI::App& app) {
  std::vector<std::string> out;
  for (const CLI::Option* o : app.get_options()) {
    for (const auto& l : o->get_lnames()) out.push_back("--" + l);
    for (const auto& s : o->get_snames()) out.push_back("-" + s);
  }
  return out;
}

bool is_option_word(const std::string& a) {
  // "-" alone is a file (stdin), "-1" a number; "--" ends the options.
  return a.size() > 1 && a[0] == '-' && a != "--" &&
         !std::isdigit(static_cast<unsigned char>(a[1]));
}

}  // namespace

std::vector<std::string> nearest_names(const std::string& word,
                                       const std::vector<std::string>& names) {
  const std::size_t limit = std::max<std::size_t>(2, word.size() / 3);
  std::vector<std::pair<std::size_t, std::string>> near;
  for (const auto& n : names) {
    const std::size_t d = edit_distance(word, n);
    if (d <= limit || (word.size() >= 3 && n.rfind(word, 0) == 0)) near.emplace_back(d, n);
  }
  std::stable_sort(near.begin(), near.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> out;
  for (auto& [d, n] : near) out.push_back(std::move(n));
  return out;
}

Status check_known_words(CLI::App& app, const std::vector<std::string>& args) {
  const auto unknown = [](std::string why) { return Error{std::move(why), 0, ErrorKind::input}; };
  CLI::App* command = nullptr;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") break;
    const bool option = is_option_word(a);
    if (!command && !option) {
      std::vector<std::string> commands;
      for (CLI::App* sub : app.get_subcommands({})) {
        commands.push_back(sub->get_name());
        if (sub->get_name() == a) command = sub;
      }
      if (!command)
        return unknown(fmt::format("unknown command '{}'{}", a, suggestion(a, commands)));
      continue;
    }
    if (!option) continue;
    CLI::App& owner = command ? *command : app;
    const std::string name = a.substr(0, a.find('='));
    const CLI::Option* o = owner.get_option_no_throw(name);
    if (!o) {
      const std::string where = command ? "'jbench " + command->get_name() + "'" : "jbench";
      return unknown(fmt::format("unknown option '{}' for {}{}", name, where,
                                 suggestion(name, option_words(owner))));
    }
    // Its value, as a separate word, is not an option word even when it begins with '-'.
    if (a.find('=') == std::string::npos && o->get_expected_min() > 0) ++i;
  }
  return {};
}

}  // namespace jbench::cli
