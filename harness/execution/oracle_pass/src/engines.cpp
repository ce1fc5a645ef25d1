#include "jbench/oracle_pass/engines.h"

#include <unistd.h>

#include <filesystem>

#include "jbench/common/path_search.h"
#include "jbench/oracle/process_target.h"
#include "jbench/oracle/sqlite_target.h"

namespace jbench::oracle_pass {

Result<EngineFactory> engine_factory(const OracleEngineSpec& spec, const std::string& base_dir) {
  if (spec.kind == OracleEngineSpec::Kind::sqlite) {
    return EngineFactory([spec]() -> Result<std::unique_ptr<oracle::Target>> {
      auto db = oracle::SqliteTarget::open(":memory:", spec.pragmas, spec.optimizer_off);
      if (!db) return db.error();
      return std::unique_ptr<oracle::Target>(
          std::make_unique<oracle::SqliteTarget>(std::move(*db)));
    });
  }
  std::vector<std::string> argv = spec.command;
  std::string& program = argv[0];
  if (program.find('/') == std::string::npos) {
    std::string found = find_on_path(program);
    if (found.empty()) {
      return Error{spec.where.file + ":" + std::to_string(spec.where.line) + ": the engine '" +
                       program + "' is not on PATH",
                   0, ErrorKind::input};
    }
    program = found;
  } else if (!std::filesystem::path(program).is_absolute()) {
    program = (std::filesystem::absolute(base_dir) / program).lexically_normal().string();
  }
  if (::access(program.c_str(), X_OK) != 0) {
    return Error{spec.where.file + ":" + std::to_string(spec.where.line) + ": the engine '" +
                     program + "' is not an executable file",
                 errno, ErrorKind::input};
  }
  oracle::EngineCommand command{argv, "", 10'000, spec.timeout_ms};
  return EngineFactory([command]() -> Result<std::unique_ptr<oracle::Target>> {
    auto t = oracle::ProcessTarget::start(command);
    if (!t) return t.error();
    return std::unique_ptr<oracle::Target>(std::make_unique<oracle::ProcessTarget>(std::move(*t)));
  });
}

oracle::TargetFactory target_factory(const EngineFactory& make) {
  return [make]() -> std::unique_ptr<oracle::Target> {
    auto engine = make();
    return engine ? std::move(*engine) : nullptr;
  };
}

std::string describe_engine(const OracleEngineSpec& spec) {
  if (spec.kind == OracleEngineSpec::Kind::sqlite) {
    std::string out = "sqlite (in process";
    if (spec.optimizer_off) out += ", optimizer off";
    for (const std::string& p : spec.pragmas) out += ", PRAGMA " + p;
    return out + ")";
  }
  std::string out;
  for (const std::string& a : spec.command) out += (out.empty() ? "" : " ") + a;
  return out;
}

}  // namespace jbench::oracle_pass
