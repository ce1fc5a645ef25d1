// Retained provenance of real `jbench run`s: the bundle keeps the worker executable, every
// library mapped into each worker (the preloaded sampler of a light run included), the tracer,
// debug files and symbol maps, content-addressed; a changed byte in the store is a finding even
// with SHA256SUMS recomputed; a small cap names what it left out.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "bundle_sums.h"
#include "jbench/bundle/sha256sums.h"
#include "run_support.h"

namespace jbench::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::set<std::string> finding_codes(const ProcessResult& r) {
  std::set<std::string> codes;
  const json report = json::parse(r.out, nullptr, false);
  if (report.is_object()) {
    for (const auto& f : report["findings"]) codes.insert(f["code"].get<std::string>());
  }
  return codes;
}

class RunProvenance : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    RunInvocation inv;
    inv.matrix = "provenance.yaml";
    inv.traced = true;
    full_ = new ProcessResult(run_jbench_run(*dir_, inv, unique_tag()));
    inv.matrix = "provenance-tiny-cap.yaml";
    inv.name = "tiny";
    tiny_ = new ProcessResult(run_jbench_run(*dir_, inv, unique_tag()));
  }
  static void TearDownTestSuite() {
    delete full_;
    delete tiny_;
    delete dir_;
  }
  static std::string bundle(const char* name) { return dir_->path() + "/out/" + name; }
  static json index(const char* name) { return read_json(bundle(name) + "/provenance/index.json"); }
  static json object(const json& idx, const std::string& sha) {
    for (const auto& o : idx["objects"]) {
      if (o["sha256"] == sha) return o;
    }
    return nullptr;
  }
  static json set_of(const json& idx, const json& run) {
    for (const auto& s : idx["binary_sets"]) {
      if (s["id"] == run["processes"][0]["set"]) return s;
    }
    return nullptr;
  }
  static TempDir* dir_;
  static ProcessResult* full_;
  static ProcessResult* tiny_;
};
TempDir* RunProvenance::dir_ = nullptr;
ProcessResult* RunProvenance::full_ = nullptr;
ProcessResult* RunProvenance::tiny_ = nullptr;

TEST_F(RunProvenance, keeps_each_workers_exe_libraries_preload_and_symbol_maps) {
  ASSERT_EQ(full_->exit_code, 0) << full_->err;
  const auto valid = run_process({JBENCH_BINARY, "validate", bundle("b")});
  EXPECT_EQ(valid.exit_code, 0) << valid.out;
  const json idx = index("b");
  ASSERT_TRUE(idx.is_object());
  ASSERT_EQ(idx["runs"].size(), 2u);
  std::set<std::string> sets;
  for (const auto& run : idx["runs"]) {
    const bool light = run["id"].get<std::string>().find(".light.") != std::string::npos;
    // Both workers ran the same binaries: one group, one set.
    ASSERT_EQ(run["processes"].size(), 1u) << run.dump();
    EXPECT_EQ(run["processes"][0]["workers"], json::array({0, 1}));
    const json set = set_of(idx, run);
    ASSERT_TRUE(set.is_object());
    sets.insert(set["id"]);
    const json& exe = set["binaries"][0];
    EXPECT_EQ(exe["role"], "exe");
    EXPECT_EQ(fs::path(exe["path"].get<std::string>()).filename(), "jbench-sqlite-worker");
    bool preload = false, libc = false;
    for (const auto& b : set["binaries"]) {
      const std::string path = b["path"];
      const std::string name = fs::path(path).filename();
      preload = preload || name == "libjbench_alloc.so";
      libc = libc || name.rfind("libc.so", 0) == 0;
      // Every binary is stored, byte for byte the file the worker mapped.
      const json o = object(idx, b["sha256"]);
      ASSERT_TRUE(o.is_object()) << path;
      EXPECT_EQ(o["stored"], true) << path;
      EXPECT_EQ(slurp(bundle("b") + "/provenance/objects/" + b["sha256"].get<std::string>()),
                slurp(path))
          << path;
      ASSERT_TRUE(b["symbol_map"].is_object()) << path;
      EXPECT_EQ(object(idx, b["symbol_map"]["sha256"])["stored"], true) << path;
      if (b["debug_file"].is_object()) {
        EXPECT_EQ(slurp(bundle("b") + "/provenance/objects/" +
                        b["debug_file"]["sha256"].get<std::string>()),
                  slurp(b["debug_file"]["path"]))
            << path;
      }
    }
    EXPECT_TRUE(libc);
    EXPECT_EQ(preload, light) << "the sampler is preloaded in light runs only";
    // The worker's own symbol table (it is built with one), as a sorted map holding main.
    EXPECT_EQ(exe["symbol_map"]["table"], ".symtab");
    const std::string map = slurp(bundle("b") + "/provenance/objects/" +
                                  exe["symbol_map"]["sha256"].get<std::string>());
    EXPECT_NE(map.find(" T main\n"), std::string::npos);
    if (light) {
      const json& tracer = run["tracer"];
      ASSERT_TRUE(tracer.is_object()) << run.dump();
      EXPECT_TRUE(tracer["name"] == "libbpf" || tracer["name"] == "bpftrace" ||
                  tracer["name"] == "strace");
      EXPECT_FALSE(tracer["version"].get<std::string>().empty());
      EXPECT_EQ(object(idx, tracer["binary"]["sha256"])["stored"], true);
    } else {
      EXPECT_TRUE(run["tracer"].is_null());
    }
    ASSERT_EQ(run["worker_configuration"].size(), 2u);
  }
  EXPECT_EQ(sets.size(), 2u) << "baseline and light mapped different libraries";
  EXPECT_EQ(idx["configuration"]["matrix_sha256"], *file_sha256(bundle("b") + "/matrix.yaml"));
  EXPECT_EQ(idx["configuration"]["plan_sha256"], *file_sha256(bundle("b") + "/plan.json"));
  // Each object once in the index, each stored one once in the store.
  std::set<std::string> listed;
  for (const auto& o : idx["objects"]) EXPECT_TRUE(listed.insert(o["sha256"]).second);
  std::size_t files = 0;
  for (const auto& e : fs::directory_iterator(bundle("b") + "/provenance/objects")) {
    EXPECT_TRUE(listed.count(e.path().filename().string())) << e.path();
    ++files;
  }
  EXPECT_EQ(files, listed.size());
}

TEST_F(RunProvenance, records_the_build_compiler_flags_and_source_revision) {
  const json build = read_json(bundle("b") + "/provenance/build.json");
  EXPECT_FALSE(build["compiler"]["path"].get<std::string>().empty());
  EXPECT_TRUE(build["flags"].contains("cxx_build_type")) << build.dump();
  EXPECT_NE(build["flags"]["warnings"].get<std::string>().find("-Wall"), std::string::npos);
  EXPECT_EQ(build["source"]["recorded_at"], "build");
  // The revision is read at build time, so it is HEAD's (the test is built with jbench).
  if (access("/usr/bin/git", X_OK) != 0) GTEST_SKIP() << "no /usr/bin/git to compare with";
  const auto head = run_process({"/usr/bin/git", "-C", JBENCH_SOURCE_DIR, "rev-parse", "HEAD"});
  if (head.exit_code == 0) {
    EXPECT_EQ(build["source"]["revision"].get<std::string>() + "\n", head.out);
    EXPECT_TRUE(build["source"]["dirty"].is_boolean());
  } else {
    EXPECT_EQ(build["source"]["revision"], "unknown") << "not a git checkout";
    EXPECT_EQ(build["source"]["dirty"], "unknown");
  }
}

TEST_F(RunProvenance, a_changed_byte_in_a_stored_object_is_a_finding) {
  ASSERT_EQ(full_->exit_code, 0) << full_->err;
  const std::string copy = dir_->path() + "/flipped";
  fs::copy(bundle("b"), copy, fs::copy_options::recursive);
  const json idx = index("b");
  const std::string exe = idx["binary_sets"][0]["binaries"][0]["sha256"];
  const std::string file = copy + "/provenance/objects/" + exe;
  std::string bytes = slurp(file);
  bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 0x40);
  std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
  rewrite_sums(copy);
  const auto r = run_process({JBENCH_BINARY, "validate", copy, "--json"});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  const auto codes = finding_codes(r);
  EXPECT_EQ(codes, std::set<std::string>{"provenance.object_mismatch"}) << r.out;
}

TEST_F(RunProvenance, a_small_cap_names_every_object_it_left_out) {
  ASSERT_EQ(tiny_->exit_code, 0) << tiny_->err;
  const auto valid = run_process({JBENCH_BINARY, "validate", bundle("tiny")});
  EXPECT_EQ(valid.exit_code, 0) << valid.out;
  const json idx = index("tiny");
  const std::uint64_t cap = idx["cap_bytes"];
  EXPECT_EQ(cap, static_cast<std::uint64_t>(0.05 * 1024 * 1024));
  std::uint64_t stored = 0, left_out = 0;
  for (const auto& o : idx["objects"]) {
    const std::string sha = o["sha256"];
    const bool present = fs::exists(bundle("tiny") + "/provenance/objects/" + sha);
    EXPECT_EQ(present, o["stored"].get<bool>()) << o.dump();
    if (o["stored"]) {
      stored += o["size_bytes"].get<std::uint64_t>();
    } else {
      ++left_out;
      EXPECT_EQ(o["left_out"], "left out: over the provenance cap");
      EXPECT_FALSE(o["paths"].empty());
    }
  }
  EXPECT_LE(stored, cap);
  EXPECT_EQ(idx["stored_bytes"], stored);
  // The worker executable alone is larger than the cap: named, not kept.
  const json exe = idx["binary_sets"][0]["binaries"][0];
  const json o = object(idx, exe["sha256"]);
  EXPECT_EQ(o["stored"], false);
  EXPECT_EQ(o["size_bytes"], exe["size_bytes"]);
  EXPECT_EQ(o["paths"][0], exe["path"]);
  EXPECT_GT(left_out, 5u);
}

}  // namespace
}  // namespace jbench::test
