/*
 * The jbench DTrace provider: the probes of the trace bridge (ABI 1.0, manifests/bridge-abi-v1.json).
 *
 * Every jb_* entry point of libjbench_bridge fires one of these. Names and argument layouts are
 * stable within a major ABI version: a new probe or a new trailing argument is a minor bump; a
 * removed, renamed or retyped one is a major bump. Strings are NUL-terminated UTF-8 owned by the
 * caller and valid only while the probe fires (copy them in the probe body).
 *
 * Units: ids are opaque 64-bit values (0 = none); bytes are bytes; generations and counts are
 * plain numbers. Time is not an argument: a consumer stamps events with its own clock.
 */
provider jbench {
  /* A span begins. span_id: this span (unique in the run); parent_id: its parent, 0 = a root;
     name: what the span measures. */
  probe span__begin(uint64_t span_id, uint64_t parent_id, const char *name);
  /* A span ends. span_id: the id span__begin carried. */
  probe span__end(uint64_t span_id);
  /* Attach verification: n counts this process's canaries from 0. A consumer that sees canary n
     of every worker has proven it is attached. */
  probe canary(uint64_t n);
  /* A collection of `generation` starts with bytes_before bytes in use (bytes). */
  probe gc__begin(uint32_t generation, uint64_t bytes_before);
  /* A collection of `generation` ends with bytes_after bytes in use (bytes). */
  probe gc__end(uint32_t generation, uint64_t bytes_after);
  /* One sampled allocation of `bytes` bytes made at `site` (a name chosen by the runtime). */
  probe alloc__sample(uint64_t bytes, const char *site);
  /* A named counter takes `value` (the unit belongs to the counter). */
  probe counter(const char *name, int64_t value);
  /* The program enters phase `name` (e.g. "warmup", "measure"). */
  probe phase(const char *name);
};
