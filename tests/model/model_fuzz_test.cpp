// The bundle model under seeded mutations of the valid bundle's documents (one member removed or
// renamed, one value's type or number changed): it never throws, a refusal always names the file
// and a JSON pointer, and a value it reads whose type was changed is always refused — a forged
// document is never read as something else.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>

#include "fuzz_mutator.h"
#include "jbench/model/documents.h"

namespace jbench::test {
namespace {

using nlohmann::json;

struct Document {
  std::string file;  // within the valid bundle
  std::function<Status(const json&, model::FieldLog*)> read;
};

template <typename Reader>
std::function<Status(const json&, model::FieldLog*)> reading(Reader reader, std::string file) {
  return [reader, file](const json& doc, model::FieldLog* log) {
    return reader(doc, file, log).status();
  };
}

std::vector<Document> documents() {
  const std::string run = "runs/w1.persistent.mixed.tiny.baseline.r1/run.json";
  return {{"manifest.json", reading(model::read_manifest, "manifest.json")},
          {"plan.json", reading(model::read_plan, "plan.json")},
          {run, reading(model::read_run_document, run)}};
}

// "/runs/3/trace" -> "/runs/*/trace": how a FieldLog writes what was read.
std::string generalised(const std::string& pointer) {
  std::string out;
  std::size_t at = 0;
  while (at < pointer.size()) {
    const std::size_t end = std::min(pointer.find('/', at + 1), pointer.size());
    const std::string token = pointer.substr(at + 1, end - at - 1);
    const bool index = !token.empty() && token.find_first_not_of("0123456789") == std::string::npos;
    out += "/" + (index ? std::string("*") : token);
    at = end;
  }
  return out;
}

TEST(BundleModelFuzz, a_mutated_document_is_read_or_refused_by_pointer_never_misread) {
  const std::uint64_t iterations = env_or("JBENCH_FUZZ_CASES", 150);
  for (const Document& d : documents()) {
    std::ifstream in(source_path("tests/fixtures/bundles/valid/" + d.file));
    const json original = json::parse(in);
    model::FieldLog read;
    ASSERT_TRUE(d.read(original, &read)) << d.file;
    std::size_t refused = 0;
    for (std::uint64_t i = 0; i < iterations; ++i) {
      for (FuzzOp op :
           {FuzzOp::remove_field, FuzzOp::rename_key, FuzzOp::change_type, FuzzOp::change_number}) {
        SplitMix64 rng(combine64(0x6d6f64656cULL, i * 8 + static_cast<std::uint64_t>(op)));
        const auto m = mutate_json(original, op, rng);
        if (!m) continue;
        SCOPED_TRACE(d.file + " " + op_name(op) + " at " + m->where);
        Status status;
        ASSERT_NO_THROW(status = d.read(m->doc, nullptr));
        if (!status) {
          ++refused;
          EXPECT_TRUE(status.error().message.starts_with(d.file + " /")) << status.error().message;
        }
        const bool was_null = original.at(json::json_pointer(m->where)).is_null();
        if (op == FuzzOp::change_type && !was_null && read.count(generalised(m->where))) {
          EXPECT_FALSE(status) << "a value it reads changed type, and it was read";
        }
      }
    }
    EXPECT_GT(refused, 0u) << d.file;  // the mutations reached what it reads
  }
}

}  // namespace
}  // namespace jbench::test
