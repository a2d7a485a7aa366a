// Unit tests of the native importer: detection, layouts, defaults, ordering and warnings.
#include "import/native/native_importer.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>

namespace tensormorph::native {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

StatusOr<Trace> ImportText(const std::string& text) {
  static int counter = 0;
  const std::string path = "/tmp/tm_native_unit_" + std::to_string(getpid()) + "_" +
                           std::to_string(counter++) + ".ndjson";
  std::ofstream(path, std::ios::binary) << text;
  StatusOr<Trace> trace = ImportWith(NativeImporter(), path, ImportOptions{});
  std::remove(path.c_str());
  return trace;
}

const std::string kHead =
    "{\"schema\":\"tensormorph.trace/1\"}\n{\"type\":\"device\",\"id\":5,\"backend\":\"cuda\"}\n";

TEST(NativeSniff, NamesTheSchemaOnly) {
  NativeImporter importer;
  EXPECT_EQ(importer.Sniff(R"({"schema":"tensormorph.trace/1","kernels":[]})"), 100);
  EXPECT_EQ(importer.Sniff("{ \"source_format\": \"x\",\n \"schema\" : \"tensormorph.trace/7\"}"),
            100);
  EXPECT_EQ(importer.Sniff(R"({"schema": "tensormorph.kernels/1", "rows": []})"), 0);
  EXPECT_EQ(importer.Sniff(R"({"traceEvents": [], "schema": "tensormorph.trace"})"), 0);
  EXPECT_EQ(importer.Sniff(R"([{"schema":"tensormorph.trace/1"}])"), 0);
}

TEST(NativeLayout, CompleteObjectIsStringAware) {
  EXPECT_TRUE(IsCompleteObject(R"({"a":"}{","b":[1,{"c":2}]} )"));
  EXPECT_TRUE(IsCompleteObject(R"({"a":"\"}"})"));
  EXPECT_FALSE(IsCompleteObject(R"({"schema":"tensormorph.trace/1",)"));
  EXPECT_FALSE(IsCompleteObject(R"({"a":1} {"b":2})"));
  EXPECT_FALSE(IsCompleteObject("[1]"));
}

TEST(NativeImport, DefaultsWhenTheHeaderLeavesThemOut) {
  StatusOr<Trace> t = ImportText(
      kHead +
      R"({"type":"kernel","name":"k","device":5,"start_ns":10,"end_ns":30,"grid":[4],"block":[32,2]})"
      "\n"
      R"({"type":"transfer","kind":"memset","device":null,"start_ns":0,"duration_ns":4,"bytes":64})"
      "\n"
      R"({"type":"slice","name":"op","start_ns":0,"duration_ns":40})"
      "\n");
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(t->format, "native");
  EXPECT_EQ(t->format_version, "tensormorph.trace/1");
  EXPECT_EQ(t->backends, (std::vector<Backend>{Backend::kCpu, Backend::kCuda}));
  EXPECT_EQ(t->devices[0].trace_id, 5);
  EXPECT_EQ(t->described_device_count, 0);
  EXPECT_EQ(t->kernels[0].duration_ns, 20);
  EXPECT_EQ(t->kernels[0].grid.x, 4u);
  EXPECT_EQ(t->kernels[0].grid.y, 1u);
  EXPECT_EQ(t->kernels[0].block.y, 2u);
  EXPECT_EQ(t->kernels[0].link.external_id, -1);
  EXPECT_EQ(t->transfers[0].device, kNoDevice);
  EXPECT_EQ(t->counts.kernels, 1u);
  EXPECT_EQ(t->counts.memsets, 1u);
  EXPECT_EQ(t->counts.memcpys, 0u);
  EXPECT_EQ(t->counts.ops, 1u);
  // A slice without a track goes to a default track (pid 0, tid 0).
  ASSERT_EQ(t->tracks.size(), 1u);
  EXPECT_EQ(t->slices[0].track, 0u);
  EXPECT_EQ(t->span_start_ns, 0);
  EXPECT_EQ(t->span_end_ns, 40);
}

TEST(NativeImport, OutOfOrderKernelsAreSortedAndCountersFollowThem) {
  StatusOr<Trace> t = ImportText(
      kHead +
      R"({"type":"kernel","name":"late","device":5,"start_ns":100,"duration_ns":1})"
      "\n"
      R"({"type":"kernel","name":"early","device":5,"start_ns":1,"duration_ns":1})"
      "\n"
      R"({"type":"kernel_counters","kernel":0,"dram_bytes":8,"metrics":[{"name":"m","value":"NaN"}]})"
      "\n");
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(t->str(t->kernels[0].name), "early");
  ASSERT_EQ(t->kernel_counters.size(), 1u);
  EXPECT_EQ(t->kernel_counters[0].kernel, 1u);  // still "late"
  EXPECT_EQ(t->kernel_counters[0].dram_bytes, 8.0);
  EXPECT_TRUE(std::isnan(t->kernel_counters[0].metrics[0].value));
}

TEST(NativeImport, UnknownFieldsAndRecordTypesAreWarnedOncePerName) {
  StatusOr<Trace> t = ImportText(
      kHead + R"({"type":"kernel","name":"a","device":5,"start_ns":1,"duration_ns":1,"duration":3})"
              "\n"
              R"({"type":"kernel","name":"b","device":5,"start_ns":2,"duration_ns":1,"duration":3})"
              "\n"
              R"({"type":"counter_sample","value":1})"
              "\n");
  ASSERT_TRUE(t.ok()) << t.status().message();
  ASSERT_EQ(t->warnings.size(), 2u);
  EXPECT_NE(t->warnings[0].find(":3:80: kernel.duration is not part of tensormorph.trace/1; "
                                "ignored (2 times)"),
            std::string::npos)
      << t->warnings[0];
  EXPECT_NE(t->warnings[1].find(":5:1: record type \"counter_sample\""), std::string::npos)
      << t->warnings[1];
}

TEST(NativeImport, DurationAndEndMustAgree) {
  StatusOr<Trace> t = ImportText(
      kHead + R"({"type":"kernel","name":"a","device":5,"start_ns":1,"duration_ns":5,"end_ns":9})" +
      "\n");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().position().line, 3u);
  EXPECT_NE(t.status().message().find("disagrees with end_ns - start_ns = 8"), std::string::npos);
}

TEST(NativeImport, HeaderMustNameTheSchema) {
  StatusOr<Trace> t = ImportText("{\"source_format\":\"x\"}\n");
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("no \"schema\""), std::string::npos);
  EXPECT_EQ(t.status().position().line, 1u);
}

TEST(NativeImport, HugeTimesAreRejectedNotWrapped) {
  StatusOr<Trace> t = ImportText(
      kHead +
      R"({"type":"kernel","name":"a","device":5,"start_ns":9223372036854775807,"duration_ns":1})" +
      "\n");
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("within ±2^62"), std::string::npos);
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph::native
