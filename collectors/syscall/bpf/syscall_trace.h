/* The shapes the compiled syscall tracer (syscall_trace.bpf.c) shares with its loader
 * (src/libbpf_tracer.cpp): map sizes, keys, values and ring-buffer events. C, for both sides. */
#ifndef JBENCH_SYSCALL_TRACE_H
#define JBENCH_SYSCALL_TRACE_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

#include "jb_events_writer_thread.h"

#define JB_MAX_SYSCALL_NR 512
#define JB_MAX_COHORT 4096
/* Slots of the per-CPU totals, preallocated: 4096 of 352 bytes are 1.4 MiB per CPU. Enough for
 * 32 workers and their forks over 4 phases and 14 calls; when every slot is taken, a call counts
 * as lost, never as silence. */
#define JB_MAX_TOTALS 4096
/* Keys of the other system calls' per-CPU totals (32 bytes a CPU each): 64 processes making
 * 60 different calls in each of 4 phases. A call that finds no room counts as lost. */
#define JB_MAX_OTHER 16384
#define JB_RING_BYTES (1 << 20)
/* full: the per-call records' ring. 32 MiB hold 400 000 calls: more than a second of the
 * busiest cohort seen here, while the consumer drains every 10 ms. */
#define JB_RECORD_RING_BYTES (32 << 20)
#define JB_PATH_MAX 256
#define JB_HIST_BUCKETS 40
/* A thread's hints to its totals' slots: every traced call (ids below 16) in every phase. */
#define JB_HINT_CALLS 16
#define JB_HINT_PHASES 4
#define JB_CANARY_PATH 64

/* What the harness says of each syscall number. */
#define JB_KIND_NONE 0
#define JB_KIND_PATH 1
#define JB_KIND_FD 2
#define JB_KIND_FD_REQUEST 3
#define JB_KIND_CANARY 4
#define JB_KIND_PROBE 5   /* the harness's own liveness call (not in the calls map) */
#define JB_KIND_OFF_CPU 6 /* an interval off the CPU outside any traced call (sched_switch) */
/* Any other system call: counted per number in the totals (both details), never a call of its
 * own (its time off the CPU stays the thread's off-CPU intervals'). */
#define JB_KIND_COUNTED 7

/* The scheduler's intervals of a cohort thread outside its traced calls, counted and recorded as
 * calls of their own (TracedCall ids after the system calls): switched out blocked until woken,
 * and runnable (preempted, or woken) until switched in again. */
#define JB_CALL_OFF_CPU_BLOCKED 14
#define JB_CALL_OFF_CPU_RUNNABLE 15
/* Every other system call's totals, keyed by its number plus one as the request. */
#define JB_CALL_SYSCALL_OTHER 16

/* Detail, as the harness sets it per run. */
#define JB_DETAIL_LIGHT 0
#define JB_DETAIL_FULL 1

struct jb_call_info {
  __u32 call;     /* TracedCall::id */
  __u32 kind;     /* JB_KIND_* */
  __u32 path_arg; /* opens and canaries: which argument is the path (opens: 1 means a dfd first) */
  __u32 pad;
};

/* The role of the thread that made a call: the workload's, or jbench's trace-bridge writer
 * (the thread named JB_EVENTS_WRITER_THREAD_NAME), which is the observer's own. */
#define JB_ROLE_WORKLOAD 0
#define JB_ROLE_BRIDGE_WRITER 1

struct jb_totals_key {
  __u32 tgid;
  __u8 phase;
  __u8 role; /* JB_ROLE_* */
  __u16 call;
  __u64 request; /* flock operation, fcntl command, ioctl request; 0 for the others */
};

struct jb_totals {
  __u64 count;
  __u64 errors;
  __u64 total_ns;
  __u64 max_ns;
  __u64 hist[JB_HIST_BUCKETS]; /* bucket b: durations in [2^b, 2^(b+1)) ns, b = 0 also 0..1 */
};

/* Every other system call of a cohort thread (JB_KIND_COUNTED), per process, phase, role and
 * number: counted and timed, without a histogram. */
struct jb_other_key {
  __u32 tgid;
  __u16 nr;
  __u8 phase;
  __u8 role; /* JB_ROLE_* */
};

struct jb_other_totals {
  __u64 count;
  __u64 errors;
  __u64 total_ns;
  __u64 max_ns;
};

/* Per CPU: records submitted to the records ring, and records that could not be kept. */
struct jb_cpu_counts {
  __u64 submitted;
  __u64 lost;
};

#define JB_EVENT_CANARY 1
#define JB_EVENT_FORK 2
#define JB_EVENT_CALL 3
#define JB_EVENT_PATH 4
#define JB_EVENT_DRAINED 5
#define JB_EVENT_SAMPLE 6

/* full: on-CPU samples of the cohort's workload threads, per CPU at this rate (a software clock
 * event: no hardware counter needed), each with up to this many user frames. A sample costs the
 * sampled thread 40-70 us on the 2-core VMs jbench runs on (the clock's interrupt, not the
 * program: that takes 0.3 us), so 99 Hz keeps it under 1% of a busy core; 997 Hz cost the
 * overhead matrix's reader 9% of its throughput (docs/collectors/syscall.md). */
#define JB_SAMPLE_HZ 99
#define JB_SAMPLE_FRAMES 32

struct jb_event {
  __u32 type;
  __u32 pid; /* canary: the member; fork: the child */
  __u32 tid; /* canary: the thread; fork: the parent */
  __u32 pad;
  __u64 t_ns;
  __u64 other; /* fork: the child's start_boottime (ns) */
  char path[JB_CANARY_PATH];
};

/* Who woke a thread that waited (jb_call_record.waker_how): nobody seen (it never slept, or the
 * wake-up came before tracing), a task in process context (waker_tgid, waker_tid), an interrupt
 * handler, softirq or timer callback (whatever task it landed on is not the waker), or a kernel
 * thread (waker_tgid, waker_tid). */
#define JB_WAKER_NONE 0
#define JB_WAKER_TASK 1
#define JB_WAKER_INTERRUPT 2
#define JB_WAKER_KERNEL_THREAD 3

/* full: one completed call (the records ring). */
struct jb_call_record {
  __u32 type; /* JB_EVENT_CALL */
  __u32 cpu;
  __u32 tgid;
  __u32 tid;
  __u64 t_ns; /* entry */
  __u64 duration_ns;
  __s64 fd;     /* the descriptor, or an open's directory descriptor (-100: AT_FDCWD) */
  __s64 result; /* the return value; negative: -errno */
  __u64 request;
  __u64 inode; /* of fd, or of the descriptor an open returned; 0: none */
  __u32 dev;   /* the superblock's s_dev: major << 20 | minor */
  __u8 phase;
  __u8 role; /* JB_ROLE_* */
  __u16 call;
  __u32 waker_how; /* JB_WAKER_*: the last wake-up of the thread while in the call (or the wait) */
  __u32 waker_tgid;
  __u32 waker_tid;
  /* How long before the record's end (the call's return, a blocked wait's wake-up) its waker woke
   * the thread (sched_waking, in the waker's context), in ns, plus one. 0: not known (no waker,
   * 2^32 - 2 ns or more, or a record of an earlier version, where this was padding). */
  __u32 woken_before_end;
};

/* full: the path an open asked for, after its call record (paired by tid and entry time). */
struct jb_path_record {
  __u32 type; /* JB_EVENT_PATH */
  __u32 cpu;
  __u32 tid;
  __s32 length; /* bytes read with the NUL; JB_PATH_MAX: cut; < 0: unreadable */
  __u64 t_ns;
  char path[JB_PATH_MAX];
};

/* full: one on-CPU sample of a cohort thread (the records ring). */
struct jb_sample_record {
  __u32 type; /* JB_EVENT_SAMPLE */
  __u32 cpu;
  __u32 tgid;
  __u32 tid;
  __u64 t_ns;
  __u8 phase;
  __u8 role;      /* JB_ROLE_* */
  __u8 in_kernel; /* the sample interrupted the kernel (a system call, a fault), not user code */
  __u8 pad;
  __s32 frames; /* user frames in ip[], leaf first; < 0: the stack was unreadable */
  __u64 ip[JB_SAMPLE_FRAMES];
};

/* full: the last record of one CPU for a run, made on that CPU after tracing stopped. */
struct jb_drained_record {
  __u32 type; /* JB_EVENT_DRAINED */
  __u32 cpu;
  __u64 submitted; /* records this CPU submitted before this one */
};

#endif
