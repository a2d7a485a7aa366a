// `nsys stats --format csv` reports (cuda_gpu_kern_sum, cuda_api_sum, ...) are summaries per name:
// they hold no launch, so no analysis can be run on them. They are recognised so that the user
// is told to give the report's SQLite export instead of "not a trace format".
#pragma once

#include <string_view>

namespace tensormorph::nsys {

// True when the first line of `head` is the header of an `nsys stats` CSV report: it starts with
// "Time (%)" (older versions: "Time(%)") and has a "Total Time (ns)" column.
bool IsStatsReportHeader(std::string_view head);

// The refusal: what the file is and what to read instead.
inline constexpr std::string_view kStatsReportMessage =
    "an `nsys stats` report (a summary per name, such as cuda_gpu_kern_sum), not a trace: it "
    "holds no launches to analyse. Give tensormorph the report's SQLite export instead (`nsys "
    "export --type sqlite REPORT.nsys-rep`, or the .sqlite file `nsys stats` writes beside the "
    "report); `tensormorph kernels` on it gives the same summary";

}  // namespace tensormorph::nsys
