// `jbench slurm MATRIX --shards N [--submit [--wait]]`: the matrix as a Slurm job array, task K
// running shard K/N, and the merge as a job that starts when every task has ended
// (docs/distributed.md). Writes the two batch scripts; --submit hands them to sbatch.
#include <fmt/format.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "commands.h"
#include "jbench/cli/cli.h"
#include "jbench/common/path_search.h"
#include "jbench/proc/run_tool.h"
#include "jbench/scheduler/slurm_script.h"
#include "sharded_input.h"

namespace jbench::cli {
namespace {

namespace fs = std::filesystem;

struct SlurmCli {
  ShardedInput input;
  scheduler::SlurmOptions slurm;
  std::string out = "bundles";
  std::optional<std::uint32_t> task_minutes;
  bool share_nodes = false;
  bool submit = false;
  bool wait = false;
};

// Slurm reads #SBATCH lines without a shell: a path there cannot be quoted.
bool fits_sbatch_line(const std::string& path) {
  return path.find_first_of(" \t\n%\"'\\") == std::string::npos;
}

bool write_script(const fs::path& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  f.close();
  if (!f || ::chmod(path.c_str(), 0755) != 0) {
    std::cerr << fmt::format("jbench: error: cannot write {}\n", path.string());
    return false;
  }
  return true;
}

// The job id `sbatch --parsable` printed ("<id>" or "<id>;<cluster>"), or "" after saying why.
std::string submitted_id(const proc::ToolRun& r, const std::string& what) {
  if (!r.started || r.timed_out || r.signaled || r.exit_code != 0) {
    std::cerr << fmt::format("jbench: error: sbatch refused {}: {}{}\n", what,
                             r.started ? r.err : r.error,
                             r.timed_out ? " (no answer within its time)" : "");
    return "";
  }
  std::string id = r.out.substr(0, r.out.find_first_of(";\n"));
  if (id.empty()) std::cerr << "jbench: error: sbatch printed no job id for " << what << '\n';
  return id;
}

// The job's folder, <out>/<name>.slurm with logs/ and shards/; refused when its path cannot go
// into an #SBATCH line, or when it or the merged bundle's name exists. An exit code, kExitOk
// when made.
int make_job_dir(const fs::path& out, const std::string& name, const fs::path& job_dir) {
  std::error_code ec;
  if (!fits_sbatch_line(job_dir.string())) {
    std::cerr << fmt::format(
        "jbench: error: --out {}: a path in #SBATCH lines cannot hold spaces, quotes, '%' or "
        "'\\'\n",
        out.string());
    return kExitUsage;
  }
  if (fs::exists(job_dir, ec) || fs::exists(out / name, ec)) {
    std::cerr << fmt::format("jbench: error: {} or {} exists: choose another --name\n",
                             job_dir.string(), (out / name).string());
    return kExitUsage;
  }
  fs::create_directories(job_dir / "logs", ec);
  fs::create_directories(job_dir / "shards", ec);
  if (ec) {
    std::cerr << fmt::format("jbench: error: cannot make {}: {}\n", job_dir.string(), ec.message());
    return kExitInternal;
  }
  return kExitOk;
}

// The array job submitted, then the merge job to run after it; with --wait, until the merge
// ends (bounded by every wave of tasks at its time limit, then the merge's).
int submit_jobs(const SlurmCli& o, const scheduler::ShardedRun& run, const std::string& sbatch,
                const fs::path& array, const fs::path& merge) {
  const std::string array_id = submitted_id(
      proc::run_to_completion({sbatch, "--parsable", array.string()}, std::nullopt, 60'000),
      "the array");
  if (array_id.empty()) return kExitCheckFailed;
  std::vector<std::string> argv = {sbatch};
  for (auto& a : scheduler::slurm_merge_submission(array_id)) argv.push_back(a);
  int timeout_ms = 60'000;
  if (o.wait) {
    argv.push_back("--wait");
    const std::uint32_t waves =
        o.input.parallel ? (run.shards + o.input.parallel - 1) / o.input.parallel : 1;
    const std::uint64_t minutes =
        std::uint64_t{waves} * o.slurm.task_minutes + o.slurm.merge_minutes + 5;
    timeout_ms = static_cast<int>(std::min<std::uint64_t>(minutes * 60'000, 0x7fffffff));
  }
  argv.push_back(merge.string());
  std::cerr << fmt::format("submitted array job {} ({} tasks); ", array_id, run.shards);
  const proc::ToolRun merge_run = proc::run_to_completion(argv, std::nullopt, timeout_ms);
  if (!o.wait) {
    const std::string merge_id = submitted_id(merge_run, "the merge");
    if (merge_id.empty()) return kExitCheckFailed;
    std::cerr << fmt::format(
        "merge job {} starts when they have all ended.\nwatch: squeue -j {},{}\nthen:  "
        "{} validate {}\n",
        merge_id, array_id, merge_id, run.jbench, run.merged);
    std::cout << run.merged << '\n';
    return kExitOk;
  }
  const std::string merge_id = merge_run.out.substr(0, merge_run.out.find_first_of(";\n"));
  std::cerr << fmt::format("merge job {} {}; its log: {}/merge.out\n", merge_id,
                           merge_run.timed_out ? "did not end in time (still queued or running)"
                           : merge_run.exit_code == 0
                               ? "ended: merged"
                               : fmt::format("ended with exit {}", merge_run.exit_code),
                           o.slurm.log_dir);
  std::cout << run.merged << '\n';
  if (merge_run.timed_out || !merge_run.started) return kExitCheckFailed;
  return merge_run.exit_code == 0 ? kExitOk : kExitCheckFailed;
}

int run_slurm(SlurmCli& o) {
  const auto plan = plan_shards(o.input);
  if (!plan) return kExitUsage;
  const auto name = job_name(o.input.name, plan->whole, false, 128);
  if (!name) return kExitUsage;
  const std::string sbatch = o.submit ? find_on_path("sbatch") : "";
  if (o.submit && sbatch.empty()) {
    std::cerr << "jbench: error: sbatch is not on PATH: submit from a Slurm login node, or "
                 "write the scripts without --submit and submit them there\n";
    return kExitUsage;
  }
  std::error_code ec;
  const fs::path out = fs::absolute(o.out, ec);
  const fs::path job_dir = out / (*name + ".slurm");
  if (const int made = make_job_dir(out, *name, job_dir); made != kExitOk) return made;

  scheduler::ShardedRun run;
  run.jbench = beside_self_executable("jbench");  // not this jbench-slurm: the shards run jbench
  run.matrix = fs::absolute(o.input.plan.matrix, ec).string();
  run.run_args = run_arguments(o.input.plan);
  run.shards = o.input.shards;
  run.parallel = o.input.parallel;
  run.shard_dir = (job_dir / "shards").string();
  run.merged = (out / *name).string();
  run.name = *name;
  o.slurm.log_dir = (job_dir / "logs").string();
  o.slurm.exclusive = !o.share_nodes;
  // The longest shard's bound (every run at its timeout) and a margin for building datasets.
  o.slurm.task_minutes = o.task_minutes.value_or(
      static_cast<std::uint32_t>((plan->longest_bound_ms + 59'999) / 60'000 + 15));
  o.slurm.merge_minutes = plan->merge_minutes;
  const fs::path array = job_dir / "array.sbatch", merge = job_dir / "merge.sbatch";
  if (!write_script(array, scheduler::slurm_array_script(run, o.slurm)) ||
      !write_script(merge, scheduler::slurm_merge_script(run, o.slurm))) {
    return kExitInternal;
  }
  std::cerr << fmt::format("wrote {} ({} tasks, --time {} min each) and {} (--time {} min)\n",
                           array.string(), run.shards, o.slurm.task_minutes, merge.string(),
                           o.slurm.merge_minutes);
  if (o.submit) return submit_jobs(o, run, sbatch, array, merge);
  std::cerr << fmt::format(
      "submit: id=$(sbatch --parsable {}) && sbatch --dependency=afterany:$id "
      "--kill-on-invalid-dep=no {}\n      (or run this again with --submit)\n",
      array.string(), merge.string());
  std::cout << job_dir.string() << '\n';
  return kExitOk;
}

}  // namespace

Action add_slurm_command(CLI::App& app) {
  auto o = std::make_shared<SlurmCli>();
  add_sharded_input_options(app, o->input);
  app.add_option("--out", o->out,
                 "where <name>.slurm/ (scripts, logs, shard bundles) and the merged bundle go; "
                 "every node must see it (default: bundles/)");
  app.add_option("--time", o->task_minutes,
                 "each task's time limit in minutes (default: the longest shard's bound, every "
                 "run at its timeout, plus 15)")
      ->check(CLI::Range(1, 525'600));
  app.add_option("--partition", o->slurm.partition, "the partition to run in");
  app.add_option("--sbatch-option", o->slurm.sbatch_options,
                 "another option for both jobs, written as an #SBATCH line (repeatable)")
      ->type_name("OPT");
  app.add_flag("--share-nodes", o->share_nodes,
               "let other jobs share a task's node (by default --exclusive: timings are the "
               "point)");
  auto* submit =
      app.add_flag("--submit", o->submit, "submit the array and the dependent merge with sbatch");
  app.add_flag("--wait", o->wait,
               "with --submit: return when the merge has ended, with its exit code")
      ->needs(submit);
  app.footer(
      "Writes <out>/<name>.slurm/array.sbatch (--array=0-(N-1)%P, task K runs `jbench run "
      "--shard K/N`) and merge.sbatch (`jbench merge <out>/<name> <the shard bundles>`, to run "
      "after the array with --dependency=afterany). The matrix, jbench and --out must be on a "
      "file system every node sees.\n"
      "Exit codes: 0 written (and submitted; with --wait: merged and valid), 1 sbatch refused or "
      "the merge failed, 2 bad usage or input.");
  return [o] { return run_slurm(*o); };
}

}  // namespace jbench::cli
