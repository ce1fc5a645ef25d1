/*
 * kv_worker.c — a jbench worker in plain C: a tiny in-memory key-value engine that speaks the
 * worker protocol (docs/worker-protocol.md), so `workload: {kind: process, command: [...]}` can
 * measure it without a line of jbench changing. Copy it and put your engine where `get` and
 * `put` are.
 *
 *   kv-worker describe                                     its parameters, one JSON line
 *   kv-worker build-dataset --db P --rows N --row-bytes B --seed S
 *   kv-worker serve                                        one session on stdin/stdout
 *
 * The engine: `rows` values of `row_bytes` bytes, loaded from the dataset file into memory. A
 * read copies one value out and checksums it; a write overwrites one with fresh bytes first.
 * Operations come in transactions of `ops_per_transaction` that all read or all write (the mixed
 * lane draws which, `read_ratio`). `work_rounds` extra mixing rounds per operation are the
 * engine's own work, a cost a matrix can sweep as an axis.
 *
 * What the trace bridge sees (docs/bridge.md): the phases, the canary, a span per transaction
 * (`transaction:read` / `transaction:write`) and, in full mode, two counters once per
 * transaction: `bytes_copied` and `mix_rounds` (the work_rounds it did, the engine's own measure
 * of its work: what a proposal to do fewer names, fewer-rounds.yaml); the result reports the
 * measure phase's `bytes_copied` itself too, in every mode (`result.counters`).
 *
 * The messages jbench sends are single-line JSON objects as nlohmann::json writes them (no
 * spaces): this example finds its fields by their quoted names instead of parsing JSON fully.
 * A real worker should use a JSON library.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "jbench_bridge.h"

#define WORKER "kv-example"
#define MAX_LINE (1 << 20)

/* ---- time, randomness, output ------------------------------------------------------------ */

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static uint64_t next_u64(uint64_t* state) { return mix64(*state += 0x9e3779b97f4a7c15ULL); }
static uint64_t below(uint64_t* state, uint64_t n) { return next_u64(state) % n; }
static double unit(uint64_t* state) { return (double)(next_u64(state) >> 11) * 0x1p-53; }

/* One protocol line, written with one write(2). A reader that went away: exit 4. */
static void say(const char* format, ...) {
  static char line[MAX_LINE];
  va_list args;
  va_start(args, format);
  int n = vsnprintf(line, sizeof line - 1, format, args);
  va_end(args);
  if (n < 0 || n >= (int)sizeof line - 1) n = (int)sizeof line - 2;
  line[n++] = '\n';
  for (int done = 0; done < n;) {
    ssize_t w = write(STDOUT_FILENO, line + done, (size_t)(n - done));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) exit(4);
    done += (int)w;
  }
}

static void fail(int code, const char* message) {
  say("{\"type\":\"error\",\"message\":\"%s\"}", message);
  jb_shutdown();
  exit(code);
}

/* ---- reading jbench's messages -------------------------------------------------------------- */

/* Where the value of "key" starts in `json` (after `"key":`), or NULL. */
static const char* field(const char* json, const char* key) {
  char quoted[96];
  snprintf(quoted, sizeof quoted, "\"%s\":", key);
  const char* at = strstr(json, quoted);
  return at ? at + strlen(quoted) : NULL;
}

/* A string value without escapes, copied into out; 0 when absent or not such a string. */
static int text_of(const char* json, const char* key, char* out, size_t size) {
  const char* v = field(json, key);
  if (!v || *v != '"') return 0;
  const char* end = strchr(v + 1, '"');
  if (!end || (size_t)(end - v - 1) >= size || memchr(v + 1, '\\', (size_t)(end - v - 1))) return 0;
  memcpy(out, v + 1, (size_t)(end - v - 1));
  out[end - v - 1] = '\0';
  return 1;
}

static int is_type(const char* line, const char* type) {
  char t[32];
  return text_of(line, "type", t, sizeof t) && strcmp(t, type) == 0;
}

/* ---- latency histograms: jbench.latency_histogram/1 (docs/worker-protocol.md) -------------- */

#define SUB 32u /* exact below 32 ns, then 32 buckets per power of two */
#define BUCKETS (SUB * 60u)

typedef struct {
  uint64_t counts[BUCKETS], count, sum, min, max;
} histogram;

static unsigned bucket_of(uint64_t ns) {
  if (ns < SUB) return (unsigned)ns;
  unsigned e = 63u - (unsigned)__builtin_clzll(ns);
  return SUB * (e - 4u) + (unsigned)((ns >> (e - 5u)) - SUB);
}
static uint64_t lower_of(unsigned i) {
  if (i < SUB) return i;
  unsigned e = i / SUB + 4u;
  return (uint64_t)(SUB + i % SUB) << (e - 5u);
}
static uint64_t width_of(unsigned i) { return i < SUB ? 1 : (uint64_t)1 << (i / SUB - 1u); }

static void record(histogram* h, uint64_t ns) {
  h->counts[bucket_of(ns)]++;
  if (h->count == 0 || ns < h->min) h->min = ns;
  if (ns > h->max) h->max = ns;
  h->count++;
  h->sum += ns;
}

/* The nearest-rank quantile, reported as its bucket's midpoint clamped to [min, max]. */
static uint64_t quantile(const histogram* h, uint64_t ppm) {
  uint64_t rank = (h->count * ppm + 999999u) / 1000000u;
  if (rank <= 1) return h->min;
  if (rank >= h->count) return h->max;
  uint64_t seen = 0;
  for (unsigned i = 0; i < BUCKETS; ++i) {
    if ((seen += h->counts[i]) < rank) continue;
    uint64_t mid = lower_of(i) + width_of(i) / 2;
    return mid < h->min ? h->min : mid > h->max ? h->max : mid;
  }
  return h->max;
}

static void histogram_json(const histogram* h, char* out, size_t size) {
  int n = snprintf(out, size,
                   "{\"format\":\"jbench.latency_histogram/1\",\"unit\":\"ns\","
                   "\"sub_bucket_bits\":5,\"count\":%" PRIu64 ",\"sum_ns\":\"%" PRIu64 "\",",
                   h->count, h->sum);
  if (h->count == 0) {
    n += snprintf(out + n, size - (size_t)n,
                  "\"min_ns\":null,\"max_ns\":null,\"p50_ns\":null,\"p90_ns\":null,"
                  "\"p99_ns\":null,\"buckets\":[]}");
    return;
  }
  n += snprintf(out + n, size - (size_t)n,
                "\"min_ns\":\"%" PRIu64 "\",\"max_ns\":\"%" PRIu64 "\",\"p50_ns\":\"%" PRIu64
                "\",\"p90_ns\":\"%" PRIu64 "\",\"p99_ns\":\"%" PRIu64 "\",\"buckets\":[",
                h->min, h->max, quantile(h, 500000), quantile(h, 900000), quantile(h, 990000));
  const char* comma = "";
  for (unsigned i = 0; i < BUCKETS && (size_t)n < size; ++i) {
    if (h->counts[i] == 0) continue;
    n += snprintf(out + n, size - (size_t)n, "%s[\"%" PRIu64 "\",%" PRIu64 "]", comma, lower_of(i),
                  h->counts[i]);
    comma = ",";
  }
  snprintf(out + n, size - (size_t)n, "]}");
}

/* ---- describe and build-dataset -------------------------------------------------------------- */

static int describe(void) {
  say("{\"type\":\"describe\",\"protocol\":1,\"worker\":\"" WORKER
      "\","
      "\"meaning\":\"an in-memory key-value engine in C: the example outside worker\","
      "\"params\":["
      "{\"name\":\"ops_per_transaction\",\"type\":\"integer\",\"min\":1,\"max\":100000,"
      "\"default\":32,\"meaning\":\"operations per transaction, one span each\"},"
      "{\"name\":\"work_rounds\",\"type\":\"integer\",\"min\":0,\"max\":1000000,\"default\":0,"
      "\"meaning\":\"extra mixing rounds per operation: the engine's own work\"},"
      "{\"name\":\"read_ratio\",\"type\":\"number\",\"min\":0,\"max\":1,\"default\":0.5,"
      "\"meaning\":\"mixed lane: the probability that an operation reads\"}],"
      "\"traits\":{\"gc_events\":false,\"allocations\":\"native\"}}");
  return 0;
}

/* The dataset: a header line, then rows x row_bytes bytes drawn from the seed. */
static int build_dataset(int argc, char** argv) {
  const char *db = NULL, *rows_text = NULL, *bytes_text = NULL, *seed_text = NULL;
  for (int i = 2; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--db") == 0) db = argv[i + 1];
    if (strcmp(argv[i], "--rows") == 0) rows_text = argv[i + 1];
    if (strcmp(argv[i], "--row-bytes") == 0) bytes_text = argv[i + 1];
    if (strcmp(argv[i], "--seed") == 0) seed_text = argv[i + 1];
  }
  if (!db || !rows_text || !bytes_text || !seed_text)
    fail(2, "build-dataset needs --db --rows --row-bytes --seed");
  uint64_t rows = strtoull(rows_text, NULL, 10), row_bytes = strtoull(bytes_text, NULL, 10);
  uint64_t seed = strtoull(seed_text, NULL, 10), state = seed;
  if (rows == 0 || row_bytes == 0 || rows * row_bytes > ((uint64_t)1 << 32)) {
    fail(2, "rows and row_bytes must be at least 1 and hold at most 4 GiB together");
  }
  FILE* out = NULL;
  int fd = open(db, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644); /* never overwrites */
  if (fd < 0 || !(out = fdopen(fd, "w")))
    fail(2, "cannot create the dataset file (it must not exist)");
  uint64_t start = now_ns();
  fprintf(out, "jbench-example-kv/1 %" PRIu64 " %" PRIu64 "\n", rows, row_bytes);
  for (uint64_t i = 0; i < rows * row_bytes; ++i) fputc((int)(next_u64(&state) & 0xff), out);
  if (fflush(out) != 0 || fsync(fd) != 0 || fclose(out) != 0) fail(2, "cannot write the dataset");
  say("{\"type\":\"dataset\",\"rows\":%" PRIu64 ",\"row_bytes\":%" PRIu64 ",\"seed\":\"%" PRIu64
      "\",\"build_ns\":\"%" PRIu64 "\"}",
      rows, row_bytes, seed, now_ns() - start);
  return 0;
}

/* ---- the session ------------------------------------------------------------------------------
 */

typedef struct {
  /* configure */
  uint64_t worker_index, seed, work_rounds, ops_per_transaction, warmup_amount, measure_amount;
  int warmup_by_ops, measure_by_ops; /* 1: an operation count, 0: a duration in ms */
  double read_ratio;
  char lane[16], connection[16], runtime_id[33];
  /* the engine */
  unsigned char* values;
  uint64_t rows, row_bytes, stream, checksum;
} session;

/* One phase's counts, what warmup_done and result report. */
typedef struct {
  uint64_t t_start, t_end, t_finished, first_op, last_op, reads, writes;
  uint64_t read_transactions, write_transactions;
  histogram get, put;
  struct rusage before, after;
} phase;

static char* read_line(char* line) {
  if (!fgets(line, MAX_LINE, stdin)) return NULL;
  line[strcspn(line, "\n")] = '\0';
  return line;
}

static int configure(session* s, const char* line) {
  const char* v;
  char text[32];
  s->work_rounds = (v = field(line, "work_rounds")) ? strtoull(v, NULL, 10) : 0;
  s->ops_per_transaction = (v = field(line, "ops_per_transaction")) ? strtoull(v, NULL, 10) : 32;
  if (s->ops_per_transaction == 0) return 0;
  s->read_ratio = (v = field(line, "read_ratio")) ? strtod(v, NULL) : 0.5;
  s->worker_index = (v = field(line, "worker_index")) ? strtoull(v, NULL, 10) : 0;
  if (!text_of(line, "seed", text, sizeof text)) return 0;
  s->seed = strtoull(text, NULL, 10);
  if (!text_of(line, "lane", s->lane, sizeof s->lane)) return 0;
  if (!text_of(line, "connection", s->connection, sizeof s->connection)) return 0;
  const char* phases[2] = {field(line, "warmup"), field(line, "measure")};
  for (int i = 0; i < 2; ++i) {
    if (!phases[i]) return 0;
    const char* ops = strstr(phases[i], "\"operations\":");
    const char* ms = strstr(phases[i], "\"duration_ms\":");
    int by_ops = ops && (!ms || ops < ms);
    uint64_t amount = strtoull(strchr(by_ops ? ops : ms, ':') + 1, NULL, 10);
    if (i == 0)
      s->warmup_by_ops = by_ops, s->warmup_amount = amount;
    else
      s->measure_by_ops = by_ops, s->measure_amount = amount;
  }
  return strcmp(s->lane, "writer") == 0 || strcmp(s->lane, "reader") == 0 ||
         strcmp(s->lane, "mixed") == 0;
}

/* Loads the dataset named by configure's "db" into memory. */
static int load(session* s, const char* line) {
  char db[4096];
  if (!text_of(line, "db", db, sizeof db)) return 0;
  FILE* in = fopen(db, "re");
  if (!in) return 0;
  int ok =
      fscanf(in, "jbench-example-kv/1 %" SCNu64 " %" SCNu64 "\n", &s->rows, &s->row_bytes) == 2;
  s->values = ok ? malloc(s->rows * s->row_bytes) : NULL;
  ok = s->values && fread(s->values, 1, s->rows * s->row_bytes, in) == s->rows * s->row_bytes;
  fclose(in);
  return ok;
}

/* One operation: the engine's work. A read copies the value out and checksums it; a write
   overwrites it with fresh bytes first. */
static void operate(session* s, int reads, unsigned char* copy) {
  uint64_t row = below(&s->stream, s->rows);
  unsigned char* value = s->values + row * s->row_bytes;
  if (!reads) {
    for (uint64_t i = 0; i < s->row_bytes; ++i) value[i] = (unsigned char)next_u64(&s->stream);
  }
  memcpy(copy, value, s->row_bytes);
  uint64_t h = row;
  for (uint64_t i = 0; i < s->row_bytes; ++i) h = mix64(h ^ copy[i]);
  for (uint64_t r = 0; r < s->work_rounds; ++r) h = mix64(h);
  s->checksum ^= h;
}

/* Runs a phase: N operations, or operations that start before the deadline, in transactions of
   ops_per_transaction operations that all read or all write. An operation that started inside a
   duration window and ended after it is not counted (straddled). A transaction is one span. */
static uint64_t run_phase(session* s, phase* p, int by_ops, uint64_t amount) {
  memset(p, 0, sizeof *p);
  unsigned char* copy = malloc(s->row_bytes);
  getrusage(RUSAGE_SELF, &p->before);
  p->t_start = now_ns();
  const uint64_t deadline = p->t_start + amount * 1000000u;
  uint64_t done = 0, straddled = 0;
  for (int more = 1; more;) {
    if (by_ops ? done >= amount : now_ns() >= deadline) break;
    const int reads = strcmp(s->lane, "reader") == 0 ||
                      (strcmp(s->lane, "mixed") == 0 && unit(&s->stream) < s->read_ratio);
    const uint64_t span = jb_span_begin(reads ? "transaction:read" : "transaction:write", 0);
    uint64_t counted = 0;
    for (uint64_t i = 0; i < s->ops_per_transaction; ++i) {
      const uint64_t start = now_ns();
      if (by_ops ? done >= amount : start >= deadline) {
        more = 0;
        break;
      }
      operate(s, reads, copy);
      const uint64_t end = now_ns();
      if (!by_ops && end > deadline) {
        straddled = 1;
        more = 0;
        break;
      }
      record(reads ? &p->get : &p->put, end - start);
      ++counted;
      ++done;
      if (!p->first_op) p->first_op = start;
      p->last_op = end;
    }
    jb_counter("bytes_copied", (int64_t)(counted * s->row_bytes));
    jb_counter("mix_rounds", (int64_t)(counted * s->work_rounds));
    jb_span_end(span);
    if (counted == 0) continue;
    *(reads ? &p->reads : &p->writes) += counted;
    ++*(reads ? &p->read_transactions : &p->write_transactions);
  }
  p->t_finished = now_ns();
  p->t_end = by_ops ? p->t_finished : deadline;
  getrusage(RUSAGE_SELF, &p->after);
  free(copy);
  return straddled;
}

static uint64_t cpu_ns(struct timeval a, struct timeval b) {
  return (uint64_t)(b.tv_sec - a.tv_sec) * 1000000000u + (uint64_t)(b.tv_usec - a.tv_usec) * 1000u;
}

/* The counts warmup_done and result share, as one JSON fragment. */
static void counts_json(const phase* p, uint64_t straddled, char* out, size_t size) {
  char first[32] = "null", last[32] = "null";
  if (p->first_op) snprintf(first, sizeof first, "\"%" PRIu64 "\"", p->first_op);
  if (p->last_op) snprintf(last, sizeof last, "\"%" PRIu64 "\"", p->last_op);
  uint64_t ops = p->reads + p->writes;
  snprintf(out, size,
           "\"t_start_ns\":\"%" PRIu64 "\",\"t_end_ns\":\"%" PRIu64
           "\",\"t_finished_ns\":\"%" PRIu64
           "\",\"first_op_start_ns\":%s,\"last_op_end_ns\":%s,\"operations\":%" PRIu64
           ",\"operations_by_type\":{\"get\":%" PRIu64 ",\"put\":%" PRIu64 "},\"reads\":%" PRIu64
           ",\"writes\":%" PRIu64 ",\"rows_returned\":%" PRIu64 ",\"transactions\":%" PRIu64
           ",\"read_transactions\":%" PRIu64 ",\"write_transactions\":%" PRIu64
           ",\"transactions_straddled\":0,\"transactions_failed\":0,\"transactions_abandoned\":0,"
           "\"straddled\":%" PRIu64
           ",\"retries\":0,\"busy_waits\":0,\"busy_wait_ns\":\"0\","
           "\"errors\":{},\"aborted\":null",
           p->t_start, p->t_end, p->t_finished, first, last, ops, p->reads, p->writes, p->reads,
           p->writes, p->reads, p->read_transactions + p->write_transactions, p->read_transactions,
           p->write_transactions, straddled);
}

static void result(const session* s, const phase* p, uint64_t straddled) {
  static char counts[4096], get[64 * 1024], put[64 * 1024];
  counts_json(p, straddled, counts, sizeof counts);
  histogram_json(&p->get, get, sizeof get);
  histogram_json(&p->put, put, sizeof put);
  uint64_t ops = p->reads + p->writes, window = p->t_end - p->t_start;
  /* A lane's own rule: a writer never reads, a reader never writes. */
  int violated =
      (strcmp(s->lane, "writer") == 0 && p->reads) || (strcmp(s->lane, "reader") == 0 && p->writes);
  char throughput[32] = "null";
  if (window) snprintf(throughput, sizeof throughput, "%.3f", (double)ops * 1e9 / (double)window);
  say("{\"type\":\"result\",\"protocol\":1,\"worker\":\"" WORKER "\",\"worker_index\":%" PRIu64
      ",\"runtime_id\":\"%s\",\"status\":\"%s\",\"conditions\":%s,\"lane\":\"%s\","
      "\"connection\":\"%s\",\"window_ns\":\"%" PRIu64
      "\",%s,\"throughput_ops_per_s\":%s,"
      "\"latency_ns\":{\"get\":%s,\"put\":%s},\"connection_ns\":{},"
      "\"rusage\":{\"user_ns\":\"%" PRIu64 "\",\"system_ns\":\"%" PRIu64
      "\"},\"counters\":{\"bytes_copied\":%" PRIu64 "},\"checksum\":\"%016" PRIx64 "\"}",
      s->worker_index, s->runtime_id, violated ? "error" : "ok",
      violated ? "[{\"kind\":\"lane_violation\",\"message\":\"counted what its lane forbids\"}]"
               : "[]",
      s->lane, s->connection, window, counts, throughput, get, put,
      cpu_ns(p->before.ru_utime, p->after.ru_utime), cpu_ns(p->before.ru_stime, p->after.ru_stime),
      ops * s->row_bytes, s->checksum);
}

/* Waits for the next message: `exit` or EOF end the session here (bye, or exit 3 before the
   result was delivered); any other message than `expected` is a protocol error. */
static void next_message(char* line, const char* expected, int delivered) {
  if (!read_line(line)) {
    if (!delivered) {
      jb_shutdown();
      exit(3);
    }
    strcpy(line, "{\"type\":\"exit\"}");
  }
  if (strcmp(line, "{\"type\":\"exit\"}") == 0) {
    uint64_t t = now_ns();
    jb_phase("teardown");
    say("{\"type\":\"bye\",\"t_ns\":\"%" PRIu64 "\",\"teardown_ns\":\"0\"}", t);
    jb_shutdown();
    exit(0);
  }
  if (!is_type(line, expected)) fail(2, "unexpected message");
}

static void hello(session* s) {
  static const char* modes[] = {"off", "no-consumer", "light", "full"};
  uint8_t id[16] = {0};
  if (jb_mode() != JB_MODE_OFF) {
    jb_runtime_id(id);
  } else if (getrandom(id, sizeof id, 0) != (ssize_t)sizeof id) {
    fprintf(stderr, "getrandom: %s\n", strerror(errno));
    exit(1);
  }
  for (int i = 0; i < 16; ++i) snprintf(s->runtime_id + 2 * i, 3, "%02x", id[i]);
  say("{\"type\":\"hello\",\"protocol\":1,\"worker\":\"" WORKER
      "\",\"pid\":%d,"
      "\"runtime_id\":\"%s\",\"bridge\":\"%s\",\"clock\":\"CLOCK_MONOTONIC\",\"t_ns\":\"%" PRIu64
      "\"}",
      (int)getpid(), s->runtime_id, modes[jb_mode()], now_ns());
}

static int serve(void) {
  static char line[MAX_LINE];
  session s = {0};
  phase p;
  signal(SIGPIPE, SIG_IGN);
  if (jb_init_from_env() != 0) fail(2, "the trace bridge cannot start in the mode asked for");
  hello(&s);

  next_message(line, "configure", 0);
  uint64_t setup_start = now_ns();
  jb_phase("startup");
  if (!configure(&s, line)) fail(2, "invalid configure");
  uint64_t open_span = jb_span_begin("connection_open:startup", 0);
  if (!load(&s, line)) fail(2, "the dataset cannot be read");
  jb_span_end(open_span);
  uint64_t t = now_ns();
  s.stream = mix64(s.seed + 0x9e3779b97f4a7c15ULL + mix64(s.worker_index));
  say("{\"type\":\"ready\",\"t_ns\":\"%" PRIu64 "\",\"open_ns\":\"%" PRIu64
      "\",\"setup_ns\":\"%" PRIu64 "\"}",
      t, t - setup_start, t - setup_start);

  next_message(line, "canary", 0);
  char path[64];
  snprintf(path, sizeof path, "/jbench-canary/%s", s.runtime_id);
  jb_canary();
  /* The raw syscall: glibc's faccessat() may issue faccessat2, which collectors do not match. */
  long r = syscall(SYS_faccessat, AT_FDCWD, path, F_OK);
  say("{\"type\":\"canary_done\",\"t_ns\":\"%" PRIu64
      "\",\"syscall\":\"faccessat\",\"path\":\"%s\",\"errno\":\"%s\"}",
      now_ns(), path,
      r == 0            ? "0"
      : errno == ENOENT ? "ENOENT"
                        : "other");

  static char counts[4096];
  next_message(line, "start", 0);
  jb_phase("warmup");
  uint64_t straddled = run_phase(&s, &p, s.warmup_by_ops, s.warmup_amount);
  counts_json(&p, straddled, counts, sizeof counts);
  say("{\"type\":\"warmup_done\",\"t_ns\":\"%" PRIu64 "\",%s}", now_ns(), counts);

  next_message(line, "measure", 0);
  jb_phase("measure");
  straddled = run_phase(&s, &p, s.measure_by_ops, s.measure_amount);
  say("{\"type\":\"measure_done\",\"t_ns\":\"%" PRIu64 "\",\"t_start_ns\":\"%" PRIu64
      "\",\"t_end_ns\":\"%" PRIu64 "\",\"t_finished_ns\":\"%" PRIu64 "\",\"operations\":%" PRIu64
      ",\"straddled\":%" PRIu64 "}",
      now_ns(), p.t_start, p.t_end, p.t_finished, p.reads + p.writes, straddled);
  result(&s, &p, straddled);

  next_message(line, "exit", 1); /* exit or EOF: bye */
  return 0;
}

int main(int argc, char** argv) {
  if (argc >= 2 && strcmp(argv[1], "describe") == 0) return describe();
  if (argc >= 2 && strcmp(argv[1], "build-dataset") == 0) return build_dataset(argc, argv);
  if (argc >= 2 && strcmp(argv[1], "serve") == 0) return serve();
  fprintf(stderr,
          "usage: %s describe | build-dataset --db P --rows N --row-bytes B --seed S | serve\n",
          argv[0]);
  return 2;
}
