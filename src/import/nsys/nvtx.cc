#include "import/nsys/nvtx.h"

#include <string>
#include <unordered_map>

#include "import/common/op_inputs_json.h"
#include "import/nsys/pytorch_nvtx.h"

namespace tensormorph::nsys {
namespace {

// ENUM_NSYS_EVENT_TYPE values found in NVTX_EVENTS.
enum NvtxEventType : int64_t {
  kCategory = 33,
  kMark = 34,
  kThreadName = 39,
  kPushPopRange = 59,
  kStartEndRange = 60,
  kNvtxtPushPopRange = 70,
  kNvtxtStartEndRange = 71,
  kDomainCreate = 75,
  kDomainDestroy = 76,
};

}  // namespace

Status ReadNvtx(ImportContext& context) {
  if (!context.schema().HasTable(kNvtxTable)) return Status::Ok();
  TM_ASSIGN_OR_RETURN(
      sqlite::Statement rows,
      SelectColumns(context.db(), context.schema(), kNvtxTable, {"start", "eventType"},
                    {"end", "text", "textId", "globalTid"}));
  const int start = rows.Index("start"), end = rows.Index("end");
  const int type = rows.Index("eventType"), text = rows.Index("text");
  const int text_id = rows.Index("textId"), global_tid = rows.Index("globalTid");

  Trace& trace = context.trace();
  EventCounts& counts = trace.counts;
  trace.slices.reserve(trace.slices.size() + context.ReserveHint(kNvtxTable));
  uint64_t row = 0;
  std::unordered_map<std::string, OpInputsId> inputs_by_sizes;  // each "sizes" text read once
  for (;;) {
    TM_ASSIGN_OR_RETURN(bool more, context.NextRow(rows, &row));
    if (!more) break;
    switch (rows.IntOr(type, -1)) {
      case kPushPopRange:
      case kStartEndRange:
      case kNvtxtPushPopRange:
      case kNvtxtStartEndRange:
        break;
      case kMark:
        ++counts.instants;
        continue;
      case kCategory:
      case kThreadName:
      case kDomainCreate:
      case kDomainDestroy:
        ++counts.metadata;
        continue;
      default:
        ++counts.other;
        continue;
    }
    Slice slice;
    slice.kind = SliceKind::kUserAnnotation;
    if (rows.IsNull(end)) {
      context.SkipRow(kNvtxTable, row, "a range that was still open when the capture ended");
      continue;
    }
    if (!context.CheckTimes(kNvtxTable, row, rows.Int(start), rows.Int(end), &slice.duration_ns))
      continue;
    slice.start_ns = *rows.Int(start);
    if (std::optional<std::string_view> plain = rows.Text(text)) {
      if (std::optional<PytorchNvtxRange> op = ParsePytorchNvtxRange(*plain)) {
        // torch.autograd.profiler.emit_nvtx: one range per framework op.
        slice.kind = SliceKind::kOp;
        slice.name = trace.strings.Intern(op->name);
        slice.external_id = op->op_id;
        if (!op->sizes.empty()) {
          auto [it, added] = inputs_by_sizes.try_emplace(std::string(op->sizes), 0);
          if (added) it->second = trace.op_inputs.Add(OpInputsFromLists(op->sizes, "", ""));
          slice.inputs = it->second;
        }
      } else {
        slice.name = trace.strings.Intern(*plain);
      }
    } else if (std::optional<int64_t> id = rows.Int(text_id)) {
      TM_ASSIGN_OR_RETURN(std::optional<StringId> registered, context.String(*id));
      slice.name = registered.value_or(0);
    }
    // A start/end range may end on another thread; it belongs to the one that started it.
    slice.track = context.TrackOf(rows.IntOr(global_tid, 0));
    ++(slice.kind == SliceKind::kOp ? counts.ops : counts.annotations);
    trace.slices.push_back(slice);
  }
  return Status::Ok();
}

}  // namespace tensormorph::nsys
