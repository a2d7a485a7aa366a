#include "import/rocprof/common/columns.h"

#include <gtest/gtest.h>

namespace tensormorph::rocprof {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

std::vector<std::string> Split(std::string_view text) {
  std::vector<std::string> out;
  size_t at = 0;
  for (;;) {
    const size_t comma = text.find(',', at);
    out.emplace_back(text.substr(at, comma - at));
    if (comma == std::string_view::npos) return out;
    at = comma + 1;
  }
}

CsvKind Kind(std::string_view header) {
  return ClassifyHeader(Columns(Split(header)));
}

TEST(RocprofColumns, EveryHeaderGeneration) {
  // rocprofv3 current, 6.2-era, rocpd2csv (Guid first, Python converter's capitalisation).
  EXPECT_EQ(Kind("Kind,Agent_Id,Queue_Id,Stream_Id,Thread_Id,Dispatch_Id,Kernel_Id,Kernel_Name,"
                 "Correlation_Id,Start_Timestamp,End_Timestamp,LDS_Block_Size,Scratch_Size,"
                 "VGPR_Count,Accum_VGPR_Count,SGPR_Count,Workgroup_Size_X,Workgroup_Size_Y,"
                 "Workgroup_Size_Z,Grid_Size_X,Grid_Size_Y,Grid_Size_Z"),
            CsvKind::kKernels);
  EXPECT_EQ(Kind("Kind,Agent_Id,Queue_Id,Thread_Id,Dispatch_Id,Kernel_Id,Kernel_Name,"
                 "Correlation_Id,Start_Timestamp,End_Timestamp,Private_Segment_Size,"
                 "Group_Segment_Size,Workgroup_Size_X,Workgroup_Size_Y,Workgroup_Size_Z,"
                 "Grid_Size_X,Grid_Size_Y,Grid_Size_Z"),
            CsvKind::kKernels);
  const Columns rocpd(
      Split("Guid,Kind,Agent_Id,Queue_Id,Stream_Id,Thread_Id,Dispatch_Id,"
            "Kernel_Id,Kernel_Name,Correlation_Id,Start_Timestamp,End_Timestamp,"
            "Lds_Block_Size,Scratch_Size,Vgpr_Count,Accum_Vgpr_Count,Sgpr_Count"));
  EXPECT_EQ(ClassifyHeader(rocpd), CsvKind::kKernels);
  const KernelColumns c(rocpd);
  EXPECT_EQ(c.name, 8u);
  EXPECT_EQ(c.lds, 12u);
  EXPECT_EQ(c.vgpr, 14u);
  EXPECT_EQ(c.accum_vgpr, 15u);
  EXPECT_EQ(c.sgpr, 16u);
  // rocprof v1, both register variants; rocprofv2.
  const Columns v1(
      Split("Index,KernelName,gpu-id,queue-id,queue-index,pid,tid,grd,wgr,lds,scr,"
            "arch_vgpr,accum_vgpr,sgpr,wave_size,sig,obj,DispatchNs,BeginNs,EndNs,"
            "CompleteNs"));
  EXPECT_EQ(ClassifyHeader(v1), CsvKind::kKernels);
  EXPECT_EQ(KernelColumns(v1).vgpr, 11u);
  EXPECT_EQ(KernelColumns(v1).accum_vgpr, 12u);
  EXPECT_EQ(KernelColumns(v1).start, 18u);
  const Columns old_v1(
      Split("Index,KernelName,gpu-id,queue-id,queue-index,pid,tid,grd,wgr,lds,"
            "scr,vgpr,sgpr,fbar,sig,WriteSize,DispatchNs,BeginNs,EndNs,"
            "CompleteNs"));
  EXPECT_EQ(ClassifyHeader(old_v1), CsvKind::kKernels);
  EXPECT_EQ(KernelColumns(old_v1).vgpr, 11u);
  EXPECT_EQ(KernelColumns(old_v1).accum_vgpr, kMissing);
  EXPECT_NE(DescribeKernelHeader(old_v1).find("vgpr, fbar"), std::string::npos);
  EXPECT_EQ(Kind("Dispatch_ID,GPU_ID,Queue_ID,PID,TID,Grid_Size,Workgroup_Size,LDS_Per_Workgroup,"
                 "Scratch_Per_Workitem,Arch_VGPR,Accum_VGPR,SGPR,Wave_Size,Kernel_Name,"
                 "Start_Timestamp,End_Timestamp,Correlation_ID"),
            CsvKind::kKernels);
  // The other files of a run, and what is not read.
  EXPECT_EQ(Kind("Kind,Direction,Stream_Id,Source_Agent_Id,Destination_Agent_Id,Correlation_Id,"
                 "Start_Timestamp,End_Timestamp"),
            CsvKind::kMemoryCopy);
  EXPECT_EQ(Kind("Domain,Function,Process_Id,Thread_Id,Correlation_Id,Start_Timestamp,"
                 "End_Timestamp"),
            CsvKind::kHipApi);
  EXPECT_EQ(Kind("Node_Id,Logical_Node_Id,Agent_Type,Name"), CsvKind::kAgentInfo);
  EXPECT_EQ(Kind("Correlation_Id,Dispatch_Id,Agent_Id,Kernel_Name,Counter_Name,Counter_Value"),
            CsvKind::kCounterCollection);
  EXPECT_EQ(Kind("ID,Process ID,Process Name,Kernel Name"), CsvKind::kNone);
  EXPECT_EQ(Kind("Name,Calls,TotalDurationNs,AverageNs,Percentage"), CsvKind::kNone);
}

TEST(RocprofColumns, IntegersAreExact) {
  EXPECT_EQ(ParseInt("1550151853029637"), 1550151853029637);
  EXPECT_EQ(ParseInt("9223372036854775807"), INT64_MAX);
  EXPECT_EQ(ParseInt("9223372036854775808"), std::nullopt);
  EXPECT_EQ(ParseInt("8.1097E+14"), std::nullopt);  // a spreadsheet's rounding, not a time
  EXPECT_EQ(ParseInt("None"), std::nullopt);
  EXPECT_EQ(ParseInt(""), std::nullopt);
  EXPECT_EQ(ParseInt("12 "), std::nullopt);
  EXPECT_EQ(ParseTimestamp("4611686018427387904"), int64_t{1} << 62);
  EXPECT_EQ(ParseTimestamp("4611686018427387905"), std::nullopt);
  EXPECT_EQ(ParseTimestamp("-1"), std::nullopt);
}

TEST(RocprofColumns, AgentIds) {
  auto agent = [](std::string_view text) {
    std::optional<AgentRef> r = ParseAgent(text);
    return r ? std::make_pair(static_cast<int>(r->space), r->number) : std::make_pair(-1, -1L);
  };
  EXPECT_EQ(agent("Agent 4"), std::make_pair(static_cast<int>(AgentRef::Space::kLogical), 4L));
  EXPECT_EQ(agent("GPU 0"), std::make_pair(static_cast<int>(AgentRef::Space::kGpu), 0L));
  EXPECT_EQ(agent("CPU 1"), std::make_pair(static_cast<int>(AgentRef::Space::kCpu), 1L));
  EXPECT_EQ(agent("1"), std::make_pair(static_cast<int>(AgentRef::Space::kNode), 1L));
  EXPECT_EQ(agent(""), std::make_pair(-1, -1L));
  EXPECT_EQ(agent("Agent x"), std::make_pair(-1, -1L));
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph::rocprof
