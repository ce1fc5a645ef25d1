#include "libbpf_records.h"

#include <fmt/format.h>

#include <cstring>
#include <map>

#include "syscall_table.h"
#include "syscall_trace.h"

namespace jbench::collectors::syscall_detail {
namespace {

// When the record's waker woke the thread, where the record says.
std::optional<std::uint64_t> woken_ns_of(const jb_call_record& r) {
  const std::uint64_t end = r.t_ns + r.duration_ns;
  const std::uint64_t before = r.woken_before_end;  // plus one; 0: not known
  if (before == 0 || before - 1 > r.duration_ns) return std::nullopt;
  return end - (before - 1);
}

// The record's waker (JB_WAKER_*), or none.
std::optional<CallRecord::Waker> waker_of(const jb_call_record& r) {
  const auto task = [&r](std::string_view how) {
    return CallRecord::Waker{how, static_cast<pid_t>(r.waker_tgid), static_cast<pid_t>(r.waker_tid),
                             woken_ns_of(r)};
  };
  switch (r.waker_how) {
    case JB_WAKER_TASK:
      return task("task");
    case JB_WAKER_INTERRUPT:
      return CallRecord::Waker{"interrupt", 0, 0, woken_ns_of(r)};
    case JB_WAKER_KERNEL_THREAD:
      return task("kernel_thread");
    default:
      return std::nullopt;
  }
}

constexpr char kMagic[8] = {'J', 'B', 'S', 'C', 'R', 'E', 'C', '1'};
constexpr std::size_t kHeaderBytes = sizeof kMagic + 5 * sizeof(std::uint32_t);

template <typename T>
T read_at(std::string_view bytes, std::size_t at) {
  T out;
  std::memcpy(&out, bytes.data() + at, sizeof out);
  return out;
}

void put_u32(std::string& out, std::uint32_t v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

// s_dev as the kernel encodes it (MINORBITS = 20).
FileIdentity identity(std::uint32_t dev, std::uint64_t inode) {
  return {dev >> 20, dev & 0xfffff, inode};
}

}  // namespace

std::string record_file_header(std::uint32_t cpus) {
  std::string out(kMagic, sizeof kMagic);
  put_u32(out, kHeaderBytes);
  put_u32(out, sizeof(jb_call_record));
  put_u32(out, sizeof(jb_path_record));
  put_u32(out, sizeof(jb_drained_record));
  put_u32(out, cpus);
  return out;
}

namespace {

// A record's size by its type; 0 for a type this jbench does not write.
std::size_t record_size(std::uint32_t type) {
  return type == JB_EVENT_CALL      ? sizeof(jb_call_record)
         : type == JB_EVENT_PATH    ? sizeof(jb_path_record)
         : type == JB_EVENT_DRAINED ? sizeof(jb_drained_record)
         : type == JB_EVENT_SAMPLE  ? sizeof(jb_sample_record)
                                    : 0;
}

}  // namespace

bool record_size_ok(std::uint32_t type, std::size_t size) {
  const std::size_t expected = record_size(type);
  return expected != 0 && size == expected;
}

namespace {

// The records of one file decoded in order: each kind into its list, an open's path joined to
// its call, whatever cannot be read counted with a few examples.
class RecordDecoder {
 public:
  explicit RecordDecoder(std::string_view bytes) : bytes_(bytes) {}

  void malformed(std::size_t at, std::string what) {
    ++out_.malformed;
    if (out_.malformed_examples.size() < 5) {
      out_.malformed_examples.push_back(fmt::format("byte {}: {}", at, what));
    }
  }

  void call(std::size_t at) {
    const auto r = read_at<jb_call_record>(bytes_, at);
    const TracedCall* call = call_by_id(r.call);
    if (!call || r.phase >= kPhaseCount) {
      malformed(at, fmt::format("call {} in phase {}", r.call, r.phase));
      return;
    }
    CallRecord c;
    c.pid = static_cast<pid_t>(r.tgid);
    c.tid = static_cast<pid_t>(r.tid);
    c.t_ns = r.t_ns;
    c.duration_ns = r.duration_ns;
    c.call = r.call;
    c.phase = r.phase;
    c.role = thread_role_of(r.role);
    c.fd = r.fd;
    c.result = r.result;
    if (has_request(*call)) c.request = r.request;
    c.waker = waker_of(r);
    if (r.inode != 0) c.file = identity(r.dev, r.inode);
    if (call->kind == ArgKind::path) opens_[{r.tid, r.t_ns}] = out_.calls.size();
    out_.calls.push_back(std::move(c));
  }

  void sample(std::size_t at) {
    const auto s = read_at<jb_sample_record>(bytes_, at);
    if (s.phase >= kPhaseCount || s.frames > JB_SAMPLE_FRAMES) {
      malformed(at, fmt::format("a sample in phase {} with {} frames", s.phase, s.frames));
      return;
    }
    CpuSample c;
    c.pid = static_cast<pid_t>(s.tgid);
    c.tid = static_cast<pid_t>(s.tid);
    c.t_ns = s.t_ns;
    c.phase = s.phase;
    c.role = thread_role_of(s.role);
    c.in_kernel = s.in_kernel != 0;
    if (s.frames < 0) {
      c.stack_error = -s.frames;
    } else {
      c.ips.assign(s.ip, s.ip + s.frames);
      // The walk ends at a zero return address (the outermost frame's): not a frame.
      while (!c.ips.empty() && c.ips.back() == 0) c.ips.pop_back();
    }
    out_.samples.push_back(std::move(c));
  }

  // An open's path, after its call record (paired by thread and entry time).
  void path(std::size_t at) {
    const auto p = read_at<jb_path_record>(bytes_, at);
    auto open = opens_.find({p.tid, p.t_ns});
    if (open == opens_.end()) {
      malformed(at, fmt::format("a path of thread {} with no open before it", p.tid));
      return;
    }
    CallRecord& c = out_.calls[open->second];
    if (p.length > 0) {
      c.path.assign(p.path, strnlen(p.path, sizeof p.path));
      c.path_truncated = p.length >= JB_PATH_MAX;
    }
    opens_.erase(open);
  }

  DecodedRecords& out() { return out_; }

 private:
  std::string_view bytes_;
  DecodedRecords out_;
  // Opens waiting for their path record, by (tid, entry time).
  std::map<std::pair<std::uint32_t, std::uint64_t>, std::size_t> opens_;
};

bool header_ok(std::string_view bytes) {
  return bytes.size() >= kHeaderBytes && std::memcmp(bytes.data(), kMagic, sizeof kMagic) == 0 &&
         read_at<std::uint32_t>(bytes, 8) == kHeaderBytes &&
         read_at<std::uint32_t>(bytes, 12) == sizeof(jb_call_record) &&
         read_at<std::uint32_t>(bytes, 16) == sizeof(jb_path_record) &&
         read_at<std::uint32_t>(bytes, 20) == sizeof(jb_drained_record);
}

}  // namespace

DecodedRecords decode_record_file(std::string_view bytes) {
  RecordDecoder d(bytes);
  if (!header_ok(bytes)) {
    d.malformed(0, "not a record file of this jbench (header)");
    return std::move(d.out());
  }
  // At most this many calls: reserved once rather than grown (and copied) a dozen times.
  d.out().calls.reserve((bytes.size() - kHeaderBytes) / sizeof(jb_call_record));
  std::size_t at = kHeaderBytes;
  while (at < bytes.size()) {
    if (bytes.size() - at < sizeof(std::uint32_t)) {
      d.malformed(at, "a cut record");
      break;
    }
    const auto type = read_at<std::uint32_t>(bytes, at);
    if (type == kTrailerType) {
      if (bytes.size() - at != sizeof(RecordTrailer)) {
        d.malformed(at, "the trailer is not the last thing in the file");
        break;
      }
      d.out().trailer = read_at<RecordTrailer>(bytes, at);
      d.out().has_trailer = true;
      break;
    }
    const std::size_t size = record_size(type);
    if (size == 0) {
      d.malformed(at, fmt::format("unknown record type {}", type));
      break;  // without its size nothing after it can be framed
    }
    if (bytes.size() - at < size) {
      d.malformed(at, "a cut record");
      break;
    }
    if (type == JB_EVENT_CALL) d.call(at);
    if (type == JB_EVENT_SAMPLE) d.sample(at);
    if (type == JB_EVENT_PATH) d.path(at);
    at += size;
  }
  return std::move(d.out());
}

}  // namespace jbench::collectors::syscall_detail
