#include "instruction_records.h"

#include <fmt/format.h>

#include <fstream>

#include "jbench/collectors/instructions/instructions_collector.h"
#include "jbench/common/clock.h"
#include "jbench/events/event_file.h"

namespace jbench::collectors {

nlohmann::json instruction_record(const Member& m, std::size_t index, const std::string& phase,
                                  const nlohmann::json& figures) {
  nlohmann::json r = {{"kind", "record"},
                      {"type", "instructions"},
                      {"seq", "0"},
                      {"pid", m.pid},
                      {"start_time_ticks", std::to_string(m.start_time_ticks)},
                      {"tid", m.pid},
                      {"t_ns", std::to_string(monotonic_ns())},  // when it was read
                      {"worker", index},
                      {"phase", phase}};
  r.update(figures);
  return r;
}

void describe_instruction_entry(CollectorEntry& e, const std::string& backend,
                                std::uint64_t attached_ns, const std::string& choice,
                                const std::string& version) {
  e.name = "instructions";
  e.backend = backend;
  e.setting = "on";
  e.started_ns = e.attached_ns = attached_ns;
  e.extra["source"] = backend;
  e.extra["chosen"] = choice;
  e.extra["version"] = version;
}

jbench::Status write_instruction_records(const RunContext& context, const std::string& backend,
                                         const std::string& backend_version,
                                         const nlohmann::json& units,
                                         const std::vector<nlohmann::json>& records) {
  using Json = nlohmann::json;
  std::ofstream out(context.run_dir + "/" + kInstructionsFile);
  out << Json{{"kind", "header"},
              {"schema", kEventSchema},
              {"schema_version", kEventSchemaVersion},
              {"collector", "instructions"},
              {"backend", backend},
              {"backend_version", backend_version},
              {"clock", "CLOCK_MONOTONIC"},
              {"units", units},
              {"run_id", context.run_id},
              {"boot_id", context.boot_id}}
             .dump()
      << '\n';
  // Each stream (a worker's pid) numbers its records from 0.
  std::map<Json, std::uint64_t> seq;
  for (Json r : records) {
    r["seq"] = std::to_string(seq[r["tid"]]++);
    out << r.dump() << '\n';
  }
  out << Json{{"kind", "trailer"},
              {"records", records.size()},
              {"dropped", 0},
              {"malformed", 0},
              {"ended", {{"how", "exit"}, {"code", 0}}}}
             .dump()
      << '\n';
  out.close();
  if (!out) return jbench::Error{fmt::format("cannot write {}", kInstructionsFile)};
  return {};
}

}  // namespace jbench::collectors
