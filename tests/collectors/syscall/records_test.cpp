// The compiled tracer's records file (libbpf_records.h), read back: calls with their fields, an
// open's path paired with it, and every way a file can be cut or corrupt counted as malformed,
// never silently skipped. The records are made here as the kernel side lays them out
// (syscall_trace.h); the real tracer's files are read in libbpf_tracer_test.cpp.
#include <gtest/gtest.h>

#include <cstring>

#include "libbpf_records.h"
#include "syscall_table.h"
#include "syscall_trace.h"

namespace jbench::collectors::syscall_detail {
namespace {

template <typename T>
void append(std::string& out, const T& value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

jb_call_record call_record(std::string_view name, std::uint64_t t_ns, std::int64_t result) {
  jb_call_record r{};
  r.type = JB_EVENT_CALL;
  r.tgid = 40;
  r.tid = 41;
  r.t_ns = t_ns;
  r.duration_ns = 700;
  r.fd = name == "openat" ? -100 : 3;
  r.result = result;
  r.request = 0x5401;  // TCGETS: kept for ioctl only
  r.inode = 12345;
  r.dev = (254u << 20) | 1u;
  r.phase = 2;
  r.call = static_cast<__u16>(find_call(name)->id);
  return r;
}

jb_path_record path_record(std::uint32_t tid, std::uint64_t t_ns, std::string_view path) {
  jb_path_record p{};
  p.type = JB_EVENT_PATH;
  p.tid = tid;
  p.t_ns = t_ns;
  std::memcpy(p.path, path.data(), std::min(path.size(), sizeof p.path - 1));
  p.length = static_cast<__s32>(std::min(path.size() + 1, sizeof p.path));
  return p;
}

std::string with_trailer(std::string bytes, std::uint64_t records) {
  RecordTrailer t;
  t.records = records;
  append(bytes, t);
  return bytes;
}

TEST(RecordFile, CallsComeBackWithTheirFieldsAndOpensWithTheirPaths) {
  std::string bytes = record_file_header(2);
  append(bytes, call_record("openat", 100, 5));
  append(bytes, path_record(41, 100, "/data/db.sqlite"));
  append(bytes, call_record("ioctl", 200, -25));
  append(bytes, call_record("read", 300, 4096));
  const DecodedRecords d = decode_record_file(with_trailer(bytes, 4));
  ASSERT_TRUE(d.has_trailer);
  EXPECT_EQ(d.trailer.records, 4u);
  EXPECT_EQ(d.malformed, 0u);
  ASSERT_EQ(d.calls.size(), 3u);
  EXPECT_EQ(d.calls[0].path, "/data/db.sqlite");
  EXPECT_FALSE(d.calls[0].path_truncated);
  EXPECT_EQ(d.calls[0].fd, -100);
  EXPECT_EQ(d.calls[0].file->to_string(), "254:1:12345");
  EXPECT_EQ(d.calls[1].request, 0x5401u);
  EXPECT_EQ(d.calls[1].result, -25);
  EXPECT_FALSE(d.calls[2].request.has_value()) << "read has no request";
  EXPECT_EQ(d.calls[2].pid, 40);
  EXPECT_EQ(d.calls[2].tid, 41);
  EXPECT_EQ(d.calls[2].phase, 2);
  EXPECT_EQ(d.calls[2].duration_ns, 700u);
}

TEST(RecordFile, APathAsLongAsTheBufferIsMarkedCut) {
  std::string bytes = record_file_header(1);
  append(bytes, call_record("openat", 100, 5));
  append(bytes, path_record(41, 100, std::string(400, 'a')));
  const DecodedRecords d = decode_record_file(with_trailer(bytes, 2));
  ASSERT_EQ(d.calls.size(), 1u);
  EXPECT_TRUE(d.calls[0].path_truncated);
  EXPECT_EQ(d.calls[0].path.size(), JB_PATH_MAX - 1u);
}

TEST(RecordFile, ACutFileHasNoTrailerAndItsLastRecordIsMalformed) {
  std::string bytes = record_file_header(1);
  append(bytes, call_record("read", 100, 1));
  append(bytes, call_record("read", 200, 1));
  bytes.resize(bytes.size() - 10);
  const DecodedRecords d = decode_record_file(bytes);
  EXPECT_FALSE(d.has_trailer);
  EXPECT_EQ(d.calls.size(), 1u);
  EXPECT_EQ(d.malformed, 1u);
}

TEST(RecordFile, EveryCorruptionIsCountedWithWhereItIs) {
  {
    const DecodedRecords d = decode_record_file("JBSCREC0 and more bytes than a header has");
    EXPECT_EQ(d.malformed, 1u);
    EXPECT_NE(d.malformed_examples.at(0).find("header"), std::string::npos);
  }
  {
    std::string bytes = record_file_header(1);
    jb_call_record bad = call_record("read", 100, 1);
    bad.call = 999;  // no such traced call
    append(bytes, bad);
    append(bytes, path_record(7, 5, "/orphan"));  // no open before it
    append(bytes, call_record("read", 200, 1));
    const DecodedRecords d = decode_record_file(with_trailer(bytes, 3));
    EXPECT_EQ(d.malformed, 2u);
    EXPECT_EQ(d.calls.size(), 1u);
    EXPECT_TRUE(d.has_trailer);
  }
  {
    std::string bytes = record_file_header(1);
    append(bytes, std::uint32_t{77});  // an unknown type: nothing after it can be framed
    append(bytes, call_record("read", 200, 1));
    const DecodedRecords d = decode_record_file(with_trailer(bytes, 1));
    EXPECT_EQ(d.malformed, 1u);
    EXPECT_TRUE(d.calls.empty());
    EXPECT_FALSE(d.has_trailer);
  }
  {
    std::string bytes = with_trailer(record_file_header(1), 0);
    append(bytes, call_record("read", 200, 1));  // after the trailer
    const DecodedRecords d = decode_record_file(bytes);
    EXPECT_EQ(d.malformed, 1u);
    EXPECT_FALSE(d.has_trailer);
  }
}

TEST(RecordFile, OnlyTheKernelsRecordSizesAreWellFormed) {
  EXPECT_TRUE(record_size_ok(JB_EVENT_CALL, sizeof(jb_call_record)));
  EXPECT_FALSE(record_size_ok(JB_EVENT_CALL, sizeof(jb_call_record) - 8));
  EXPECT_TRUE(record_size_ok(JB_EVENT_PATH, sizeof(jb_path_record)));
  EXPECT_TRUE(record_size_ok(JB_EVENT_DRAINED, sizeof(jb_drained_record)));
  EXPECT_FALSE(record_size_ok(JB_EVENT_CANARY, sizeof(jb_event)));  // not a records-ring type
}

}  // namespace
}  // namespace jbench::collectors::syscall_detail
