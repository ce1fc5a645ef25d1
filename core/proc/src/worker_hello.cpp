#include "jbench/proc/worker_hello.h"

namespace jbench::proc {

bool is_runtime_id(const nlohmann::json& v) {
  if (!v.is_string()) return false;
  const auto& s = v.get_ref<const std::string&>();
  return s.size() == 32 && s.find_first_not_of("0123456789abcdef") == std::string::npos &&
         s != std::string(32, '0');
}

Status check_worker_hello(const nlohmann::json& hello, pid_t spawned, const std::string& who) {
  const auto refused = [](std::string why) { return Error{std::move(why), 0, ErrorKind::input}; };
  if (!hello.is_object() || !hello.contains("protocol") || hello["protocol"] != 1) {
    return refused(who + " speaks protocol " +
                   (hello.is_object() && hello.contains("protocol") ? hello["protocol"].dump()
                                                                    : std::string("(none)")) +
                   ", this jbench speaks 1");
  }
  if (!hello.contains("pid") || !hello["pid"].is_number_integer() || hello["pid"] != spawned) {
    return refused(who + " says it is pid " +
                   (hello.contains("pid") ? hello["pid"].dump() : std::string("(none)")) +
                   ", but pid " + std::to_string(spawned) +
                   " was started; a wrapper that runs the worker as a child cannot be attributed");
  }
  if (!hello.contains("runtime_id") || !is_runtime_id(hello["runtime_id"])) {
    return refused(who + " sent no valid runtime_id (32 lowercase hex digits, not all 0)");
  }
  return {};
}

}  // namespace jbench::proc
