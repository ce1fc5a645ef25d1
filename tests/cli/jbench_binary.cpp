#include "jbench_binary.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace jbench::test {

std::string jbench_binary() { return JBENCH_BINARY; }

ProcessResult run_jbench(const std::vector<std::string>& args, const std::string& cwd) {
  std::vector<std::string> argv{jbench_binary()};
  argv.insert(argv.end(), args.begin(), args.end());
  ProcessOptions options;
  options.cwd = cwd.empty() ? source_dir() : cwd;
  options.timeout = std::chrono::seconds(60);
  return run_process(argv, options);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace jbench::test
