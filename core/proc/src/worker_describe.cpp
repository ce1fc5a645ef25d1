#include "jbench/proc/worker_describe.h"

#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>

#include "jbench/common/path_search.h"
#include "jbench/proc/run_tool.h"

namespace jbench::proc {

std::string worker_program(std::string_view word) {
  if (word.find('/') == std::string_view::npos) return find_on_path(word);
  std::error_code ec;
  const auto absolute = std::filesystem::absolute(std::filesystem::path(word), ec);
  const std::string path = ec ? std::string(word) : absolute.lexically_normal().string();
  return access(path.c_str(), X_OK) == 0 ? path : std::string();
}

Result<std::string> ask_worker_to_describe(const std::vector<std::string>& command,
                                           int timeout_ms) {
  const std::string shown = fmt::format("'{}'", command.empty() ? "" : command.front());
  const std::string program = command.empty() ? "" : worker_program(command.front());
  auto wrong = [](std::string why) { return Error{std::move(why), 0, ErrorKind::input}; };
  if (program.empty()) {
    return wrong(fmt::format(
        "the worker {} is not an executable file{}", shown,
        command.empty() || command.front().find('/') != std::string::npos ? "" : " on PATH"));
  }
  std::vector<std::string> argv = command;
  argv.front() = program;
  argv.emplace_back("describe");
  const ToolRun run = run_to_completion(argv, std::nullopt, timeout_ms, std::size_t{1} << 20);
  const std::string asked = fmt::format("{} describe", shown);
  if (!run.started) {
    return Error{fmt::format("{} could not start: {}", asked, run.error), 0, ErrorKind::host};
  }
  if (run.timed_out)
    return wrong(fmt::format("{} gave no answer within {} s", asked, timeout_ms / 1000));
  if (run.signaled || run.exit_code != 0) {
    return wrong(fmt::format(
        "{} failed ({}){}", asked,
        run.signaled ? fmt::format("signal {}", run.signal) : fmt::format("exit {}", run.exit_code),
        run.err.empty() ? "" : ": " + run.err.substr(0, 200)));
  }
  if (run.out.empty() || run.out.back() != '\n' || run.out.find('\n') != run.out.size() - 1) {
    return wrong(fmt::format("{} must print exactly one line, its declaration", asked));
  }
  return run.out.substr(0, run.out.size() - 1);
}

}  // namespace jbench::proc
