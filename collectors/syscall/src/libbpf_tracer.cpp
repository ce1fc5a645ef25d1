#include "libbpf_tracer.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <fmt/format.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <thread>

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
  __u32 path_arg;  // opens and canaries: the path's argument
};

// This architecture's numbers of the traced calls and the canary calls. A call the
// architecture does not have (open on arm64) is simply absent.
constexpr CallNumber kNumbers[] = {
#ifdef SYS_open
    {"open", SYS_open, JB_KIND_PATH, 0},
#endif
    {"openat", SYS_openat, JB_KIND_PATH, 1},
#ifdef SYS_openat2
    {"openat2", SYS_openat2, JB_KIND_PATH, 1},
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

// The records ring's default size is the program's own (JB_RECORD_RING_BYTES).
static_assert(TracerOptions{}.record_ring_bytes == JB_RECORD_RING_BYTES);

// The liveness probe: getpgid of a pid no process has (it fails with EINVAL and does nothing).
constexpr long kProbeArg = -0x4a42;
// Records are written in batches of about this size.
constexpr std::size_t kBatchBytes = 1u << 20;
constexpr std::uint64_t kDrainTimeoutNs = 2'000'000'000ULL;

// A full run's records file: the consumer appends records as they arrive, written in batches.
struct RecordFile {
  std::FILE* file = nullptr;
  std::string path;
  std::string batch;
  std::uint64_t max_bytes = UINT64_MAX;
  std::uint64_t written = 0;
  std::string error;  // the first write error
  bool over_bound = false;
  RecordTrailer trailer;
  std::vector<std::uint64_t> consumed;   // per CPU: call and path records read
  std::vector<std::int64_t> drained_at;  // per CPU: the drained record's count; -1: not read

  void add(const void* data, std::size_t size) {
    if (!error.empty() || written + batch.size() + size > max_bytes) {
      over_bound = over_bound || error.empty();
      ++trailer.refused;
      return;
    }
    batch.append(static_cast<const char*>(data), size);
    if (batch.size() >= kBatchBytes) flush();
  }
  void flush() {
    if (batch.empty() || !error.empty()) return;
    if (std::fwrite(batch.data(), 1, batch.size(), file) != batch.size() ||
        std::fflush(file) != 0) {
      error = fmt::format("cannot write {}: {}", path, errno_text(errno));
    } else {
      written += batch.size();
    }
    batch.clear();
  }
};

}  // namespace

struct LibbpfTracer::State {
  syscall_trace_bpf* skel = nullptr;
  // The programs on their tracepoints: only while a run is traced. Attached, a program on
  // sys_enter puts every system call of the host on the kernel's slow path, so a session's
  // untraced runs (its baselines) would pay for a tracer they do not have.
  std::vector<bpf_link*> tracepoint_links;
  std::vector<bpf_link*> sample_links;  // on the sampling events, which are off between runs
  ring_buffer* ring = nullptr;
  std::vector<CanaryHit>* canaries = nullptr;  // where poll() appends, while it runs
  std::vector<ForkSeen>* forks = nullptr;
  int cpus = 1;
  std::unique_ptr<RecordFile> records;  // full runs, while they run
  std::vector<int> sample_fds;          // one software clock event per CPU, sampling

  ~State() {
    if (records && records->file) std::fclose(records->file);
    if (ring) ring_buffer__free(ring);
    detach_tracepoints();
    for (bpf_link* l : sample_links) bpf_link__destroy(l);
    for (const int fd : sample_fds) close(fd);
    if (skel) syscall_trace_bpf__destroy(skel);
  }

  void detach_tracepoints() {
    for (bpf_link* l : tracepoint_links) bpf_link__destroy(l);
    tracepoint_links.clear();
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

  // The records ring's reader: checks each record and, in a full run, keeps it.
  static int on_record(void* context, void* data, size_t size) {
    auto* self = static_cast<State*>(context);
    RecordFile* file = self->records.get();
    if (!file) return 0;  // a record of no run (a light run submits none)
    const auto* head = static_cast<const __u32*>(data);
    if (size < 2 * sizeof(__u32) || !record_size_ok(head[0], size) ||
        head[1] >= file->consumed.size()) {
      ++file->trailer.malformed;
      return 0;
    }
    const __u32 cpu = head[1];
    if (head[0] == JB_EVENT_DRAINED) {
      file->drained_at[cpu] =
          static_cast<std::int64_t>(static_cast<const jb_drained_record*>(data)->submitted);
    } else {
      ++file->consumed[cpu];
      ++file->trailer.records;
    }
    file->add(data, size);
    return 0;
  }
};

std::size_t LibbpfTracer::ring_size(std::size_t asked) {
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  std::size_t bytes = page;
  while (bytes < asked && bytes < (std::size_t{1} << 30)) bytes *= 2;
  return bytes;
}

std::size_t LibbpfTracer::record_ring_bytes() const {
  return bpf_map__max_entries(state_->skel->maps.records);
}

std::string LibbpfTracer::program_object() {
  std::size_t size = 0;
  const void* bytes = syscall_trace_bpf__elf_bytes(&size);
  return std::string(static_cast<const char*>(bytes), size);
}

// The on-CPU sampler: a software clock event at JB_SAMPLE_HZ on every CPU, each running
// on_cpu_sample. "" once attached, else why not (the tracer works on without samples).
std::string attach_sampling(LibbpfTracer::State& state) {
  perf_event_attr attr{};
  attr.type = PERF_TYPE_SOFTWARE;
  attr.size = sizeof attr;
  attr.config = PERF_COUNT_SW_CPU_CLOCK;
  attr.freq = 1;
  attr.sample_freq = JB_SAMPLE_HZ;
  attr.disabled = 1;  // enabled by each full run (sample_clock)
  // All CPUs or none: a sampler on some CPUs only would sample while the entry says it is off.
  std::vector<int> fds;
  std::vector<bpf_link*> links;
  const auto undo = [&](std::string why) {
    for (bpf_link* l : links) bpf_link__destroy(l);
    for (const int fd : fds) close(fd);
    return why;
  };
  for (int cpu = 0; cpu < state.cpus; ++cpu) {
    const int fd =
        static_cast<int>(syscall(SYS_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC));
    if (fd < 0) {
      if (errno == ENODEV) continue;  // a possible CPU that is not online
      return undo(fmt::format("perf_event_open (cpu-clock) on CPU {}: {}", cpu, errno_text(errno)));
    }
    fds.push_back(fd);
    bpf_link* l = bpf_program__attach_perf_event(state.skel->progs.on_cpu_sample, fd);
    if (!l) {
      return undo(fmt::format("cannot attach the sampler on CPU {}: {}", cpu, errno_text(errno)));
    }
    links.push_back(l);
  }
  if (fds.empty()) return "no CPU took a sampling event";
  state.sample_fds = std::move(fds);
  state.sample_links = std::move(links);
  return {};
}

LibbpfTracer::LibbpfTracer(std::unique_ptr<State> state) : state_(std::move(state)) {}
LibbpfTracer::~LibbpfTracer() = default;

namespace {

// Why the tracer cannot be had, with the errno the refusal came with (0: none).
struct Refusal {
  int code = 0;
  std::string text;
};

// The same for a call that failed with errno: "<what>: <its text>".
Refusal errno_refusal(std::string_view what) {
  const int code = errno;
  return {code, fmt::format("{}: {}", what, errno_text(code))};
}

// Every system call number described to the programs: the traced ones with how their arguments
// are read (their names into `attached`), every other one counted. A number the host lacks is
// never entered.
std::optional<Refusal> describe_calls(int calls_fd, std::vector<std::string>& attached) {
  for (const CallNumber& n : kNumbers) {
    const TracedCall* call = find_call(n.name);
    jb_call_info info{};
    info.call = call ? static_cast<__u32>(call->id) : 0;
    info.kind = n.kind;
    info.path_arg = n.path_arg;
    const auto nr = static_cast<__u32>(n.nr);
    if (nr >= JB_MAX_SYSCALL_NR || bpf_map_update_elem(calls_fd, &nr, &info, BPF_ANY) != 0) {
      return Refusal{
          nr >= JB_MAX_SYSCALL_NR ? 0 : errno,
          fmt::format("cannot describe syscall {} ({}) to the compiled tracer", n.name, n.nr)};
    }
    attached.emplace_back(n.name);
  }
  for (__u32 nr = 0; nr < JB_MAX_SYSCALL_NR; ++nr) {
    jb_call_info info{};
    if (bpf_map_lookup_elem(calls_fd, &nr, &info) == 0 && info.kind != JB_KIND_NONE) continue;
    info = jb_call_info{JB_CALL_SYSCALL_OTHER, JB_KIND_COUNTED, 0, 0};
    if (bpf_map_update_elem(calls_fd, &nr, &info, BPF_ANY) != 0) {
      return errno_refusal(fmt::format("cannot describe syscall {} to the compiled tracer", nr));
    }
  }
  return std::nullopt;
}

// Every program attached to its tracepoint (all or none).
std::optional<Refusal> attach_tracepoints(LibbpfTracer::State& state) {
  for (bpf_program* p :
       {state.skel->progs.on_sys_enter, state.skel->progs.on_sys_exit, state.skel->progs.on_fork,
        state.skel->progs.on_process_exit, state.skel->progs.on_sched_switch,
        state.skel->progs.on_sched_waking, state.skel->progs.on_sched_wakeup,
        state.skel->progs.on_irq_entry, state.skel->progs.on_irq_exit,
        state.skel->progs.on_softirq_entry, state.skel->progs.on_softirq_exit,
        state.skel->progs.on_hrtimer_entry, state.skel->progs.on_hrtimer_exit}) {
    bpf_link* l = bpf_program__attach(p);
    if (!l) {
      Refusal r = errno_refusal(fmt::format("cannot attach {}", bpf_program__name(p)));
      state.detach_tracepoints();
      return r;
    }
    state.tracepoint_links.push_back(l);
  }
  return std::nullopt;
}

// The two ring buffers opened for reading.
std::optional<Refusal> open_rings(LibbpfTracer::State& state) {
  state.ring = ring_buffer__new(bpf_map__fd(state.skel->maps.events),
                                &LibbpfTracer::State::on_event, &state, nullptr);
  if (!state.ring || ring_buffer__add(state.ring, bpf_map__fd(state.skel->maps.records),
                                      &LibbpfTracer::State::on_record, &state) != 0) {
    return errno_refusal("cannot read the compiled tracer's ring buffers");
  }
  return std::nullopt;
}

}  // namespace

Result<std::unique_ptr<LibbpfTracer>> LibbpfTracer::open(const TracerOptions& options) {
  const std::uint64_t started = monotonic_ns();
  // Says why, with the errno the refusal came with, and gives no tracer.
  const auto refuse = [](Refusal r) { return Error{std::move(r.text), r.code, ErrorKind::host}; };
  auto state = std::make_unique<State>();
  // libbpf's own messages would go to stderr: the reason returned says what failed.
  if (!std::getenv("JBENCH_LIBBPF_LOG")) libbpf_set_print(nullptr);
  state->skel = syscall_trace_bpf__open();
  if (!state->skel) return refuse(errno_refusal("the compiled tracer could not be opened"));
  if (bpf_map__set_max_entries(
          state->skel->maps.records,
          static_cast<__u32>(LibbpfTracer::ring_size(options.record_ring_bytes))) != 0) {
    return refuse(errno_refusal("cannot size the compiled tracer's records ring"));
  }
  if (const int err = syscall_trace_bpf__load(state->skel); err != 0) {
    return refuse({-err, fmt::format("the kernel refused to load the compiled tracer: {} (needs "
                                     "BTF, and root or CAP_BPF with CAP_PERFMON)",
                                     errno_text(-err))});
  }
  std::vector<std::string> attached;
  if (auto r = describe_calls(bpf_map__fd(state->skel->maps.calls), attached)) {
    return refuse(std::move(*r));
  }
  // Attached once to prove this kernel takes every program, and detached until a run begins.
  if (auto r = attach_tracepoints(*state)) return refuse(std::move(*r));
  state->detach_tracepoints();
  if (auto r = open_rings(*state)) return refuse(std::move(*r));
  state->cpus = libbpf_num_possible_cpus();
  if (state->cpus <= 0) return refuse({0, "cannot count this host's possible CPUs"});
  std::string sampling = options.samples ? attach_sampling(*state) : "not asked for";
  state->skel->bss->skip_off_cpu = options.off_cpu ? 0 : 1;
  state->skel->bss->probe_tgid = static_cast<__u32>(getpid());
  state->skel->bss->probe_nr = SYS_getpgid;
  state->skel->bss->probe_arg = kProbeArg;
  std::unique_ptr<LibbpfTracer> tracer(new LibbpfTracer(std::move(state)));
  tracer->attached_ = std::move(attached);
  tracer->attach_ns_ = monotonic_ns() - started;
  tracer->sampling_ = std::move(sampling);
  return tracer;
}

namespace {

// Sets every CPU's counts to zero.
void clear_cpu_counts(int fd, int cpus) {
  const std::vector<jb_cpu_counts> zero(static_cast<std::size_t>(cpus));
  const __u32 key = 0;
  bpf_map_update_elem(fd, &key, zero.data(), BPF_ANY);
}

jb_cpu_counts sum_cpu_counts(int fd, int cpus) {
  std::vector<jb_cpu_counts> per_cpu(static_cast<std::size_t>(cpus));
  jb_cpu_counts sum{};
  const __u32 key = 0;
  if (bpf_map_lookup_elem(fd, &key, per_cpu.data()) != 0) return sum;
  for (const auto& c : per_cpu) {
    sum.submitted += c.submitted;
    sum.lost += c.lost;
  }
  return sum;
}

}  // namespace

jbench::Status LibbpfTracer::begin_run(const std::vector<pid_t>& tgids,
                                       const RecordsOutput& records) {
  auto* skel = state_->skel;
  __atomic_store_n(&skel->bss->tracing, 0u, __ATOMIC_SEQ_CST);
  clear_map<__u32>(bpf_map__fd(skel->maps.cohort));
  clear_totals();
  state_->records.reset();
  std::vector<CanaryHit> stale_canaries;
  std::vector<ForkSeen> stale_forks;
  poll(stale_canaries, stale_forks);  // what the last run left in the rings is not this run's
  clear_cpu_counts(bpf_map__fd(skel->maps.cpu_counts), state_->cpus);
  if (!records.path.empty()) {
    auto file = std::make_unique<RecordFile>();
    file->path = records.path;
    file->max_bytes = records.max_bytes;
    file->file = std::fopen(records.path.c_str(), "wxe");
    if (!file->file) {
      return Error{fmt::format("cannot create {}: {}", records.path, errno_text(errno)), errno,
                   ErrorKind::io};
    }
    file->consumed.assign(static_cast<std::size_t>(state_->cpus), 0);
    file->drained_at.assign(static_cast<std::size_t>(state_->cpus), -1);
    file->trailer.cpus = static_cast<std::uint32_t>(state_->cpus);
    const std::string header = record_file_header(file->trailer.cpus);
    file->batch = header;
    state_->records = std::move(file);
  }
  __atomic_store_n(&skel->bss->unfinished, 0ull, __ATOMIC_SEQ_CST);
  __atomic_store_n(&skel->bss->phase, 0u, __ATOMIC_SEQ_CST);
  __atomic_store_n(&skel->bss->detail, records.path.empty() ? JB_DETAIL_LIGHT : JB_DETAIL_FULL,
                   __ATOMIC_SEQ_CST);
  // Woken once the ring is a quarter full: far from full, and rarely.
  __atomic_store_n(&skel->bss->wake_bytes, static_cast<__u64>(record_ring_bytes() / 4),
                   __ATOMIC_SEQ_CST);
  __atomic_add_fetch(&skel->bss->run, 1u, __ATOMIC_SEQ_CST);
  for (pid_t pid : tgids) {
    if (jbench::Status added = add_process(pid); !added) return added;
  }
  if (state_->tracepoint_links.empty()) {
    if (auto r = attach_tracepoints(*state_)) return Error{r->text, r->code, ErrorKind::host};
  }
  __atomic_store_n(&skel->bss->tracing, 1u, __ATOMIC_SEQ_CST);
  // The sampling clock ticks only while a full run is traced: a timer interrupt a millisecond on
  // every CPU keeps idle CPUs out of deep sleep, which would change what a light run measures.
  if (!records.path.empty()) sample_clock(true);
  return {};
}

std::uint64_t LibbpfTracer::entry_program_runs() const {
  bpf_prog_info info{};
  __u32 size = sizeof info;
  const int fd = bpf_program__fd(state_->skel->progs.on_sys_enter);
  return bpf_obj_get_info_by_fd(fd, &info, &size) == 0 ? info.run_cnt : 0;
}

void LibbpfTracer::sample_clock(bool on) {
  for (const int fd : state_->sample_fds) {
    ioctl(fd, on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0);
  }
}

void LibbpfTracer::set_phase(int phase) {
  __atomic_store_n(&state_->skel->bss->phase, static_cast<__u32>(phase), __ATOMIC_SEQ_CST);
}

jbench::Status LibbpfTracer::add_process(pid_t tgid) {
  const auto key = static_cast<__u32>(tgid);
  const __u32 member = 1;
  if (bpf_map_update_elem(bpf_map__fd(state_->skel->maps.cohort), &key, &member, BPF_ANY) != 0) {
    return Error{fmt::format("cannot add pid {} to the compiled tracer's cohort: {}", tgid,
                             errno_text(errno)),
                 errno, ErrorKind::host};
  }
  return {};
}

void LibbpfTracer::poll(std::vector<CanaryHit>& canaries, std::vector<ForkSeen>& forks,
                        int timeout_ms) {
  state_->canaries = &canaries;
  state_->forks = &forks;
  // The records ring does not wake its reader per record: after the wait, everything is read.
  if (timeout_ms > 0) ring_buffer__poll(state_->ring, timeout_ms);
  ring_buffer__consume(state_->ring);
  state_->canaries = nullptr;
  state_->forks = nullptr;
}

RunEnd LibbpfTracer::end_run() {
  std::vector<CanaryHit> canaries;
  std::vector<ForkSeen> forks;
  return end_run(canaries, forks);
}

RunEnd LibbpfTracer::end_run(std::vector<CanaryHit>& canaries, std::vector<ForkSeen>& forks) {
  auto* skel = state_->skel;
  RunEnd out;
  prove_attached(out);
  __atomic_store_n(&skel->bss->tracing, 0u, __ATOMIC_SEQ_CST);
  sample_clock(false);
  state_->detach_tracepoints();
  if (state_->records) {
    drain_every_cpu(out, canaries, forks);
  } else {
    poll(canaries, forks);
  }
  out.lost = sum_cpu_counts(bpf_map__fd(skel->maps.cpu_counts), state_->cpus).lost;
  out.unfinished = __atomic_load_n(&skel->bss->unfinished, __ATOMIC_SEQ_CST);
  if (state_->records) close_records(out);
  out.totals = read_totals();
  clear_map<__u32>(bpf_map__fd(skel->maps.cohort));
  return out;
}

// Both syscall programs still run: the probe call passes through each (while tracing).
void LibbpfTracer::prove_attached(RunEnd& out) {
  auto* bss = state_->skel->bss;
  const std::uint64_t probes = __atomic_load_n(&bss->probe_seen, __ATOMIC_SEQ_CST);
  ::syscall(SYS_getpgid, kProbeArg);
  if (__atomic_load_n(&bss->probe_seen, __ATOMIC_SEQ_CST) != probes) return;
  healthy_ = false;
  out.problems.push_back(
      "the compiled tracer's sys_enter/sys_exit programs no longer ran at the end of the run "
      "(a link was detached): calls may be missing");
}

// Makes every online CPU's last record (after tracing stopped) and reads until each one came,
// then counts what a CPU submitted but nobody read.
void LibbpfTracer::drain_every_cpu(RunEnd& out, std::vector<CanaryHit>& canaries,
                                   std::vector<ForkSeen>& forks) {
  RecordFile& file = *state_->records;
  poll(canaries, forks);  // room in the ring for the drained records
  std::vector<bool> expected(static_cast<std::size_t>(state_->cpus), false);
  const int prog = bpf_program__fd(state_->skel->progs.emit_drained);
  for (int cpu = 0; cpu < state_->cpus; ++cpu) {
    LIBBPF_OPTS(bpf_test_run_opts, run, .flags = BPF_F_TEST_RUN_ON_CPU,
                .cpu = static_cast<__u32>(cpu));
    if (bpf_prog_test_run_opts(prog, &run) == 0) {
      expected[static_cast<std::size_t>(cpu)] = true;
    } else if (errno != ENXIO) {  // ENXIO: an offline CPU, which traced nothing since
      out.problems.push_back(
          fmt::format("cannot end CPU {}'s records: {}", cpu, errno_text(errno)));
    }
  }
  const auto drained = [&] {
    for (std::size_t c = 0; c < expected.size(); ++c) {
      if (expected[c] && file.drained_at[c] < 0) return false;
    }
    return true;
  };
  const std::uint64_t deadline = monotonic_ns() + kDrainTimeoutNs;
  poll(canaries, forks);
  while (!drained() && monotonic_ns() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    poll(canaries, forks);
  }
  for (std::size_t c = 0; c < expected.size(); ++c) {
    if (!expected[c]) continue;
    if (file.drained_at[c] < 0) {
      out.problems.push_back(fmt::format(
          "CPU {}'s drained record was not read within {} s: its last records may be missing", c,
          kDrainTimeoutNs / 1'000'000'000ULL));
      continue;
    }
    ++file.trailer.drained_cpus;
    const auto submitted = static_cast<std::uint64_t>(file.drained_at[c]);
    if (submitted > file.consumed[c]) file.trailer.missing += submitted - file.consumed[c];
  }
}

// Writes the trailer, closes the records file and says what it could not keep.
void LibbpfTracer::close_records(RunEnd& out) {
  RecordFile& file = *state_->records;
  file.trailer.lost = out.lost;
  file.trailer.unfinished = out.unfinished;
  file.batch.append(reinterpret_cast<const char*>(&file.trailer), sizeof file.trailer);
  file.flush();
  if (std::fclose(file.file) != 0 && file.error.empty()) {
    file.error = fmt::format("cannot write {}: {}", file.path, errno_text(errno));
  }
  file.file = nullptr;
  if (!file.error.empty()) out.problems.push_back(file.error);
  out.over_bound = file.over_bound;
  if (file.over_bound) {
    out.problems.push_back(
        fmt::format("the records file reached its bound of {} bytes: {} record(s) were not kept",
                    file.max_bytes, file.trailer.refused));
  }
  if (file.trailer.missing > 0) {
    out.problems.push_back(
        fmt::format("{} record(s) the kernel submitted were never read", file.trailer.missing));
  }
  out.records = file.trailer;
  state_->records.reset();
}

std::map<TotalsKey, Totals> LibbpfTracer::read_totals() {
  std::map<TotalsKey, Totals> totals;
  const int slots = bpf_map__fd(state_->skel->maps.slot_of);
  const int fd = bpf_map__fd(state_->skel->maps.totals);
  std::vector<jb_totals> per_cpu(static_cast<std::size_t>(state_->cpus));
  jb_totals_key key{};
  jb_totals_key next{};
  bool first = true;
  while (bpf_map_get_next_key(slots, first ? nullptr : &key, &next) == 0) {
    first = false;
    key = next;
    __u32 slot = 0;
    if (bpf_map_lookup_elem(slots, &key, &slot) != 0) continue;
    if (bpf_map_lookup_elem(fd, &slot, per_cpu.data()) != 0) continue;
    const ThreadRole role = thread_role_of(key.role);
    Totals& t = totals[{static_cast<pid_t>(key.tgid), key.phase, key.call, role}];
    const TracedCall* call = call_by_id(key.call);
    const bool request = call && has_request(*call);
    std::uint64_t count = 0, errors = 0, ns = 0;
    for (const jb_totals& c : per_cpu) {
      count += c.count;
      errors += c.errors;
      ns += c.total_ns;
      t.max_ns = std::max<std::uint64_t>(t.max_ns, c.max_ns);
      for (int b = 0; b < JB_HIST_BUCKETS; ++b) {
        // Bucket b holds [2^b, 2^(b+1)) ns; its lower bound is the histogram's key.
        if (c.hist[b] > 0) t.log2_buckets[1ULL << b] += c.hist[b];
      }
    }
    t.count += count;
    t.errors += errors;
    t.total_ns += ns;
    if (request) {
      t.requests[key.request] += count;
      if (errors > 0) t.request_errors[key.request] += errors;
      t.request_ns[key.request] += ns;
    }
  }
  clear_totals();
  read_other_totals(totals);
  return totals;
}

// Every other system call's totals, as the call JB_CALL_SYSCALL_OTHER with the number plus one
// as its request (request_name names it); then the map is emptied for the next run.
void LibbpfTracer::read_other_totals(std::map<TotalsKey, Totals>& totals) {
  const int fd = bpf_map__fd(state_->skel->maps.other_totals);
  std::vector<jb_other_totals> per_cpu(static_cast<std::size_t>(state_->cpus));
  jb_other_key key{};
  jb_other_key next{};
  bool first = true;
  while (bpf_map_get_next_key(fd, first ? nullptr : &key, &next) == 0) {
    first = false;
    key = next;
    if (bpf_map_lookup_elem(fd, &key, per_cpu.data()) != 0) continue;
    Totals& t = totals[{static_cast<pid_t>(key.tgid), key.phase, JB_CALL_SYSCALL_OTHER,
                        thread_role_of(key.role)}];
    const std::uint64_t request = std::uint64_t{key.nr} + 1;
    for (const jb_other_totals& c : per_cpu) {
      t.count += c.count;
      t.errors += c.errors;
      t.total_ns += c.total_ns;
      t.max_ns = std::max<std::uint64_t>(t.max_ns, c.max_ns);
      t.requests[request] += c.count;
      if (c.errors > 0) t.request_errors[request] += c.errors;
      t.request_ns[request] += c.total_ns;
    }
  }
  clear_map<jb_other_key>(fd);
}

// Zeroes every slot given out and takes the keys back, so the next run starts from nothing.
void LibbpfTracer::clear_totals() {
  const int slots = bpf_map__fd(state_->skel->maps.slot_of);
  const int fd = bpf_map__fd(state_->skel->maps.totals);
  const std::vector<jb_totals> zero(static_cast<std::size_t>(state_->cpus));
  jb_totals_key key{};
  while (bpf_map_get_next_key(slots, nullptr, &key) == 0) {
    __u32 slot = 0;
    if (bpf_map_lookup_elem(slots, &key, &slot) == 0) {
      bpf_map_update_elem(fd, &slot, zero.data(), BPF_ANY);
    }
    bpf_map_delete_elem(slots, &key);
  }
  __atomic_store_n(&state_->skel->bss->next_slot, 0u, __ATOMIC_SEQ_CST);
}

}  // namespace jbench::collectors::syscall_detail
