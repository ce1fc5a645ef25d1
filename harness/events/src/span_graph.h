// Span pairing and parentage within one raw file. Private to jbench::events.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

namespace jbench::events_detail {

class SpanGraph {
 public:
  using Report = std::function<void(const char* code, std::size_t line, std::string message)>;

  void begin(const std::string& id, const std::optional<std::string>& parent, std::size_t line,
             const Report& report);
  void end(const std::string& id, std::size_t line, const Report& report);
  // Every begin has its end; every parent exists; no parent chain loops.
  void finish(const Report& report) const;

 private:
  struct Span {
    std::optional<std::string> parent;
    std::size_t begin_line = 0;
    bool ended = false;
  };
  std::map<std::string, Span> spans_;
};

}  // namespace jbench::events_detail
