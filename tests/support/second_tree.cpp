#include "second_tree.h"

#include <chrono>
#include <fstream>
#include <iostream>

#include "run_process.h"

namespace jbench::test {
namespace {

std::vector<std::string> lines_of(const std::string& path) {
  std::vector<std::string> args;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) args.push_back(line);
  }
  return args;
}

ProcessOptions with_timeout(std::chrono::seconds timeout) {
  ProcessOptions options;
  options.timeout = timeout;
  return options;
}

}  // namespace

std::string build_second_tree(const std::string& cmake_command, const std::string& args_file,
                              const std::string& tree, const std::vector<std::string>& targets,
                              const std::string& label) {
  const auto started = std::chrono::steady_clock::now();
  const auto args = lines_of(args_file);
  if (args.empty()) return "no configure command in " + args_file;
  const auto configure = run_process(args, with_timeout(std::chrono::seconds(300)));
  if (configure.timed_out || configure.exit_code != 0) {
    return "configure failed:\n" + configure.out + configure.err;
  }
  std::vector<std::string> build = {cmake_command, "--build", tree};
  for (const auto& target : targets) {
    build.push_back("--target");
    build.push_back(target);
  }
  build.insert(build.end(), {"-j", "2"});
  const auto built = run_process(build, with_timeout(std::chrono::seconds(1000)));
  if (built.timed_out || built.exit_code != 0) {
    return std::string(built.timed_out ? "build timed out:\n" : "build failed:\n") + built.out +
           built.err;
  }
  const auto seconds =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - started)
          .count();
  std::cout << label << " tree configured and built in " << seconds << " s\n";
  return {};
}

}  // namespace jbench::test
