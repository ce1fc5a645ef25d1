/* The name of the thread that writes a target's jbench.events file from inside it (the trace
 * bridge's writer). It is the observer's own: the compiled syscall tracer tells its calls apart
 * from the workload's by this name (docs/collectors/syscall.md, "Thread roles"). At most 15
 * bytes, as the kernel keeps a thread's name. A macro without includes, so the BPF program can
 * use it too. */
#ifndef JB_EVENTS_WRITER_THREAD_H
#define JB_EVENTS_WRITER_THREAD_H

#define JB_EVENTS_WRITER_THREAD_NAME "jbench-writer"

#endif
