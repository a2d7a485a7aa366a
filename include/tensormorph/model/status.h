// Error values for every stage: importers and analyses return Status / StatusOr instead of
// throwing, so the command line can map them onto exit codes and `file:line:col` messages. An
// error is passed on with TM_RETURN_IF_ERROR / TM_ASSIGN_OR_RETURN (below), not by hand.
#pragma once

#include <cassert>
#include <cstdint>
#include <string>
#include <utility>
#include <variant>

namespace tensormorph {

enum class StatusCode : uint8_t {
  kOk,
  kInvalidArgument,  // the caller asked for something that cannot be done (usage error)
  kUnreadableInput,  // the input cannot be read as any supported trace
  kIoError,          // the operating system refused (missing file, permissions)
  kInternal,  // a bug in tensormorph, not in the input (e.g. a StatusOr made from an OK Status)
};

// A place in an input file; line and column are 1-based, 0 means unknown. Stages deep in a
// pipeline know only the byte offset into the (decompressed) content; the importer turns that into
// line and column before the error leaves it.
struct SourcePosition {
  static constexpr uint64_t kNoOffset = UINT64_MAX;
  uint64_t line = 0;
  uint64_t column = 0;
  uint64_t byte_offset = kNoOffset;
  static SourcePosition AtOffset(uint64_t offset) { return {0, 0, offset}; }
};

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message, SourcePosition position = {})
      : code_(code), message_(std::move(message)), position_(position) {}

  static Status Ok() { return {}; }
  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  const SourcePosition& position() const { return position_; }

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
  SourcePosition position_;
};

inline Status UnreadableInput(std::string message, SourcePosition position = {}) {
  return {StatusCode::kUnreadableInput, std::move(message), position};
}

template <typename T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(T value) : value_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  // An error. An OK status holds no value, so it is refused: the StatusOr holds a kInternal error
  // instead, in every build, never an "ok" without a value (the CLI reports it as an internal
  // error; a test of the caller sees it).
  StatusOr(Status status)  // NOLINT(google-explicit-constructor)
      : value_(status.ok() ? Status(StatusCode::kInternal,
                                    "internal error: a StatusOr was made from an OK status, which "
                                    "holds no value")
                           : std::move(status)) {}

  bool ok() const { return std::holds_alternative<T>(value_); }
  const Status& status() const {
    static const Status kOkStatus;
    return ok() ? kOkStatus : std::get<Status>(value_);
  }
  T& value() & { return std::get<T>(value_); }
  T&& value() && { return std::get<T>(std::move(value_)); }
  const T& value() const& { return std::get<T>(value_); }
  T* operator->() { return &value(); }
  T& operator*() & { return value(); }

 private:
  std::variant<T, Status> value_;
};

namespace internal {
// The error of a Status or a StatusOr, for the macros below: a copy, so that it outlives a
// temporary StatusOr it was read from (copying an OK status allocates nothing).
inline Status StatusOf(Status&& status) {
  return std::move(status);
}
inline const Status& StatusOf(const Status& status) {
  return status;
}
template <typename T>
const Status& StatusOf(const StatusOr<T>& status_or) {
  return status_or.status();
}
}  // namespace internal

}  // namespace tensormorph

// Returns from the calling function with the error of `expr` (a Status or a StatusOr) when it is
// not ok; the function returns a Status or any StatusOr.
//   TM_RETURN_IF_ERROR(reader.status());
#define TM_RETURN_IF_ERROR(expr)                                                    \
  do {                                                                              \
    if (::tensormorph::Status tm_status_ = ::tensormorph::internal::StatusOf(expr); \
        !tm_status_.ok()) {                                                         \
      return tm_status_;                                                            \
    }                                                                               \
  } while (false)

// Evaluates `expr` (a StatusOr<T>); returns its error when it is not ok, else moves its value into
// `lhs`, a declaration (`auto x`, `std::string text`) or an existing variable. Expands to
// statements, so it cannot be the body of an unbraced if or loop.
//   TM_ASSIGN_OR_RETURN(std::string text, input.Content(&warning));
#define TM_ASSIGN_OR_RETURN(lhs, expr) \
  TM_ASSIGN_OR_RETURN_IMPL_(TM_STATUS_CONCAT_(tm_status_or_, __LINE__), lhs, expr)
#define TM_ASSIGN_OR_RETURN_IMPL_(status_or, lhs, expr)                     \
  auto status_or = (expr);                                                  \
  if (!status_or.ok()) return ::tensormorph::internal::StatusOf(status_or); \
  lhs = std::move(status_or).value()
#define TM_STATUS_CONCAT_(a, b) TM_STATUS_CONCAT_INNER_(a, b)
#define TM_STATUS_CONCAT_INNER_(a, b) a##b
