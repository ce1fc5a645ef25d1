#include "raw_lines.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "jbench/events/line_reader.h"

namespace jbench::test {

std::vector<std::string> raw_lines(const std::string& path) {
  std::vector<std::string> lines;
  std::size_t overlong = 0;
  const auto read = events::for_each_line(
      path, std::size_t{16} << 20,
      [&](std::size_t, std::string_view line) {
        lines.emplace_back(line);
        return true;
      },
      [&](std::size_t number) { overlong = number; });
  if (!read.error.empty()) throw std::runtime_error(path + ": " + read.error);
  if (overlong != 0) {
    throw std::runtime_error(path + ":" + std::to_string(overlong) + ": a line over 16 MiB");
  }
  return lines;
}

std::size_t write_back_as_plain_text(const std::string& bundle) {
  namespace fs = std::filesystem;
  std::size_t written_back = 0;
  for (const auto& e : fs::directory_iterator(bundle + "/runs")) {
    const std::string dir = e.path().string();
    nlohmann::json run;
    {
      std::ifstream in(dir + "/run.json");
      run = nlohmann::json::parse(in);
    }
    const auto write_back = [&](nlohmann::json& f) {
      const std::string name = f.get<std::string>();
      if (!name.ends_with(".zst")) return;
      const std::string text_name = name.substr(0, name.size() - 4);
      std::ofstream out(dir + "/" + text_name, std::ios::binary);
      for (const auto& line : raw_lines(dir + "/" + name)) out << line << '\n';
      fs::remove(dir + "/" + name);
      f = text_name;
      ++written_back;
    };
    for (auto& c : run["trace_mode"]["collectors"]) {
      if (!c.contains("raw")) continue;
      if (c["raw"].is_string()) write_back(c["raw"]);
      if (c["raw"].is_array()) {
        for (auto& f : c["raw"]) write_back(f);
      }
    }
    std::ofstream(dir + "/run.json", std::ios::trunc) << run.dump(2) << '\n';
  }
  return written_back;
}

}  // namespace jbench::test
