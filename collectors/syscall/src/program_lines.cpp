#include "program_lines.h"

#include "syscall_table.h"

namespace jbench::collectors::syscall_detail {

std::optional<std::string_view> Fields::next() {
  if (done_) return std::nullopt;
  const auto space = rest_.find(' ');
  std::string_view field = rest_.substr(0, space);
  if (space == std::string_view::npos) {
    done_ = true;
  } else {
    rest_.remove_prefix(space + 1);
  }
  return field;
}

std::optional<std::string_view> Fields::rest() {
  if (done_) return std::nullopt;
  done_ = true;
  return rest_;
}

std::optional<CanaryHit> parse_canary(Fields& f) {
  CanaryHit k;
  auto path = std::optional<std::string_view>{};
  if (!f.number(k.pid) || !f.number(k.tid) || !f.number(k.t_ns) || !(path = f.rest())) {
    return std::nullopt;
  }
  k.path = std::string(*path);
  return k;
}

LiveLine scan_program_line(std::string_view line) {
  LiveLine out;
  const char letter = line.empty() ? '\0' : line[0];
  if (letter != 'M' && letter != 'S' && letter != 'K' && letter != 'P') return out;
  Fields f(line);
  f.next();
  if (letter == 'M' && f.number(out.phase)) {
    out.kind = LiveLine::Kind::marker;
  } else if (letter == 'S' && f.number(out.sync)) {
    out.kind = LiveLine::Kind::sync;
  } else if (letter == 'K') {
    if (auto k = parse_canary(f)) {
      out.kind = LiveLine::Kind::canary;
      out.canary = std::move(*k);
    }
  } else if (letter == 'P' && f.number(out.pid)) {
    out.kind = LiveLine::Kind::process;
  }
  return out;
}

namespace {

// "C call pid tid t_ns duration phase fd result request major minor inode [role]": one traced
// call; none when a field is missing, out of range or names no traced call.
std::optional<CallRecord> parse_call_line(Fields& f) {
  CallRecord c;
  std::int64_t ret = 0;
  std::uint64_t request = 0;
  FileIdentity file;
  bool ok = f.number(c.call) && f.number(c.pid) && f.number(c.tid) && f.number(c.t_ns) &&
            f.number(c.duration_ns) && f.number(c.phase) && f.number(c.fd) && f.number(ret) &&
            f.number(request) && f.number(file.major) && f.number(file.minor) &&
            f.number(file.inode);
  // The D program adds the thread's role (0 the workload's, 1 the bridge writer's).
  unsigned role = 0;
  ok = ok && (f.at_end() || (f.number(role) && role <= 1 && f.at_end()));
  c.role = thread_role_of(role);
  const TracedCall* call = ok ? call_by_id(c.call) : nullptr;
  if (!ok || !call || c.phase < 0 || c.phase >= kPhaseCount) return std::nullopt;
  c.result = ret;
  if (call->kind == ArgKind::fd_request) c.request = request;
  if (file.inode != 0) c.file = file;
  return c;
}

}  // namespace

void ProgramLineReader::malformed(std::string_view raw) {
  ++obs_.malformed;
  if (obs_.malformed_examples.size() < kMaxMalformedExamples) {
    obs_.malformed_examples.emplace_back(raw.substr(0, 200));
  }
}

void ProgramLineReader::text(std::string_view line, std::string_view raw) {
  Fields f(line);
  const auto tag = f.next();
  if (!tag || tag->size() != 1) {
    malformed(raw);
    return;
  }
  bool ok = false;
  switch ((*tag)[0]) {
    case 'B': {
      int version = 0;
      ok = f.number(version) && version == 1;
      obs_.began = obs_.began || ok;
      break;
    }
    case 'M': {
      PhaseMarker m;
      ok = f.number(m.phase) && f.number(m.t_ns) && m.phase >= 0 && m.phase < kPhaseCount;
      if (ok) obs_.markers.push_back(m);
      break;
    }
    case 'S': {
      int n = 0;
      std::uint64_t t = 0;
      ok = f.number(n) && f.number(t);
      break;
    }
    case 'J': {
      pid_t pid = 0;
      std::uint64_t t = 0;
      ok = f.number(pid) && f.number(t);
      if (ok) obs_.joined.push_back(pid);
      break;
    }
    case 'F': {
      ProgramFork s;
      ok = f.number(s.parent) && f.number(s.child) && f.number(s.t_ns);
      if (ok) obs_.forks.push_back(s);
      break;
    }
    case 'P': {
      ProcessSeen p;
      std::uint64_t start = 0;
      ok = f.number(p.pid) && f.number(start) && f.number(p.parent) && f.number(p.t_ns);
      p.start_boottime_ns = start;
      if (ok) obs_.processes.push_back(p);
      break;
    }
    case 'K': {
      auto k = parse_canary(f);
      ok = k.has_value();
      if (ok) obs_.canaries.push_back(std::move(*k));
      break;
    }
    case 'O': {
      pid_t tid = 0;
      std::uint64_t t = 0;
      std::optional<std::string_view> path;
      ok = f.number(tid) && f.number(t) && (path = f.rest()).has_value();
      if (ok) open_paths_[{tid, t}] = std::string(*path);
      break;
    }
    case 'C': {
      auto c = parse_call_line(f);
      ok = c.has_value();
      if (ok) obs_.calls.push_back(std::move(*c));
      break;
    }
    default:
      break;
  }
  if (!ok) malformed(raw);
}

ProgramObservations ProgramLineReader::finish(std::size_t string_limit) {
  for (CallRecord& c : obs_.calls) {
    const TracedCall* call = call_by_id(c.call);
    if (!call || call->kind != ArgKind::path) continue;
    auto it = open_paths_.find({c.tid, c.t_ns});
    if (it == open_paths_.end()) continue;  // its line was lost: counted in `lost`
    c.path = std::move(it->second);
    c.path_truncated = c.path.size() >= string_limit - 1;
    open_paths_.erase(it);
  }
  return std::move(obs_);
}

}  // namespace jbench::collectors::syscall_detail
