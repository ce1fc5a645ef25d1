// The writer's side of ledger_phase.h: a one-byte shared mapping of <ledger>.phase, written at
// each step. A store to mapped memory costs nothing next to the fsyncs around it.
#pragma once

#include <string>

#include "jbench/oracle/ledger_phase.h"

namespace jbench::oracle::ledger_worker {

class PhaseMarker {
 public:
  PhaseMarker() = default;
  ~PhaseMarker();
  PhaseMarker(const PhaseMarker&) = delete;
  PhaseMarker& operator=(const PhaseMarker&) = delete;

  // Without a mapping (open failed) set() does nothing: the phase is evidence, not protocol.
  bool open(const std::string& path, std::string& error);
  void set(WriterPhase phase);

 private:
  volatile std::uint8_t* byte_ = nullptr;
};

}  // namespace jbench::oracle::ledger_worker
