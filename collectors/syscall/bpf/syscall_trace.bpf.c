// The compiled syscall tracer (docs/collectors/syscall.md, "The libbpf backend"): loaded once per
// session, attached while a run is traced, scoped to it by the cohort map the harness fills.
//
// Two programs see every system call, on the raw sys_enter / sys_exit tracepoints (two links:
// attaching and detaching take milliseconds, where one perf event per call's tracepoint took
// seconds to close), and `calls`, filled by the harness from its call table, maps the syscall
// number to the traced call.
// Nothing outside `cohort` is counted; a member's fork joins it in the kernel; an exiting
// process leaves it. The phase is a global the harness writes through the skeleton's mapped
// .bss right before each phase message, so a call belongs to the phase in force at its entry.
//
// light: per-CPU totals keyed (tgid, phase, call, request). full: a fixed-size record per call
// (and one per open for its path) into the `records` ring, submitted without waking the reader
// unless the ring is filling up: the reader drains it on a timer. Canaries and forks go through
// the small `events` ring, which wakes its reader. Anything that cannot be recorded (a full map,
// a full ring) is counted per CPU: the collector fails closed on it. At the end of a run the
// harness runs `emit_drained` once on every CPU: its record, last of that CPU's, carries how many
// records the CPU submitted, so the reader knows it has them all.
// vmlinux.h (the kernel's types) must come before everything that uses them.
// clang-format off
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "syscall_trace.h"
// clang-format on

char LICENSE[] SEC("license") = "GPL";

// Written by the harness (mapped .bss): the phase in force; whether a run is being traced; the
// run's number (a call entered in an earlier run is not this run's); its detail (JB_DETAIL_*).
volatile __u32 phase = 0;
volatile __u32 tracing = 0;
volatile __u32 run = 0;
volatile __u32 detail = 0;
// Set by the loader when told not to follow the cohort's intervals off the CPU (sched_switch).
volatile __u32 skip_off_cpu = 0;
// full: the fill level of `records` from which a submission wakes the reader.
volatile __u64 wake_bytes = 0;
// The harness's liveness probe: a call of its own (probe_nr with probe_arg first) that the two
// programs count in probe_seen, proving both still run.
volatile __u32 probe_tgid = 0;
volatile __u32 probe_nr = 0;
volatile __s64 probe_arg = 0;
__u64 probe_seen = 0;
// Calls a member was in when its run's tracing ended: not counted.
__u64 unfinished = 0;
// light: the next free slot of `totals` (the harness sets it to 0 between runs).
__u32 next_slot = 0;

struct {
  __uint(type, BPF_MAP_TYPE_ARRAY);
  __uint(max_entries, JB_MAX_SYSCALL_NR);
  __type(key, __u32);
  __type(value, struct jb_call_info);
} calls SEC(".maps");

struct {
  __uint(type, BPF_MAP_TYPE_HASH);
  __uint(max_entries, JB_MAX_COHORT);
  __type(key, __u32);  // tgid
  __type(value, __u32);
} cohort SEC(".maps");

// Where a thread last found the totals of one (call, phase): a slot of `totals`, valid in `run`
// for `request`. Found again without hashing the key, which costs more than the rest of a call's
// accounting.
struct slot_hint {
  __u32 slot_plus1;  // 0: none
  __u32 run;
  __u64 request;
};

// The call a thread is in, kept with the thread itself (task storage: no hash update per call).
struct entry {
  __u64 t_ns;
  __u64 request;
  __u64 path;  // user pointer, read at exit (at entry its page may not be mapped yet)
  __s64 fd;    // full: the descriptor, or an open's directory descriptor
  __u32 phase;
  __u32 call;
  __u32 kind;
  __u32 active;      // set at a traced entry, cleared at its exit
  __u32 run;         // the run the call entered in
  __u32 member_run;  // the last run whose cohort this thread's process was found in
  __u32 tgid;
  __u32 role;  // JB_ROLE_*, from the thread's name at its first traced call of the run
  // The run whose first traced call set `role`: until then the thread is counted (its other
  // calls, by its name at each) but not followed off the CPU. A thread names itself after it
  // starts (the bridge's writer does), so a role read at its first call of any kind could be
  // the one it had before its name.
  __u32 role_run;
  __u32 role_pad;
  // Off the CPU outside a traced call: since when, how (a JB_CALL_OFF_CPU_*), in which phase and
  // run, and when it was woken (0: not yet). off_ns 0: on a CPU, or not followed.
  __u64 off_ns;
  __u64 woken_ns;
  __u64 off_request;  // blocked: the system call it blocked in, plus one; 0: none
  // The last wake-up while in the call or the blocked wait (JB_WAKER_*; cleared at each start).
  __u32 waker_how;
  __u32 waker_tgid;
  __u32 waker_tid;
  __u32 waker_pad;
  __u64 waker_ns;  // when that wake-up was (sched_waking)
  __u32 off_call;
  __u32 off_phase;
  __u32 off_run;
  __u32 off_pad;
  // In another system call (JB_KIND_COUNTED): since when (0: not), which, in which phase and run.
  // Fields of their own: the off-CPU intervals reuse the call's while the thread is in no call.
  __u64 other_ns;
  __u32 other_nr;
  __u32 other_phase;
  __u32 other_run;
  __u32 other_role;
  struct slot_hint hints[JB_HINT_CALLS * JB_HINT_PHASES];  // by call * JB_HINT_PHASES + phase
};

struct {
  __uint(type, BPF_MAP_TYPE_TASK_STORAGE);
  __uint(map_flags, BPF_F_NO_PREALLOC);
  __type(key, int);
  __type(value, struct entry);
} in_flight SEC(".maps");

// light: the slot of each (tgid, phase, call, request), given out in order from next_slot; and
// the totals, per slot and per CPU.
struct {
  __uint(type, BPF_MAP_TYPE_HASH);
  __uint(max_entries, JB_MAX_TOTALS);
  __type(key, struct jb_totals_key);
  __type(value, __u32);
} slot_of SEC(".maps");

struct {
  __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
  __uint(max_entries, JB_MAX_TOTALS);
  __type(key, __u32);
  __type(value, struct jb_totals);
} totals SEC(".maps");

struct {
  __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
  __uint(max_entries, 1);
  __type(key, __u32);
  __type(value, struct jb_cpu_counts);
} cpu_counts SEC(".maps");

// Every other system call's totals (both details), per CPU.
struct {
  __uint(type, BPF_MAP_TYPE_PERCPU_HASH);
  __uint(max_entries, JB_MAX_OTHER);
  __type(key, struct jb_other_key);
  __type(value, struct jb_other_totals);
} other_totals SEC(".maps");

struct {
  __uint(type, BPF_MAP_TYPE_RINGBUF);
  __uint(max_entries, JB_RING_BYTES);
} events SEC(".maps");

// Sized by the harness before loading (JB_RECORD_RING_BYTES unless told otherwise).
struct {
  __uint(type, BPF_MAP_TYPE_RINGBUF);
  __uint(max_entries, JB_RECORD_RING_BYTES);
} records SEC(".maps");

static __always_inline struct jb_cpu_counts* my_counts(void) {
  const __u32 zero = 0;
  return bpf_map_lookup_elem(&cpu_counts, &zero);
}

// Per-CPU: only this CPU writes its value; atomically, because the sampler's program can
// interrupt another of these on the same CPU.
static __always_inline void count_lost(void) {
  struct jb_cpu_counts* c = my_counts();
  if (c) __sync_fetch_and_add(&c->lost, 1);
}

// No wakeup per record: the reader polls on a timer, and is woken only when the ring fills up.
static __always_inline __u64 wake_flags(void) {
  return bpf_ringbuf_query(&records, BPF_RB_AVAIL_DATA) >= wake_bytes ? BPF_RB_FORCE_WAKEUP
                                                                      : BPF_RB_NO_WAKEUP;
}

// floor(log2(v)), 0 for v <= 1, at most the last bucket.
static __always_inline __u32 log2_bucket(__u64 v) {
  __u32 b = 0;
  if (v >> 32) {
    v >>= 32;
    b += 32;
  }
  if (v >> 16) {
    v >>= 16;
    b += 16;
  }
  if (v >> 8) {
    v >>= 8;
    b += 8;
  }
  if (v >> 4) {
    v >>= 4;
    b += 4;
  }
  if (v >> 2) {
    v >>= 2;
    b += 2;
  }
  if (v >> 1) b += 1;
  return b < JB_HIST_BUCKETS ? b : JB_HIST_BUCKETS - 1;
}

// The totals of the call `e` ended: through the thread's hint, else by the key's slot (given
// out on first use). Null when every slot is taken.
static __always_inline struct jb_totals* totals_of(struct entry* e) {
  struct slot_hint* hint = 0;
  if (e->call < JB_HINT_CALLS && e->phase < JB_HINT_PHASES) {
    hint = &e->hints[(e->call * JB_HINT_PHASES + e->phase) & (JB_HINT_CALLS * JB_HINT_PHASES - 1)];
    if (hint->run == run && hint->slot_plus1 != 0 && hint->request == e->request) {
      const __u32 slot = hint->slot_plus1 - 1;
      return bpf_map_lookup_elem(&totals, &slot);
    }
  }
  struct jb_totals_key key = {};
  key.tgid = e->tgid;
  key.phase = (__u8)e->phase;
  key.role = (__u8)e->role;
  key.call = (__u16)e->call;
  key.request = e->request;
  __u32 slot = 0;
  const __u32* found = bpf_map_lookup_elem(&slot_of, &key);
  if (found) {
    slot = *found;
  } else {
    slot = __sync_fetch_and_add(&next_slot, 1);
    if (slot >= JB_MAX_TOTALS) return 0;
    // Another CPU may have given the key a slot meanwhile: then that one is the key's.
    if (bpf_map_update_elem(&slot_of, &key, &slot, BPF_NOEXIST) != 0) {
      found = bpf_map_lookup_elem(&slot_of, &key);
      if (!found) return 0;
      slot = *found;
    }
  }
  if (hint) {
    hint->slot_plus1 = slot + 1;
    hint->run = run;
    hint->request = e->request;
  }
  return bpf_map_lookup_elem(&totals, &slot);
}

// Per CPU: how deep in interrupt handlers it is now (hard IRQs, softirqs, hrtimer callbacks),
// from their tracepoints, so that a wake-up made there is not taken for the task it landed on.
// The kernel's own preempt count is not exported to BPF where kallsyms holds no data symbols.
struct {
  __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
  __uint(max_entries, 1);
  __type(key, __u32);
  __type(value, __u32);
} irq_depth SEC(".maps");

static __always_inline __u32* interrupt_depth(void) {
  const __u32 zero = 0;
  return bpf_map_lookup_elem(&irq_depth, &zero);
}

// A system call's entry and a context switch are never inside an interrupt handler: the depth is
// 0 there. Set so, it cannot drift: an exit program the kernel skipped (a handler's exit nested
// in the same program's run on this CPU) leaves a count too high only until the next of them.
static __always_inline void out_of_interrupts(void) {
  __u32* depth = interrupt_depth();
  if (depth) *depth = 0;
}

static __always_inline void enter_interrupt(int step) {
  __u32* depth = interrupt_depth();
  if (!depth) return;
  if (step > 0) {
    *depth += 1;
  } else if (*depth > 0) {
    *depth -= 1;  // an exit whose entry came before the programs were attached: nothing to undo
  }
}

// JB_ROLE_BRIDGE_WRITER for the trace bridge's writer thread (by its name), else the workload's.
static __always_inline __u32 thread_role(void) {
  char name[16] = {};
  const char writer[] = JB_EVENTS_WRITER_THREAD_NAME;
  if (bpf_get_current_comm(name, sizeof name) != 0) return JB_ROLE_WORKLOAD;
  for (int i = 0; i < (int)sizeof writer; ++i) {
    if (name[i] != writer[i]) return JB_ROLE_WORKLOAD;
  }
  return JB_ROLE_BRIDGE_WRITER;
}

// Every system call of the host passes here (while a run is traced): an array lookup for its kind,
// a task-storage lookup, and a hash lookup for a thread not yet found in this run's cohort. The
// traced calls are followed as calls; every other call of a cohort thread is only timed and
// counted by its number (count_other). The arguments are read from the caller's registers: the
// second is the request of flock/fcntl/ioctl and the path of faccessat; access has it first.
SEC("tp_btf/sys_enter")
int BPF_PROG(on_sys_enter, struct pt_regs* regs, long id) {
  if (!tracing) return 0;
  out_of_interrupts();
  const __u64 pid_tgid = bpf_get_current_pid_tgid();
  const __u32 tgid = pid_tgid >> 32;
  if (tgid == probe_tgid) {
    if (id != probe_nr || (__s64)PT_REGS_PARM1_CORE_SYSCALL(regs) != probe_arg) return 0;
    struct entry* p = bpf_task_storage_get(&in_flight, bpf_get_current_task_btf(), 0,
                                           BPF_LOCAL_STORAGE_GET_F_CREATE);
    if (!p) return 0;
    p->kind = JB_KIND_PROBE;
    p->run = run;
    p->active = 1;
    return 0;
  }
  if (id < 0 || id >= JB_MAX_SYSCALL_NR) return 0;
  const __u32 nr = (__u32)id;
  const struct jb_call_info* info = bpf_map_lookup_elem(&calls, &nr);
  if (!info || info->kind == JB_KIND_NONE) return 0;
  // A thread already found in this run's cohort says so in its own storage: no hash lookup.
  struct task_struct* task = bpf_get_current_task_btf();
  struct entry* e = bpf_task_storage_get(&in_flight, task, 0, 0);
  if (!e || e->member_run != run) {
    if (!bpf_map_lookup_elem(&cohort, &tgid)) return 0;
    e = bpf_task_storage_get(&in_flight, task, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
    if (!e) {
      count_lost();
      return 0;
    }
    e->member_run = run;
    e->tgid = tgid;
  }
  if (info->kind == JB_KIND_COUNTED) {
    // Not a traced call: the thread's time off the CPU in it stays its off-CPU intervals'.
    e->other_ns = bpf_ktime_get_ns();
    e->other_nr = nr;
    e->other_phase = phase;
    e->other_run = run;
    e->other_role = e->role_run == run ? e->role : thread_role();
    return 0;
  }
  if (e->role_run != run) {
    e->role = thread_role();
    e->role_run = run;
  }
  e->t_ns = bpf_ktime_get_ns();
  e->phase = phase;
  e->call = info->call;
  e->kind = info->kind;
  e->run = run;
  e->request = info->kind == JB_KIND_FD_REQUEST ? PT_REGS_PARM2_CORE_SYSCALL(regs) : 0;
  e->path = 0;
  e->fd = -1;
  e->waker_how = JB_WAKER_NONE;
  if (info->kind == JB_KIND_CANARY) {
    e->path =
        info->path_arg == 1 ? PT_REGS_PARM2_CORE_SYSCALL(regs) : PT_REGS_PARM1_CORE_SYSCALL(regs);
  } else if (detail == JB_DETAIL_FULL) {
    if (info->kind == JB_KIND_PATH) {
      // openat, openat2: (dfd, path, ...); open: (path, ...) against the working directory.
      e->fd = info->path_arg == 1 ? (__s64)(int)PT_REGS_PARM1_CORE_SYSCALL(regs) : -100;
      e->path =
          info->path_arg == 1 ? PT_REGS_PARM2_CORE_SYSCALL(regs) : PT_REGS_PARM1_CORE_SYSCALL(regs);
    } else {
      e->fd = (__s64)(int)PT_REGS_PARM1_CORE_SYSCALL(regs);
    }
  }
  e->active = 1;
  return 0;
}

// The file behind descriptor `fd` of the current task: its inode number and its superblock's
// device. Both stay 0 for a descriptor that names nothing.
static __always_inline void file_identity(__s64 fd, __u64* inode, __u32* dev) {
  *inode = 0;
  *dev = 0;
  if (fd < 0) return;
  struct task_struct* task = bpf_get_current_task_btf();
  struct fdtable* fdt = BPF_CORE_READ(task, files, fdt);
  if (!fdt || fd >= BPF_CORE_READ(fdt, max_fds)) return;
  struct file** fds = BPF_CORE_READ(fdt, fd);
  struct file* f = 0;
  if (bpf_probe_read_kernel(&f, sizeof f, fds + fd) != 0 || !f) return;
  *inode = BPF_CORE_READ(f, f_inode, i_ino);
  *dev = BPF_CORE_READ(f, f_inode, i_sb, s_dev);
}

// The record's woken_before_end: how long before `end` the thread's last waker woke it, plus
// one; 0 when there was none or it does not fit.
static __always_inline __u32 woken_before(const struct entry* e, __u64 end) {
  if (e->waker_how == JB_WAKER_NONE || e->waker_ns < e->t_ns || e->waker_ns > end) return 0;
  const __u64 before = end - e->waker_ns;
  return before < 0xfffffffeULL ? (__u32)before + 1 : 0;
}

// full: the call's record, and an open's path after it.
static __always_inline void record_call(const struct entry* e, __u64 pid_tgid, __u64 now,
                                        long ret) {
  struct jb_cpu_counts* counts = my_counts();
  if (!counts) return;
  struct jb_call_record* r = bpf_ringbuf_reserve(&records, sizeof(*r), 0);
  if (!r) {
    __sync_fetch_and_add(&counts->lost, 1);
    return;
  }
  const __u32 cpu = bpf_get_smp_processor_id();
  r->type = JB_EVENT_CALL;
  r->cpu = cpu;
  r->tgid = pid_tgid >> 32;
  r->tid = (__u32)pid_tgid;
  r->t_ns = e->t_ns;
  r->duration_ns = now - e->t_ns;
  r->fd = e->fd;
  r->result = ret;
  r->request = e->request;
  r->phase = (__u8)e->phase;
  r->role = (__u8)e->role;
  r->call = (__u16)e->call;
  r->waker_how = e->waker_how;
  r->waker_tgid = e->waker_tgid;
  r->waker_tid = e->waker_tid;
  r->woken_before_end = woken_before(e, now);
  // Opens: the file the returned descriptor names; the others: the file of the descriptor used.
  file_identity(e->kind == JB_KIND_PATH ? ret : e->fd, &r->inode, &r->dev);
  bpf_ringbuf_submit(r, wake_flags());
  __sync_fetch_and_add(&counts->submitted, 1);
  if (e->kind != JB_KIND_PATH) return;
  struct jb_path_record* p = bpf_ringbuf_reserve(&records, sizeof(*p), 0);
  if (!p) {
    __sync_fetch_and_add(&counts->lost, 1);
    return;
  }
  p->type = JB_EVENT_PATH;
  p->cpu = cpu;
  p->tid = (__u32)pid_tgid;
  p->t_ns = e->t_ns;
  p->length = bpf_probe_read_user_str(p->path, sizeof p->path, (const void*)e->path);
  bpf_ringbuf_submit(p, wake_flags());
  __sync_fetch_and_add(&counts->submitted, 1);
}

// A completed call (or an off-CPU interval) of thread `pid_tgid`, ended at `end`: its record
// (full) or its totals (light).
static __always_inline void account(struct entry* e, __u64 pid_tgid, __u64 end, long ret) {
  if (detail == JB_DETAIL_FULL) {
    record_call(e, pid_tgid, end, ret);
    return;
  }
  struct jb_totals* t = totals_of(e);
  if (!t) {
    count_lost();
    return;
  }
  const __u64 d = end - e->t_ns;
  const __u32 bucket = log2_bucket(d);
  // Per-CPU values: no other CPU writes this one, so plain adds are exact.
  t->count += 1;
  if (ret < 0) t->errors += 1;
  t->total_ns += d;
  if (d > t->max_ns) t->max_ns = d;
  if (bucket < JB_HIST_BUCKETS) t->hist[bucket] += 1;
}

// Another system call ended: its totals, per CPU (only this CPU writes them, but the sampler's
// program cannot touch them, so plain adds are exact). A key first seen is added as zeros.
static __always_inline void count_other(struct entry* e, long ret) {
  const __u64 since = e->other_ns;
  e->other_ns = 0;
  if (!tracing || e->other_run != run) return;
  struct jb_other_key key = {};
  key.tgid = e->tgid;
  key.nr = (__u16)e->other_nr;
  key.phase = (__u8)e->other_phase;
  key.role = (__u8)e->other_role;
  struct jb_other_totals* t = bpf_map_lookup_elem(&other_totals, &key);
  if (!t) {
    const struct jb_other_totals zero = {};
    bpf_map_update_elem(&other_totals, &key, &zero, BPF_NOEXIST);
    t = bpf_map_lookup_elem(&other_totals, &key);
    if (!t) {
      count_lost();
      return;
    }
  }
  const __u64 d = bpf_ktime_get_ns() - since;
  t->count += 1;
  if (ret < 0) t->errors += 1;
  t->total_ns += d;
  if (d > t->max_ns) t->max_ns = d;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(on_sys_exit, struct pt_regs* regs, long ret) {
  struct entry* e = bpf_task_storage_get(&in_flight, bpf_get_current_task_btf(), 0, 0);
  if (e && e->other_ns) {
    count_other(e, ret);
    return 0;
  }
  if (!e || !e->active) return 0;
  e->active = 0;
  if (e->kind == JB_KIND_PROBE) {
    __sync_fetch_and_add(&probe_seen, 1);
    return 0;
  }
  if (!tracing || e->run != run) {
    __sync_fetch_and_add(&unfinished, 1);
    return 0;
  }
  const __u64 now = bpf_ktime_get_ns();
  if (e->kind == JB_KIND_CANARY) {
    const __u64 pid_tgid = bpf_get_current_pid_tgid();
    const __u32 tid = (__u32)pid_tgid;
    const __u32 tgid = pid_tgid >> 32;
    struct jb_event* out = bpf_ringbuf_reserve(&events, sizeof(*out), 0);
    if (out) {
      out->type = JB_EVENT_CANARY;
      out->pid = tgid;
      out->tid = tid;
      out->t_ns = e->t_ns;
      out->other = 0;
      bpf_probe_read_user_str(out->path, sizeof out->path, (const void*)e->path);
      bpf_ringbuf_submit(out, 0);
    } else {
      count_lost();
    }
    return 0;
  }
  account(e, bpf_get_current_pid_tgid(), now, ret);
  return 0;
}

// The system call `task` is in, plus one, from its saved user registers (the kernel keeps the
// number there for the whole call); 0 when it is in none (a page fault, the kernel's own wait).
static __always_inline __u64 syscall_in(struct task_struct* task) {
  struct pt_regs* regs = (struct pt_regs*)bpf_task_pt_regs(task);
  if (!regs) return 0;
#if defined(__TARGET_ARCH_x86)
  const long nr = BPF_CORE_READ(regs, orig_ax);
#elif defined(__TARGET_ARCH_arm64)
  const long nr = BPF_CORE_READ(regs, syscallno);
#else
  const long nr = -1;
#endif
  return nr >= 0 && nr < JB_MAX_SYSCALL_NR ? (__u64)nr + 1 : 0;
}

// Switched out outside a traced call: the thread is off the CPU from now, runnable if it was
// preempted (or yielded) and blocked otherwise, in the system call it is in (an untraced one).
// Switched in: that interval is accounted as a call of its own, blocked up to the wake-up and
// runnable after it. Only the workload's threads already found in this run's cohort (at their first
// traced call) are followed: no lookup for any other, and the bridge's writer, which waits for work
// by design, is not the workload's.
SEC("tp_btf/sched_switch")
int BPF_PROG(on_sched_switch, bool preempt, struct task_struct* prev, struct task_struct* next,
             unsigned int prev_state) {
  if (!tracing) return 0;
  out_of_interrupts();
  if (skip_off_cpu) return 0;
  const __u64 now = bpf_ktime_get_ns();
  struct entry* out = bpf_task_storage_get(&in_flight, prev, 0, 0);
  if (out && out->member_run == run && out->role_run == run && !out->active &&
      out->role == JB_ROLE_WORKLOAD) {
    out->off_ns = now;
    out->woken_ns = 0;
    out->off_call = preempt || prev_state == 0 ? JB_CALL_OFF_CPU_RUNNABLE : JB_CALL_OFF_CPU_BLOCKED;
    out->off_request = out->off_call == JB_CALL_OFF_CPU_BLOCKED ? syscall_in(prev) : 0;
    out->off_phase = phase;
    out->off_run = run;
    out->waker_how = JB_WAKER_NONE;
  }
  struct entry* in = bpf_task_storage_get(&in_flight, next, 0, 0);
  if (!in || in->off_ns == 0) return 0;
  const __u64 since = in->off_ns;
  in->off_ns = 0;
  if (in->active || in->off_run != run || in->member_run != run) return 0;
  const __u64 pid_tgid = ((__u64)BPF_CORE_READ(next, tgid) << 32) | BPF_CORE_READ(next, pid);
  // Not in a call: its fields are free to carry the interval through the same accounting.
  in->phase = in->off_phase;
  in->request = 0;
  in->fd = -1;
  in->kind = JB_KIND_OFF_CPU;
  __u64 runnable_from = since;
  if (in->off_call == JB_CALL_OFF_CPU_BLOCKED) {
    runnable_from = in->woken_ns && in->woken_ns < now ? in->woken_ns : now;
    in->call = JB_CALL_OFF_CPU_BLOCKED;
    in->request = in->off_request;
    in->t_ns = since;
    account(in, pid_tgid, runnable_from, 0);
  }
  if (runnable_from < now) {
    in->call = JB_CALL_OFF_CPU_RUNNABLE;
    in->request = 0;
    in->waker_how = JB_WAKER_NONE;
    in->t_ns = runnable_from;
    account(in, pid_tgid, now, 0);
  }
  return 0;
}

SEC("tp_btf/irq_handler_entry")
int BPF_PROG(on_irq_entry) {
  enter_interrupt(1);
  return 0;
}

SEC("tp_btf/irq_handler_exit")
int BPF_PROG(on_irq_exit) {
  enter_interrupt(-1);
  return 0;
}

SEC("tp_btf/softirq_entry")
int BPF_PROG(on_softirq_entry) {
  enter_interrupt(1);
  return 0;
}

SEC("tp_btf/softirq_exit")
int BPF_PROG(on_softirq_exit) {
  enter_interrupt(-1);
  return 0;
}

SEC("tp_btf/hrtimer_expire_entry")
int BPF_PROG(on_hrtimer_entry) {
  enter_interrupt(1);
  return 0;
}

SEC("tp_btf/hrtimer_expire_exit")
int BPF_PROG(on_hrtimer_exit) {
  enter_interrupt(-1);
  return 0;
}

// Who is waking a thread now (sched_waking runs in the waker's own context): an interrupt
// handler, a kernel thread, or a task.
static __always_inline void note_waker(struct entry* e) {
  const __u32* depth = interrupt_depth();
  struct task_struct* current = bpf_get_current_task_btf();
  __u32 how = JB_WAKER_TASK;
  if (depth && *depth > 0) {
    how = JB_WAKER_INTERRUPT;
  } else if (current->flags & 0x00200000 /* PF_KTHREAD */) {
    how = JB_WAKER_KERNEL_THREAD;
  }
  const __u64 pid_tgid = bpf_get_current_pid_tgid();
  e->waker_ns = bpf_ktime_get_ns();
  e->waker_how = how;
  e->waker_tgid = how == JB_WAKER_INTERRUPT ? 0 : pid_tgid >> 32;
  e->waker_tid = how == JB_WAKER_INTERRUPT ? 0 : (__u32)pid_tgid;
}

// A cohort thread being woken, in the waker's own context (sched_waking: sched_wakeup may run on
// the woken thread's CPU, in whatever runs there): who woke it, in a traced call or a blocked
// wait outside one.
SEC("tp_btf/sched_waking")
int BPF_PROG(on_sched_waking, struct task_struct* p) {
  if (!tracing) return 0;
  struct entry* e = bpf_task_storage_get(&in_flight, p, 0, 0);
  if (!e) return 0;
  if (e->active) {
    if (e->run == run && e->kind != JB_KIND_PROBE) note_waker(e);
    return 0;
  }
  if (e->off_ns == 0 || e->off_call != JB_CALL_OFF_CPU_BLOCKED || e->woken_ns) return 0;
  note_waker(e);
  return 0;
}

// A blocked cohort thread put on a run queue: from now it is runnable, waiting for a CPU — the
// kernel's own start of its run delay (schedstat), so the two accounts agree.
SEC("tp_btf/sched_wakeup")
int BPF_PROG(on_sched_wakeup, struct task_struct* p) {
  if (!tracing) return 0;
  struct entry* e = bpf_task_storage_get(&in_flight, p, 0, 0);
  if (!e || e->off_ns == 0 || e->off_call != JB_CALL_OFF_CPU_BLOCKED || e->woken_ns) return 0;
  e->woken_ns = bpf_ktime_get_ns();
  return 0;
}

// A member's fork joins the cohort (a new thread of a member is already in it, by its tgid).
SEC("tp_btf/sched_process_fork")
int BPF_PROG(on_fork, struct task_struct* parent, struct task_struct* child) {
  if (!tracing) return 0;
  const __u32 parent_tgid = BPF_CORE_READ(parent, tgid);
  const __u32 child_pid = BPF_CORE_READ(child, pid);
  const __u32 child_tgid = BPF_CORE_READ(child, tgid);
  if (child_pid != child_tgid) return 0;  // a thread
  if (!bpf_map_lookup_elem(&cohort, &parent_tgid)) return 0;
  const __u32 joined = 1;
  if (bpf_map_update_elem(&cohort, &child_tgid, &joined, BPF_ANY) != 0) count_lost();
  struct jb_event* out = bpf_ringbuf_reserve(&events, sizeof(*out), 0);
  if (!out) {
    count_lost();
    return 0;
  }
  out->type = JB_EVENT_FORK;
  out->pid = child_tgid;
  out->tid = parent_tgid;
  out->t_ns = bpf_ktime_get_ns();
  out->other = BPF_CORE_READ(child, start_boottime);
  out->path[0] = 0;
  bpf_ringbuf_submit(out, 0);
  return 0;
}

// An exiting process leaves the cohort (its pid may be reused by a process that is not ours).
SEC("tp_btf/sched_process_exit")
int BPF_PROG(on_process_exit, struct task_struct* task) {
  const __u32 pid = BPF_CORE_READ(task, pid);
  const __u32 tgid = BPF_CORE_READ(task, tgid);
  if (pid == tgid) bpf_map_delete_elem(&cohort, &tgid);
  return 0;
}

// full: a sample of whatever runs on this CPU, at JB_SAMPLE_HZ (a perf software clock event per
// CPU): a workload thread of the run's cohort is recorded with its user stack (frame pointers;
// where a library has none the walk ends early, and the leaf is still the true one).
SEC("perf_event")
int on_cpu_sample(struct bpf_perf_event_data* ctx) {
  if (!tracing || detail != JB_DETAIL_FULL) return 0;
  const __u64 pid_tgid = bpf_get_current_pid_tgid();
  const __u32 tgid = pid_tgid >> 32;
  if (!bpf_map_lookup_elem(&cohort, &tgid)) return 0;
  // The thread's storage, where it has one and it can be had: the sample may interrupt another of
  // these programs in the middle of its own storage access, and then it is busy (never created
  // here for that reason). Without it, the thread's role comes from its name.
  struct entry* e = bpf_task_storage_get(&in_flight, bpf_get_current_task_btf(), 0, 0);
  const __u32 role = e && e->role_run == run ? e->role : thread_role();
  struct jb_cpu_counts* counts = my_counts();
  if (!counts) return 0;
  struct jb_sample_record* r = bpf_ringbuf_reserve(&records, sizeof(*r), 0);
  if (!r) {
    __sync_fetch_and_add(&counts->lost, 1);
    return 0;
  }
  r->type = JB_EVENT_SAMPLE;
  r->cpu = bpf_get_smp_processor_id();
  r->tgid = tgid;
  r->tid = (__u32)pid_tgid;
  r->t_ns = bpf_ktime_get_ns();
  r->phase = (__u8)phase;
  r->role = (__u8)role;
  // Kernel addresses are the upper half on x86-64 and arm64 alike.
  r->in_kernel = (__s64)PT_REGS_IP(&ctx->regs) < 0;
  r->pad = 0;
  const long bytes = bpf_get_stack(ctx, r->ip, sizeof r->ip, BPF_F_USER_STACK);
  r->frames = bytes < 0 ? (__s32)bytes : (__s32)((__u64)bytes >> 3);  // BPF has no signed divide
  bpf_ringbuf_submit(r, wake_flags());
  __sync_fetch_and_add(&counts->submitted, 1);
  return 0;
}

// Run by the harness once on each CPU (BPF_PROG_TEST_RUN with that CPU) after tracing stopped:
// the CPU's last record says how many came before it.
SEC("raw_tp")
int emit_drained(void* ctx) {
  struct jb_cpu_counts* counts = my_counts();
  if (!counts) return 0;
  struct jb_drained_record* r = bpf_ringbuf_reserve(&records, sizeof(*r), 0);
  if (!r) {
    __sync_fetch_and_add(&counts->lost, 1);
    return 0;
  }
  r->type = JB_EVENT_DRAINED;
  r->cpu = bpf_get_smp_processor_id();
  r->submitted = counts->submitted;
  bpf_ringbuf_submit(r, BPF_RB_FORCE_WAKEUP);
  return 0;
}
