#include "libbpf_tracer.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <fmt/format.h>
#include <sys/syscall.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "jbench/common/clock.h"
#include "syscall_table.h"
#include "syscall_trace.h"
#include "syscall_trace.skel.h"

namespace jbench::collectors::syscall_detail {
namespace {

struct CallNumber {
  const char* name;
  long nr;
  __u32 kind;
  __u32 path_arg;  // canaries: the path's argument
};

// This architecture's numbers of the traced calls and the canary calls. A call the
// architecture does not have (open on arm64) is simply absent.
constexpr CallNumber kNumbers[] = {
#ifdef SYS_open
    {"open", SYS_open, JB_KIND_PATH, 0},
#endif
    {"openat", SYS_openat, JB_KIND_PATH, 0},
#ifdef SYS_openat2
    {"openat2", SYS_openat2, JB_KIND_PATH, 0},
#endif
    {"read", SYS_read, JB_KIND_FD, 0},
    {"pread64", SYS_pread64, JB_KIND_FD, 0},
    {"readv", SYS_readv, JB_KIND_FD, 0},
    {"write", SYS_write, JB_KIND_FD, 0},
    {"pwrite64", SYS_pwrite64, JB_KIND_FD, 0},
    {"writev", SYS_writev, JB_KIND_FD, 0},
    {"fsync", SYS_fsync, JB_KIND_FD, 0},
    {"fdatasync", SYS_fdatasync, JB_KIND_FD, 0},
    {"flock", SYS_flock, JB_KIND_FD_REQUEST, 0},
    {"fcntl", SYS_fcntl, JB_KIND_FD_REQUEST, 0},
    {"ioctl", SYS_ioctl, JB_KIND_FD_REQUEST, 0},
#ifdef SYS_access
    {"access", SYS_access, JB_KIND_CANARY, 0},
#endif
    {"faccessat", SYS_faccessat, JB_KIND_CANARY, 1},
#ifdef SYS_faccessat2
    {"faccessat2", SYS_faccessat2, JB_KIND_CANARY, 1},
#endif
};

std::string errno_text(int error) { return error > 0 ? std::strerror(error) : "unknown error"; }

// Deletes every key of a map (between runs: the next run starts from nothing).
template <typename Key>
void clear_map(int fd) {
  Key key{};
  while (bpf_map_get_next_key(fd, nullptr, &key) == 0) bpf_map_delete_elem(fd, &key);
}

}  // namespace

struct LibbpfTracer::State {
  syscall_trace_bpf* skel = nullptr;
  std::vector<bpf_link*> links;
  ring_buffer* ring = nullptr;
  std::vector<CanaryHit>* canaries = nullptr;  // where poll() appends, while it runs
  std::vector<ForkSeen>* forks = nullptr;
  int cpus = 1;

  ~State() {
    if (ring) ring_buffer__free(ring);
    for (bpf_link* l : links) bpf_link__destroy(l);
    if (skel) syscall_trace_bpf__destroy(skel);
  }

  static int on_event(void* context, void* data, size_t size) {
    auto* self = static_cast<State*>(context);
    if (size < sizeof(jb_event)) return 0;
    const auto* e = static_cast<const jb_event*>(data);
    if (e->type == JB_EVENT_CANARY && self->canaries) {
      std::string path(e->path, strnlen(e->path, sizeof e->path));
      self->canaries->push_back(
          {static_cast<pid_t>(e->pid), static_cast<pid_t>(e->tid), e->t_ns, std::move(path)});
    } else if (e->type == JB_EVENT_FORK && self->forks) {
      self->forks->push_back(
          {static_cast<pid_t>(e->tid), static_cast<pid_t>(e->pid), e->other, e->t_ns});
    }
    return 0;
  }
};

std::string LibbpfTracer::program_object() {
  std::size_t size = 0;
  const void* bytes = syscall_trace_bpf__elf_bytes(&size);
  return std::string(static_cast<const char*>(bytes), size);
}

LibbpfTracer::LibbpfTracer(std::unique_ptr<State> state) : state_(std::move(state)) {}
LibbpfTracer::~LibbpfTracer() = default;

std::unique_ptr<LibbpfTracer> LibbpfTracer::open(std::string& why) {
  const std::uint64_t started = monotonic_ns();
  auto state = std::make_unique<State>();
  // libbpf's own messages would go to stderr: the reason returned says what failed.
  if (!std::getenv("JBENCH_LIBBPF_LOG")) libbpf_set_print(nullptr);
  state->skel = syscall_trace_bpf__open();
  if (!state->skel) {
    why = fmt::format("the compiled tracer could not be opened: {}", errno_text(errno));
    return nullptr;
  }
  if (const int err = syscall_trace_bpf__load(state->skel); err != 0) {
    why = fmt::format(
        "the kernel refused to load the compiled tracer: {} (needs BTF, and root "
        "or CAP_BPF with CAP_PERFMON)",
        errno_text(-err));
    return nullptr;
  }
  const int calls_fd = bpf_map__fd(state->skel->maps.calls);
  std::vector<std::string> attached;
  for (const CallNumber& n : kNumbers) {
    const TracedCall* call = find_call(n.name);
    jb_call_info info{};
    info.call = call ? static_cast<__u32>(call->id) : 0;
    info.kind = n.kind;
    info.path_arg = n.path_arg;
    const auto nr = static_cast<__u32>(n.nr);
    if (nr >= JB_MAX_SYSCALL_NR || bpf_map_update_elem(calls_fd, &nr, &info, BPF_ANY) != 0) {
      why = fmt::format("cannot describe syscall {} ({}) to the compiled tracer", n.name, n.nr);
      return nullptr;
    }
    attached.emplace_back(n.name);
  }
  for (bpf_program* p : {state->skel->progs.on_sys_enter, state->skel->progs.on_sys_exit,
                         state->skel->progs.on_fork, state->skel->progs.on_process_exit}) {
    bpf_link* l = bpf_program__attach(p);
    if (!l) {
      why = fmt::format("cannot attach {}: {}", bpf_program__name(p), errno_text(errno));
      return nullptr;
    }
    state->links.push_back(l);
  }
  state->ring = ring_buffer__new(bpf_map__fd(state->skel->maps.events), &State::on_event,
                                 state.get(), nullptr);
  if (!state->ring) {
    why = fmt::format("cannot read the compiled tracer's ring buffer: {}", errno_text(errno));
    return nullptr;
  }
  state->cpus = libbpf_num_possible_cpus();
  if (state->cpus <= 0) {
    why = "cannot count this host's possible CPUs";
    return nullptr;
  }
  std::unique_ptr<LibbpfTracer> tracer(new LibbpfTracer(std::move(state)));
  tracer->attached_ = std::move(attached);
  tracer->attach_ns_ = monotonic_ns() - started;
  return tracer;
}

std::string LibbpfTracer::begin_run(const std::vector<pid_t>& tgids) {
  auto* skel = state_->skel;
  __atomic_store_n(&skel->bss->tracing, 0u, __ATOMIC_SEQ_CST);
  clear_map<__u32>(bpf_map__fd(skel->maps.cohort));
  clear_map<jb_totals_key>(bpf_map__fd(skel->maps.totals));
  std::vector<CanaryHit> stale_canaries;
  std::vector<ForkSeen> stale_forks;
  poll(stale_canaries, stale_forks);  // what the last run left in the ring is not this run's
  __atomic_store_n(&skel->bss->lost, 0ull, __ATOMIC_SEQ_CST);
  __atomic_store_n(&skel->bss->phase, 0u, __ATOMIC_SEQ_CST);
  for (pid_t pid : tgids) {
    if (auto problem = add_process(pid); !problem.empty()) return problem;
  }
  __atomic_store_n(&skel->bss->tracing, 1u, __ATOMIC_SEQ_CST);
  return {};
}

void LibbpfTracer::set_phase(int phase) {
  __atomic_store_n(&state_->skel->bss->phase, static_cast<__u32>(phase), __ATOMIC_SEQ_CST);
}

std::string LibbpfTracer::add_process(pid_t tgid) {
  const auto key = static_cast<__u32>(tgid);
  const __u32 member = 1;
  if (bpf_map_update_elem(bpf_map__fd(state_->skel->maps.cohort), &key, &member, BPF_ANY) != 0) {
    return fmt::format("cannot add pid {} to the compiled tracer's cohort: {}", tgid,
                       errno_text(errno));
  }
  return {};
}

void LibbpfTracer::poll(std::vector<CanaryHit>& canaries, std::vector<ForkSeen>& forks,
                        int timeout_ms) {
  state_->canaries = &canaries;
  state_->forks = &forks;
  if (timeout_ms > 0) {
    ring_buffer__poll(state_->ring, timeout_ms);
  } else {
    ring_buffer__consume(state_->ring);
  }
  state_->canaries = nullptr;
  state_->forks = nullptr;
}

RunTotals LibbpfTracer::end_run() {
  auto* skel = state_->skel;
  __atomic_store_n(&skel->bss->tracing, 0u, __ATOMIC_SEQ_CST);
  RunTotals out;
  const int fd = bpf_map__fd(skel->maps.totals);
  std::vector<jb_totals> per_cpu(static_cast<std::size_t>(state_->cpus));
  jb_totals_key key{};
  jb_totals_key next{};
  bool first = true;
  while (bpf_map_get_next_key(fd, first ? nullptr : &key, &next) == 0) {
    first = false;
    key = next;
    if (bpf_map_lookup_elem(fd, &key, per_cpu.data()) != 0) continue;
    Totals& t = out.totals[{static_cast<pid_t>(key.tgid), key.phase, key.call}];
    const TracedCall* call = call_by_id(key.call);
    const bool has_request = call && call->kind == ArgKind::fd_request;
    for (const jb_totals& c : per_cpu) {
      t.count += c.count;
      t.errors += c.errors;
      t.total_ns += c.total_ns;
      t.max_ns = std::max<std::uint64_t>(t.max_ns, c.max_ns);
      for (int b = 0; b < JB_HIST_BUCKETS; ++b) {
        // Bucket b holds [2^b, 2^(b+1)) ns; its lower bound is the histogram's key.
        if (c.hist[b] > 0) t.log2_buckets[1ULL << b] += c.hist[b];
      }
      if (has_request) {
        t.requests[key.request] += c.count;
        if (c.errors > 0) t.request_errors[key.request] += c.errors;
      }
    }
  }
  out.lost = __atomic_load_n(&skel->bss->lost, __ATOMIC_SEQ_CST);
  clear_map<jb_totals_key>(fd);
  clear_map<__u32>(bpf_map__fd(skel->maps.cohort));
  return out;
}

}  // namespace jbench::collectors::syscall_detail
