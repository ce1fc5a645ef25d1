// Errors as values, across components: a Status (success or one Error) and a Result<T> (a value
// or one Error). Nothing here throws; only the CLI turns an Error into an exit code.
//
//   Status s = bundle.write_file("runs/r1/run.json", text);
//   if (!s) log(s.error().message);   // "cannot write 'runs/r1/run.json' in ...: No space left"
//
//   Result<std::string> digest = file_sha256("/usr/bin/env");
//   if (digest) use(*digest); else log(digest.error().message);
#pragma once

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace jbench {

namespace result_detail {
// Reading the wrong side of a Status or Result is a programming error: abort loudly.
[[noreturn]] inline void fail_access(const char* what) {
  std::fprintf(stderr, "jbench: broken invariant: %s\n", what);
  std::abort();
}
}  // namespace result_detail

// What went wrong, in words a user can act on, with the context it happened in.
enum class ErrorKind {
  input,  // what the user gave is wrong (a file, an option, a matrix): fix the input
  host,   // this host cannot do it (a missing binary, a directory that cannot be written)
  io,     // a system call failed while working (full disk, I/O error)
};

struct Error {
  std::string message;  // names the file or directory concerned and, for a system call, strerror
  int sys_errno = 0;    // errno of the failing system call; 0 when a rule refused the request
  ErrorKind kind = ErrorKind::io;

  // The same error, said within `context` ("writing the manifest: <message>").
  Error within(std::string_view context) const {
    return {std::string(context) + ": " + message, sys_errno, kind};
  }
};

// Success, or one Error. [[nodiscard]]: a write whose failure is ignored is a bug.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Error error) : error_(std::move(error)) {}  // NOLINT: implicit on purpose
  bool ok() const { return !error_.has_value(); }
  explicit operator bool() const { return ok(); }
  // Only when !ok().
  const Error& error() const {
    if (!error_) result_detail::fail_access("Status::error() on a success");
    return *error_;
  }

 private:
  std::optional<Error> error_;
};

// A value or one Error. Reading the wrong side is a programming error and aborts.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::in_place_index<0>, std::move(value)) {}      // NOLINT
  Result(Error error) : v_(std::in_place_index<1>, std::move(error)) {}  // NOLINT
  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  const T& value() const& {
    if (!ok()) result_detail::fail_access("Result::value() on an error");
    return std::get<0>(v_);
  }
  T& value() & {
    if (!ok()) result_detail::fail_access("Result::value() on an error");
    return std::get<0>(v_);
  }
  T&& value() && {
    if (!ok()) result_detail::fail_access("Result::value() on an error");
    return std::get<0>(std::move(v_));
  }
  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  const T* operator->() const { return &value(); }

  const Error& error() const {
    if (ok()) result_detail::fail_access("Result::error() on a value");
    return std::get<1>(v_);
  }
  Status status() const { return ok() ? Status() : Status(error()); }

 private:
  std::variant<T, Error> v_;
};

}  // namespace jbench
