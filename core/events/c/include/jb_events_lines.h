/* The fixed text of a jbench.events raw file's lines (docs/events.md): the schema's name and
 * version, the fields every header opens with, the envelope of a record and of a trailer. The
 * writers that compose lines from parts (the trace bridge, the allocation sampler) put these
 * literals between their values, so every file names its schema, its clock and its stream
 * fields the same way, in the same order:
 *
 *   JB_EVENTS_HEADER_BEGIN "\"collector\":\"alloc\",…," JB_EVENTS_HEADER_CLOCK "\"units\":{…},"
 *   JB_EVENTS_RECORD_TYPE "alloc_sample" JB_EVENTS_RECORD_SEQ "\"7\"" JB_EVENTS_RECORD_PID …
 *   JB_EVENTS_TRAILER_RECORDS "5" JB_EVENTS_TRAILER_DROPPED "0" JB_EVENTS_TRAILER_CLEAN_END
 *
 * Macros, not variables, so they concatenate with a writer's own literals at compile time (a
 * header line stays one constant string) and cost nothing in C or C++. */
#ifndef JB_EVENTS_LINES_H
#define JB_EVENTS_LINES_H

#define JB_EVENTS_SCHEMA "jbench.events"
#define JB_EVENTS_SCHEMA_VERSION 1
#define JB_EVENTS_CLOCK "CLOCK_MONOTONIC"

#define JB_EVENTS_KIND_HEADER "header"
#define JB_EVENTS_KIND_RECORD "record"
#define JB_EVENTS_KIND_TRAILER "trailer"

#define JB_EVENTS_TEXT_OF_(x) #x
#define JB_EVENTS_TEXT_OF(x) JB_EVENTS_TEXT_OF_(x)

/* A header's first fields; the collector's own ("collector", "backend", "backend_version")
 * follow, then JB_EVENTS_HEADER_CLOCK, then its "units". */
#define JB_EVENTS_HEADER_BEGIN                                             \
  "{\"kind\":\"" JB_EVENTS_KIND_HEADER "\",\"schema\":\"" JB_EVENTS_SCHEMA \
  "\",\"schema_version\":" JB_EVENTS_TEXT_OF(JB_EVENTS_SCHEMA_VERSION) ","
#define JB_EVENTS_HEADER_CLOCK "\"clock\":\"" JB_EVENTS_CLOCK "\","
/* The run the file belongs to, after "units": each is followed by a JSON string. */
#define JB_EVENTS_HEADER_RUN_ID "\"run_id\":"
#define JB_EVENTS_HEADER_BOOT_ID ",\"boot_id\":"

/* A record's envelope: the type (bare, the envelope quotes it), then seq, pid,
 * start_time_ticks, tid and t_ns, each key followed by its value (64-bit values as decimal
 * strings, pid and tid as numbers); the type's own fields come after t_ns. */
#define JB_EVENTS_RECORD_TYPE "{\"kind\":\"" JB_EVENTS_KIND_RECORD "\",\"type\":\""
#define JB_EVENTS_RECORD_SEQ "\",\"seq\":"
#define JB_EVENTS_RECORD_PID ",\"pid\":"
#define JB_EVENTS_RECORD_START_TIME_TICKS ",\"start_time_ticks\":"
#define JB_EVENTS_RECORD_TID ",\"tid\":"
#define JB_EVENTS_RECORD_T_NS ",\"t_ns\":"

/* The end of an object on a line of its own: a record, a header. */
#define JB_EVENTS_LINE_END "}\n"

/* A trailer: records and dropped are numbers; nothing the writer could not encode
 * ("malformed":0) and how it ended, then the code. */
#define JB_EVENTS_TRAILER_RECORDS "{\"kind\":\"" JB_EVENTS_KIND_TRAILER "\",\"records\":"
#define JB_EVENTS_TRAILER_DROPPED ",\"dropped\":"
#define JB_EVENTS_TRAILER_EXIT_CODE ",\"malformed\":0,\"ended\":{\"how\":\"exit\",\"code\":"
/* The end of a trailer for a collector that finished normally: exit code 0. */
#define JB_EVENTS_TRAILER_CLEAN_END JB_EVENTS_TRAILER_EXIT_CODE "0}}\n"

#endif /* JB_EVENTS_LINES_H */
