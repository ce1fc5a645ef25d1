#include "jbench/scheduler/sharded_run.h"

#include <fmt/format.h>

#include <algorithm>

namespace jbench::scheduler {

std::string shell_word(const std::string& word) {
  const bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           std::string_view("@%+=:,./_-").find(c) != std::string_view::npos;
  });
  if (plain) return word;
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::uint32_t merge_bound_minutes(std::uint64_t runs, std::uint64_t output_mib_per_run) {
  const std::uint64_t read_mib = 2 * runs * output_mib_per_run;
  const std::uint64_t minutes =
      (read_mib + kMergeReadMibPerSecond * 60 - 1) / (kMergeReadMibPerSecond * 60) + 15;
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(minutes, 525'600));  // a year
}

std::string shard_task_script(const ShardedRun& run, const std::string& index_expression) {
  // The index is given with N, never read back from the scheduler's own count: a task run
  // again alone (sbatch --array=2) is still shard 2 of N.
  std::string run_line =
      fmt::format("exec {} run {} --shard \"$k/{}\" --out \"$dir\" --name \"shard-$k\"",
                  shell_word(run.jbench), shell_word(run.matrix), run.shards);
  for (const auto& a : run.run_args) run_line += " " + shell_word(a);
  return fmt::format(
      "k=\"{index}\"\n"
      "dir={dir}\n"
      "if [ -d \"$dir/shard-$k\" ]; then\n"
      "  echo \"shard-$k is already complete in $dir: nothing to do\" >&2\n"
      "  exit 0\n"
      "fi\n"
      "for earlier in \"$dir/shard-$k.interrupted\" \"$dir/shard-$k.invalid\"; do\n"
      "  if [ -e \"$earlier\" ]; then\n"
      "    mkdir -p \"$dir/earlier\"\n"
      "    mv \"$earlier\" \"$dir/earlier/${{earlier##*/}}.$(date +%s)\"\n"
      "  fi\n"
      "done\n"
      "{run_line}\n",
      fmt::arg("index", index_expression), fmt::arg("dir", shell_word(run.shard_dir)),
      fmt::arg("run_line", run_line));
}

std::string merge_commands(const ShardedRun& run) {
  return fmt::format(
      "dir={dir}\n"
      "shopt -s nullglob\n"
      "shards=(\"$dir\"/shard-*)\n"
      "if [ \"${{#shards[@]}}\" -eq 0 ]; then\n"
      "  echo \"jbench merge: no shard bundle in $dir: every task failed before writing one "
      "(see its log)\" >&2\n"
      "  exit 1\n"
      "fi\n"
      "exec {jbench} merge {merged} \"${{shards[@]}}\"\n",
      fmt::arg("dir", shell_word(run.shard_dir)), fmt::arg("jbench", shell_word(run.jbench)),
      fmt::arg("merged", shell_word(run.merged)));
}

}  // namespace jbench::scheduler
