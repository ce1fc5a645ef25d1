// The sections that compare the target with the oracle: the corpus files and the generated
// stream, each first divergence reduced to a script.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <ostream>

#include "jbench/common/random.h"
#include "jbench/oracle/generator.h"
#include "jbench/oracle/instantiate.h"
#include "sections.h"

namespace jbench::oracle_pass {

namespace fs = std::filesystem;

Result<std::vector<oracle::Corpus>> load_corpus(const OracleMatrix& m, const std::string& base) {
  std::vector<std::string> paths;
  for (const std::string& entry : m.corpus) {
    fs::path p = fs::path(entry).is_absolute() ? fs::path(entry) : fs::path(base) / entry;
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      std::vector<std::string> found;
      for (const auto& f : fs::directory_iterator(p, ec)) {
        if (f.path().extension() == ".test") found.push_back(f.path().lexically_normal().string());
      }
      if (found.empty()) {
        return Error{m.file + ": corpus: " + p.string() + " holds no *.test file", 0,
                     ErrorKind::input};
      }
      std::sort(found.begin(), found.end());
      paths.insert(paths.end(), found.begin(), found.end());
    } else {
      paths.push_back(p.lexically_normal().string());
    }
  }
  std::vector<oracle::Corpus> out;
  for (const std::string& path : paths) {
    oracle::ParsedCorpus parsed = oracle::read_corpus_file(path);
    if (parsed.error) return Error{format_diagnostic(*parsed.error), 0, ErrorKind::input};
    if (parsed.corpus->records.empty()) {
      return Error{path + ": the corpus file has no records", 0, ErrorKind::input};
    }
    out.push_back(std::move(*parsed.corpus));
  }
  // Each file again under `corpus_seeds` renamings drawn from the matrix's seed.
  const std::size_t files = out.size();
  for (std::uint64_t k = 1; k <= m.corpus_seeds; ++k) {
    for (std::size_t i = 0; i < files; ++i) {
      out.push_back(oracle::instantiate_corpus(out[i], combine64(m.seed, k)));
    }
  }
  return out;
}

std::size_t prepared_records(const oracle::Corpus& stream) {
  return static_cast<std::size_t>(
      std::count_if(stream.records.begin(), stream.records.end(),
                    [](const oracle::Record& r) { return !r.prepared.empty(); }));
}

nlohmann::json not_exercised(const char* capability, bool waived, const std::string& what) {
  return {{"capability", capability},
          {"waived", waived},
          {"what", what + (waived ? " (waived by the matrix)"
                                  : fmt::format("; `waive: [{}]` accepts that", capability))}};
}

nlohmann::json compare_stream(const oracle::Corpus& stream, const std::string& name,
                              const Engines& e, const oracle::ReduceOptions& budget, Files& files,
                              const std::function<bool()>& should_stop) {
  auto started_target = e.target();
  auto started_oracle = e.oracle();
  if (!started_target || !started_oracle) {
    // An engine that does not start is the check's result, not a reason to skip it.
    return {{"status", kFailed},
            {"engine_failures",
             {{{"kind", "engine failure"},
               {"where", stream.file},
               {"what", !started_target
                            ? "the target did not start: " + started_target.error().message
                            : "the oracle did not start: " + started_oracle.error().message}}}}};
  }
  std::unique_ptr<oracle::Target> target = std::move(*started_target);
  std::unique_ptr<oracle::Target> oracle_engine = std::move(*started_oracle);
  auto started = std::chrono::steady_clock::now();
  oracle::RunOptions run;
  run.should_stop = should_stop;
  run.compare_column_names = !e.column_names_waived;
  oracle::RunReport report = oracle::run_corpus(stream, *target, *oracle_engine, run);
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  nlohmann::json j = to_json(report);
  j["status"] = !report.clean() ? kFailed : report.interrupted ? kInterrupted : kPassed;
  // A check the target declined is a finding, unless the matrix waived it by name.
  const auto declined = [&j](const char* capability, bool waived, const std::string& what) {
    j["not_exercised"].push_back(not_exercised(capability, waived, what));
    if (!waived) j["status"] = kFailed;
  };
  const std::size_t prepared = prepared_records(stream);
  if (prepared > 0 && !report.prepared_supported) {
    declined("prepared", e.prepared_waived,
             fmt::format("an engine's hello says prepared: false, so {} prepared record{} ran "
                         "afresh and reset and re-execution went untested",
                         prepared, prepared == 1 ? "" : "s"));
  }
  if (e.column_names_waived) {
    declined("column_names", true, "the columns' names were not compared");
  } else if (report.columns_unreported > 0) {
    declined("column_names", false,
             fmt::format("the target named no columns in {} answer{} where the oracle did, so "
                         "their names went uncompared",
                         report.columns_unreported, report.columns_unreported == 1 ? "" : "s"));
  }
  j["elapsed_s"] = seconds;
  j["reduction"] = nullptr;
  if (!report.divergences.empty() && !report.interrupted) {
    // Free the engines first: a reduction starts fresh ones for every replay.
    target.reset();
    oracle_engine.reset();
    oracle::ReduceOptions with_names = budget;
    with_names.compare_column_names = run.compare_column_names;
    oracle::Reduction red = oracle::reduce(stream, report.divergences[0], target_factory(e.target),
                                           target_factory(e.oracle), with_names);
    nlohmann::json r = to_json(red);
    std::string file = "reductions/" + name + ".sql";
    if (red.reproduced) {
      files.emplace_back(file, oracle::to_sql_script(red));
      r["file"] = file;
    }
    r.erase("script");  // kept as its own file
    j["reduction"] = std::move(r);
  }
  return j;
}

nlohmann::json corpus_section(const std::vector<oracle::Corpus>& corpus, const Engines& e,
                              Files& files, const PassOptions& o) {
  std::ostream* log = o.log;
  nlohmann::json list = nlohmann::json::array();
  bool passed = true, interrupted = false;
  std::size_t compared = 0;
  for (const oracle::Corpus& c : corpus) {
    std::string stem = fs::path(c.file).stem().string();
    nlohmann::json one = compare_stream(c, "corpus-" + stem, e, {}, files, o.should_stop);
    one["file"] = c.file;
    passed = passed && one["status"] != kFailed;
    interrupted = interrupted || one["status"] == kInterrupted;
    compared += one.value("statements_compared", std::size_t{0});
    if (log) {
      *log << "oracle: corpus " << c.file << ": " << one.value("statements_compared", 0)
           << " statements compared, " << one["status"].get<std::string>() << "\n";
      for (const auto& n : one.value("not_exercised", nlohmann::json::array()))
        *log << "oracle: corpus " << c.file << ": not exercised: " << n["what"].get<std::string>()
             << "\n";
    }
    list.push_back(std::move(one));
    if (interrupted) break;  // the files after it were never begun
  }
  return {{"status", !passed       ? kFailed
                     : interrupted ? kInterrupted
                                   : kPassed},
          {"statements_compared", compared},
          {"files", std::move(list)}};
}

nlohmann::json generator_section(const OracleGeneratorSpec& spec, const Engines& e, Files& files,
                                 const PassOptions& o) {
  std::ostream* log = o.log;
  if (log) {
    *log << "oracle: generator seed " << spec.seed << ": comparing " << spec.statements
         << " statements\n"
         << std::flush;
  }
  oracle::Corpus stream = oracle::generate_stream({spec.seed, spec.statements});
  oracle::ReduceOptions budget;
  budget.max_trials = 400;
  budget.max_seconds = 60;
  nlohmann::json j = compare_stream(stream, "generator", e, budget, files, o.should_stop);
  j["seed"] = std::to_string(spec.seed);
  j["statements_generated"] = spec.statements;
  double s = j.value("elapsed_s", 0.0);
  if (s > 0) j["statements_per_s"] = j.value("statements_compared", 0.0) / s;
  if (log) {
    *log << "oracle: generator seed " << spec.seed << ": " << j.value("statements_compared", 0)
         << " statements compared, " << j["status"].get<std::string>() << "\n";
  }
  return j;
}

}  // namespace jbench::oracle_pass
