#include "import/xctrace/xctrace_importer.h"

#include <gtest/gtest.h>

#include "import/xctrace/trace_builder.h"
#include "import/xctrace/xml_tables.h"
#include "tensormorph/link/work_links.h"

namespace tensormorph::xctrace {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

constexpr std::string_view kSchema =
    "<schema name=\"metal-gpu-intervals\">"
    "<col><mnemonic>start</mnemonic></col><col><mnemonic>duration</mnemonic></col>"
    "<col><mnemonic>process</mnemonic></col></schema>";

std::string Document(std::string_view rows) {
  return "<?xml version=\"1.0\"?><trace-query-result><node>" + std::string(kSchema) +
         std::string(rows) + "</node></trace-query-result>";
}

TEST(XctraceXmlTables, ForwardAndNestedReferencesResolveAfterTheDocument) {
  // Row 1 refers to id 9 (defined in row 2) and to pid 4 (nested in its own process value).
  const std::string xml = Document(
      "<row><start-time>10</start-time><duration ref=\"9\"/>"
      "<process id=\"3\" fmt=\"a (7)\"><pid id=\"4\">7</pid></process></row>"
      "<row><start-time>20</start-time><duration id=\"9\">5</duration><sentinel/></row>");
  StatusOr<XmlDocument> doc = ReadXmlTables(xml);
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  ASSERT_EQ(doc->tables.size(), 1u);
  const Table& t = doc->tables[0];
  ASSERT_EQ(t.rows.size(), 2u);
  const uint32_t duration = doc->Cell(t, t.rows[0], t.ColumnIndex("duration"));
  ASSERT_NE(duration, kNoValue);
  EXPECT_EQ(doc->values[duration].text, "5");
  EXPECT_EQ(doc->Cell(t, t.rows[1], t.ColumnIndex("process")), kNoValue);  // <sentinel/>
  const uint32_t pid = doc->Find(doc->Cell(t, t.rows[0], 2), "pid");
  ASSERT_NE(pid, kNoValue);
  EXPECT_EQ(doc->values[pid].text, "7");
  EXPECT_EQ(t.ColumnIndex("gpu"), -1);
}

TEST(XctraceXmlTables, ReferenceCyclesAndUnknownIdsEndAsEmpty) {
  const std::string xml = Document(
      "<row><start-time id=\"1\" ref=\"2\"/><duration id=\"2\" ref=\"1\"/>"
      "<process ref=\"404\"/></row>");
  StatusOr<XmlDocument> doc = ReadXmlTables(xml);
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  const Table& t = doc->tables[0];
  EXPECT_EQ(doc->Cell(t, t.rows[0], 0), kNoValue);
  EXPECT_EQ(doc->Cell(t, t.rows[0], 2), kNoValue);
}

TEST(XctraceXmlTables, RaggedRowsAreCounted) {
  StatusOr<XmlDocument> doc = ReadXmlTables(Document("<row><start-time>1</start-time></row>"));
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(doc->ragged_rows, 1u);
}

TEST(XctraceXmlTables, MalformedXmlHasLineAndOneBasedColumn) {
  StatusOr<XmlDocument> doc = ReadXmlTables("<trace-query-result>\n  <node></row>");
  ASSERT_FALSE(doc.ok());
  EXPECT_EQ(doc.status().code(), StatusCode::kUnreadableInput);
  EXPECT_EQ(doc.status().position().line, 2u);
  EXPECT_EQ(doc.status().position().column, 11u);  // "  <node></row>": '<' of </row> is 11th
}

TEST(XctraceImporter, SniffsTheDocumentElement) {
  XctraceImporter importer;
  EXPECT_EQ(importer.Sniff("<?xml version=\"1.0\"?>\n<!-- note -->\n<trace-query-result>"), 100);
  EXPECT_EQ(importer.Sniff("<trace-toc><run number=\"1\">"), 100);
  EXPECT_EQ(importer.Sniff("<?xml version=\"1.0\"?><trace-query-results>"), 0);
  EXPECT_EQ(importer.Sniff("<?xml version=\"1.0\"?><svg>"), 0);
  EXPECT_EQ(importer.Sniff("{\"traceEvents\": []}"), 0);
}

TEST(XctraceImporter, EventLabelLosesProcessAndAddress) {
  EXPECT_EQ(KernelNameFromEventLabel("Command Buffer 0:Compute Command 0 (python (99926)) 0x4e18"),
            "Command Buffer 0:Compute Command 0");
  EXPECT_EQ(KernelNameFromEventLabel("Command Buffer 0:Compute Command 0 ( qwen38 (2297) )"),
            "Command Buffer 0:Compute Command 0");
  // A label's own parentheses stay: only a group that ends in "(pid)" is the process.
  EXPECT_EQ(KernelNameFromEventLabel("gemm (fp16)"), "gemm (fp16)");
  EXPECT_EQ(KernelNameFromEventLabel(""), "");
}

TEST(XctraceImporter, NestedRowsInsideTopLevelOnesAreNotKernels) {
  // Top-level 100..200; nested 120..150 inside it; nested 300..310 with no parent in the file.
  const std::string xml =
      "<trace-query-result><node><schema name=\"metal-gpu-intervals\">"
      "<col><mnemonic>start</mnemonic></col><col><mnemonic>duration</mnemonic></col>"
      "<col><mnemonic>event-depth</mnemonic></col></schema>"
      "<row><start-time>100</start-time><duration>100</duration><sentinel/></row>"
      "<row><start-time>120</start-time><duration>30</duration><metal-nesting-level>1"
      "</metal-nesting-level></row>"
      "<row><start-time>300</start-time><duration>10</duration><metal-nesting-level>1"
      "</metal-nesting-level></row></node></trace-query-result>";
  StatusOr<XmlDocument> doc = ReadXmlTables(xml);
  ASSERT_TRUE(doc.ok());
  Trace trace;
  ASSERT_TRUE(BuildXctraceTrace(*doc, ImportOptions{}, &trace).ok());
  ASSERT_EQ(trace.kernels.size(), 2u);
  EXPECT_EQ(trace.kernels[0].duration_ns, 100);
  EXPECT_EQ(trace.kernels[1].start_ns, 300);
  EXPECT_EQ(trace.counts.gpu_annotations, 1u);
  EXPECT_EQ(trace.devices.at(0).name, "Apple GPU");  // no gpu column, no gpu info table
}

TEST(XctraceImporter, TimesBeyondTwoToThe62AreSkipped) {
  // 2^62 = 4611686018427387904 is the largest time kept; one more is out of range.
  const std::string xml =
      "<trace-query-result><node><schema name=\"metal-gpu-intervals\">"
      "<col><mnemonic>start</mnemonic></col><col><mnemonic>duration</mnemonic></col></schema>"
      "<row><start-time>9223372036854775807</start-time><duration>1</duration></row>"
      "<row><start-time>1</start-time><duration>4611686018427387905</duration></row>"
      "<row><start-time>99999999999999999999</start-time><duration>1</duration></row>"
      "<row><start-time>4611686018427387904</start-time><duration>0</duration></row>"
      "</node></trace-query-result>";
  StatusOr<XmlDocument> doc = ReadXmlTables(xml);
  ASSERT_TRUE(doc.ok());
  Trace trace;
  ASSERT_TRUE(BuildXctraceTrace(*doc, ImportOptions{}, &trace).ok());
  ASSERT_EQ(trace.kernels.size(), 1u);
  EXPECT_EQ(trace.kernels[0].start_ns, int64_t{1} << 62);
  EXPECT_EQ(trace.counts.skipped, 3u);
}

// tests/data/xctrace/metal_gpu_intervals.xml: kernels with encoder ids 1001, 1002, 1003, 1004 have
// an encoder-list row each (runtime calls with that correlation); WindowServer's 3001 has none.
TEST(XctraceImporter, KernelsLinkToTheirEncodingCalls) {
  StatusOr<Trace> trace =
      ImportWith(XctraceImporter(), TM_SOURCE_DIR "/tests/data/xctrace/metal_gpu_intervals.xml",
                 ImportOptions{});
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  const TraceLinks links = LinkTrace(*trace);
  int linked = 0;
  for (size_t i = 0; i < trace->kernels.size(); ++i) {
    const WorkLink& link = links.kernels[i];
    if (link.launch == kNoRow) {
      EXPECT_EQ(trace->kernels[i].link.correlation, 3001u);
      continue;
    }
    ++linked;
    const ApiCall& call = trace->api_calls[link.launch];
    EXPECT_EQ(trace->str(call.name), "Encoding");
    EXPECT_EQ(trace->tracks[call.track].tid, 1234);
    EXPECT_EQ(trace->tracks[call.track].pid, 4242);
  }
  EXPECT_EQ(linked, 4);
  EXPECT_EQ(links.duplicate_correlations, 0u);
}

TEST(XctraceImporter, MissingIntervalsTableSaysWhatToExport) {
  StatusOr<XmlDocument> doc = ReadXmlTables(
      "<trace-query-result><node><schema name=\"time-info\"></schema></node>"
      "</trace-query-result>");
  ASSERT_TRUE(doc.ok());
  Trace trace;
  const Status s = BuildXctraceTrace(*doc, ImportOptions{}, &trace);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("time-info"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("metal-gpu-intervals"), std::string::npos);
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph::xctrace
