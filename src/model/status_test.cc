#include "tensormorph/model/status.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

StatusOr<std::string> Text(bool fail) {
  if (fail) return UnreadableInput("no text");
  return std::string("text");
}

StatusOr<std::unique_ptr<int>> Pointer(bool fail) {
  if (fail) return Status(StatusCode::kIoError, "no pointer");
  return std::make_unique<int>(7);
}

Status Check(bool fail) {
  return fail ? UnreadableInput("bad") : Status::Ok();
}

// Counts how far the function got, so a test can see that an error returned early.
Status ReturnIfError(bool fail_status, bool fail_status_or, int* reached) {
  TM_RETURN_IF_ERROR(Check(fail_status));
  ++*reached;
  TM_RETURN_IF_ERROR(Text(fail_status_or));  // a StatusOr: only its status is looked at
  ++*reached;
  return Status::Ok();
}

StatusOr<size_t> AssignOrReturn(bool fail_first, bool fail_second) {
  TM_ASSIGN_OR_RETURN(std::string text, Text(fail_first));
  TM_ASSIGN_OR_RETURN(auto pointer, Pointer(fail_second));  // move-only values move out
  size_t existing = 0;
  TM_ASSIGN_OR_RETURN(existing, StatusOr<size_t>(text.size()));  // an existing variable
  return existing + static_cast<size_t>(*pointer);
}

TEST(Status, ReturnIfErrorPassesOnTheFirstError) {
  int reached = 0;
  EXPECT_TRUE(ReturnIfError(false, false, &reached).ok());
  EXPECT_EQ(reached, 2);
  reached = 0;
  Status s = ReturnIfError(true, false, &reached);
  EXPECT_EQ(s.code(), StatusCode::kUnreadableInput);
  EXPECT_EQ(s.message(), "bad");
  EXPECT_EQ(reached, 0);
  reached = 0;
  s = ReturnIfError(false, true, &reached);
  EXPECT_EQ(s.message(), "no text");
  EXPECT_EQ(reached, 1);
}

TEST(Status, AssignOrReturnMovesTheValueOrReturnsTheError) {
  StatusOr<size_t> n = AssignOrReturn(false, false);
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*n, 4u + 7u);
  n = AssignOrReturn(true, false);
  EXPECT_EQ(n.status().message(), "no text");
  n = AssignOrReturn(false, true);
  EXPECT_EQ(n.status().code(), StatusCode::kIoError);
  EXPECT_EQ(n.status().message(), "no pointer");
}

TEST(Status, StatusOrRefusesAnOkStatus) {
  // The same in every build (no assert): the caller gets an error it can report.
  StatusOr<int> refused = Status::Ok();
  EXPECT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kInternal);
  EXPECT_EQ(refused.status().message(),
            "internal error: a StatusOr was made from an OK status, which holds no value");
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
