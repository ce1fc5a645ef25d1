// Oracle records (docs/oracle.md): a bundle of its own (oracle.json at the top) or the oracle/
// directory of a performance bundle whose matrix asks for one. The record is held to its
// schema, to the matrix it names, and to itself: a section's status must be what its counts
// say, and the verdict what its sections say — a record cannot claim a pass its content denies.
#include <fmt/format.h>

#include <filesystem>

#include "checks.h"
#include "jbench/common/sha256.h"
#include "jbench/matrix/yaml_tree.h"

namespace jbench::validate {
namespace {

std::size_t count(const Json& object, std::string_view key) {
  const Json* v = member(object, key);
  if (v && v->is_array()) return v->size();
  if (v && v->is_number_unsigned()) return v->get<std::size_t>();
  return 0;
}

std::string status_of(const Json& section) { return section.value("status", ""); }

class RecordCheck {
 public:
  RecordCheck(const std::string& root, std::string prefix, Findings& findings)
      : root_(root), prefix_(std::move(prefix)), file_(prefix_ + "oracle.json"), f_(findings) {}

  void mismatch(const std::string& pointer, const std::string& message) {
    f_.add("oracle.section_mismatch", file_, pointer, message);
  }

  // A comparison of two engines (a corpus file, the generated stream): passed exactly when it
  // compared something and found nothing.
  void stream(const Json& s, const std::string& pointer) {
    const Json* left = member(s, "left_off");
    std::size_t found =
        count(s, "divergences") + count(s, "expectation_failures") + count(s, "engine_failures") +
        (left ? count(*left, "divergences") + count(*left, "expectation_failures") : 0);
    // A capability the target declined, unless the matrix waived it, is a finding too.
    if (const Json* declined = member(s, "not_exercised"); declined && declined->is_array()) {
      for (const Json& d : *declined) {
        const Json* waived = member(d, "waived");
        if (!waived || *waived != true) ++found;
      }
    }
    const Json* cut = member(s, "interrupted");
    const bool interrupted = cut && cut->is_boolean() && cut->get<bool>();
    bool complete = count(s, "statements_compared") > 0;
    if (const Json* gen = member(s, "statements_generated")) {
      complete = complete && gen->is_number_unsigned() &&
                 count(s, "statements_compared") >= gen->get<std::size_t>();
    }
    // Findings fail it; else a signal cut it; else it passed only if it compared all it meant to.
    const std::string expected = found > 0     ? "failed"
                                 : interrupted ? "interrupted"
                                 : complete    ? "passed"
                                               : "failed";
    if (status_of(s) != expected) {
      mismatch(pointer, fmt::format("the status is '{}' but it compared {} statements with {} "
                                    "findings{}",
                                    status_of(s), count(s, "statements_compared"), found,
                                    interrupted ? ", interrupted" : ""));
    }
    reduction_present(s, pointer);
  }

  // A reduction the section names is a file of the bundle.
  void reduction_present(const Json& s, const std::string& pointer) {
    const Json* red = member(s, "reduction");
    if (!red || !red->is_object()) return;
    if (auto file = string_at(*red, "file")) {
      if (!safe_relative(*file) ||
          !std::filesystem::is_regular_file(root_ + "/" + prefix_ + *file)) {
        f_.add("oracle.reduction_missing", file_, pointer + "/reduction/file",
               fmt::format("the reduction {} is not in the bundle", prefix_ + *file));
      }
    }
  }

  void corpus(const Json& c) {
    const Json* files = member(c, "files");
    if (!files || !files->is_array()) return;
    bool failed = false, interrupted = false;
    std::size_t compared = 0;
    for (std::size_t i = 0; i < files->size(); ++i) {
      stream((*files)[i], fmt::format("/sections/corpus/files/{}", i));
      failed = failed || status_of((*files)[i]) == "failed";
      interrupted = interrupted || status_of((*files)[i]) == "interrupted";
      compared += count((*files)[i], "statements_compared");
    }
    const char* expected = failed ? "failed" : interrupted ? "interrupted" : "passed";
    if (status_of(c) != expected) {
      mismatch("/sections/corpus/status", "the corpus's status does not follow its files'");
    }
    if (compared != count(c, "statements_compared")) {
      mismatch("/sections/corpus/statements_compared",
               fmt::format("the files compared {} statements, the section says {}", compared,
                           count(c, "statements_compared")));
    }
  }

  void metamorphic(const Json& m) {
    const Json* tlp = member(m, "tlp");
    const Json* norec = member(m, "norec");
    if (!tlp || !norec) return;
    std::size_t cases = count(m, "cases");
    bool clean = count(*tlp, "differ_or_fail") == 0 && count(*norec, "differ_or_fail") == 0 &&
                 count(*tlp, "same") == cases && count(*norec, "same") == cases && cases > 0;
    if ((status_of(m) == "passed") != clean) {
      mismatch("/sections/metamorphic/status",
               "the status does not follow the TLP and NoREC counts");
    }
  }

  // Passed only with no finding, no failure, and queries checked — or no switch offered and
  // that waived; failed only with a cause; interrupted only without a finding.
  void plans(const Json& p) {
    const Json* findings = member(p, "findings");
    const Json* declined = member(p, "not_exercised");
    bool unwaived = false;
    if (declined && declined->is_array()) {
      for (const Json& d : *declined) unwaived = unwaived || !d.value("waived", false);
    }
    const bool wrong = (findings && findings->is_array() && !findings->empty()) ||
                       count(p, "left_off") > 0 || member(p, "engine_failure") || unwaived;
    const bool checked = count(p, "queries") > 0 || (declined && !unwaived);
    const std::string status = status_of(p);
    const bool follows = status == "failed"        ? wrong
                         : status == "interrupted" ? !wrong
                                                   : !wrong && checked;
    if (!follows) {
      mismatch("/sections/plans/status",
               "the status does not follow the findings, the failure and the queries checked");
    }
    reduction_present(p, "/sections/plans");
  }

  // Passed only when every journal mode passed; the total is the modes' states.
  void crash_states(const Json& c) {
    const Json* modes = member(c, "modes");
    if (!modes || !modes->is_array()) return;
    bool all = !modes->empty();
    std::size_t states = 0;
    for (const Json& m : *modes) {
      const Json* found = member(m, "findings");
      all = all && m.value("passed", false) && found && found->is_array() && found->empty() &&
            count(m, "findings_left_off") == 0 && count(m, "states_explored") > 0;
      states += count(m, "states_explored");
    }
    if ((status_of(c) == "passed") != all) {
      mismatch("/sections/crash_states/status", "the status does not follow its modes' verdicts");
    }
    if (states != count(c, "states_explored")) {
      mismatch("/sections/crash_states/states_explored",
               fmt::format("the modes explored {} states, the section says {}", states,
                           count(c, "states_explored")));
    }
  }

  void ledgers(const Json& l) {
    const Json* storms = member(l, "storms");
    if (!storms || !storms->is_array()) return;
    bool all = true;
    for (std::size_t i = 0; i < storms->size(); ++i) {
      const Json& s = (*storms)[i];
      const Json* db = member(s, "database");
      const Json* storm = member(s, "storm");
      bool clean =
          db && storm && count(*db, "lost") == 0 && count(*db, "visible_uncommitted") == 0 &&
          count(*db, "rolled_back_visible") == 0 && count(*db, "state_mismatches") == 0 &&
          count(*db, "checksum_mismatches") == 0 && count(*db, "ledger_errors") == 0 &&
          db->value("integrity_check", "") == "ok" && count(*storm, "invariant_violations") == 0 &&
          count(*storm, "worker_failures") == 0 && !storm->value("timed_out", true) &&
          count(*db, "committed") > 0;
      if ((status_of(s) == "passed") != clean) {
        mismatch(fmt::format("/sections/ledgers/storms/{}/status", i),
                 "the storm's status does not follow its counts (lost, visible uncommitted, "
                 "integrity, invariant violations, worker failures)");
      }
      all = all && status_of(s) == "passed";
    }
    if ((status_of(l) == "passed") != all) {
      mismatch("/sections/ledgers/status", "the ledgers' status does not follow their storms'");
    }
  }

  void faults(const Json& f) {
    const Json* modes = member(f, "modes");
    if (!modes || !modes->is_array()) return;
    bool clean = !modes->empty();
    for (const Json& m : *modes) {
      std::size_t points = count(m, "faultable_points");
      clean = clean && count(m, "findings") == 0 && points > 0;
      if (const Json* visited = member(m, "visited"); visited && visited->is_object()) {
        for (const auto& [kind, n] : visited->items()) {
          clean = clean && n.is_number_unsigned() && n.get<std::size_t>() == points;
        }
      } else {
        clean = false;
      }
    }
    if ((status_of(f) == "passed") != clean) {
      mismatch("/sections/faults/status",
               "the status does not follow the modes (findings, or points not all visited)");
    }
  }

  void verdict(const Json& doc) {
    const Json* sections = member(doc, "sections");
    if (!sections || !sections->is_object()) return;
    bool all = true, cut = false;
    std::size_t ran = 0;
    for (const auto& [name, s] : sections->items()) {
      if (status_of(s) == "not_requested") continue;
      ++ran;
      all = all && status_of(s) == "passed";
      cut = cut || status_of(s) == "interrupted";
    }
    const Json* interrupted = member(doc, "interrupted");
    if (interrupted && interrupted->is_boolean() && interrupted->get<bool>() != cut) {
      f_.add("oracle.verdict_mismatch", file_, "/interrupted",
             fmt::format("the record says interrupted: {}, its sections say {}",
                         interrupted->get<bool>(), cut));
    }
    const Json* passed = member(doc, "passed");
    if (passed && passed->is_boolean() && passed->get<bool>() != (all && ran > 0)) {
      f_.add("oracle.verdict_mismatch", file_, "/passed",
             fmt::format("the record says passed: {}, its sections say {}", passed->get<bool>(),
                         all && ran > 0));
    }
  }

 private:
  const std::string& root_;
  std::string prefix_;
  std::string file_;
  Findings& f_;
};

}  // namespace

std::optional<Json> check_oracle_record(const std::string& root, const std::string& prefix,
                                        Findings& findings) {
  auto doc = load_schema_checked(root, prefix + "oracle.json", "oracle", findings);
  if (!doc || !doc->is_object()) return doc;
  if (auto text = read_document(root, prefix + "matrix.yaml", findings)) {
    auto recorded = string_at(*doc, "matrix_sha256");
    if (recorded && sha256_hex(*text) != *recorded) {
      findings.add("oracle.matrix_mismatch", prefix + "matrix.yaml", "",
                   "the oracle matrix's sha256 is not the one oracle.json records");
    }
  }
  RecordCheck check(root, prefix, findings);
  if (const Json* sections = member(*doc, "sections"); sections && sections->is_object()) {
    auto ran = [&](const char* key) -> const Json* {
      const Json* s = member(*sections, key);
      return s && s->is_object() && status_of(*s) != "not_requested" && !member(*s, "what")
                 ? s
                 : nullptr;
    };
    if (const Json* c = ran("corpus")) check.corpus(*c);
    if (const Json* g = ran("generator")) check.stream(*g, "/sections/generator");
    if (const Json* m = ran("metamorphic")) check.metamorphic(*m);
    if (const Json* p = ran("plans")) check.plans(*p);
    if (const Json* l = ran("ledgers")) check.ledgers(*l);
    if (const Json* f = ran("faults")) check.faults(*f);
    if (const Json* c = ran("crash_states")) check.crash_states(*c);
  }
  check.verdict(*doc);
  return doc;
}

void check_oracle_requirement(const BundleView& bundle, std::vector<Finding>& unproven,
                              Findings& findings) {
  // The run matrix is in the bundle verbatim; whether it asks for an oracle record is its
  // top-level `oracle:` key.
  std::error_code ec;
  if (!std::filesystem::is_regular_file(bundle.root + "/matrix.yaml", ec)) return;
  auto text = read_document(bundle.root, "matrix.yaml", findings);
  if (!text) return;
  yaml::Tree tree = yaml::load_yaml_tree(*text, "matrix.yaml");
  const yaml::Node* wanted = tree.ok() ? tree.root.find("oracle") : nullptr;
  if (!wanted) return;
  Findings out(unproven);
  if (!std::filesystem::is_regular_file(bundle.root + "/oracle/oracle.json", ec)) {
    out.add("oracle.unproven", "oracle/oracle.json", "",
            fmt::format("the matrix asks for an oracle record (oracle: {}) and the bundle has "
                        "none: its numbers stand on no correctness evidence",
                        wanted->scalar));
    return;
  }
  auto doc = check_oracle_record(bundle.root, "oracle/", findings);
  if (!doc || !doc->is_object()) return;
  if (!doc->value("passed", false)) {
    std::string failed;
    if (const Json* sections = member(*doc, "sections"); sections && sections->is_object()) {
      for (const auto& [name, s] : sections->items()) {
        if (status_of(s) == "failed") failed += (failed.empty() ? "" : ", ") + name;
      }
    }
    out.add("oracle.unproven", "oracle/oracle.json", "/passed",
            fmt::format("the oracle record the matrix asks for did not pass ({} failed)",
                        failed.empty() ? std::string("nothing passed") : failed));
  }
}

}  // namespace jbench::validate
