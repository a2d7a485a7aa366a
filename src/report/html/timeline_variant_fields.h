// The fields of a timeline variant (the report's `timeline.variants[i]`: what a tooltip shows
// about a kind of box, so that a million boxes need only an index each), declared once. C++
// writes each field at its index (timeline_lanes.cc); tools/variant_fields_js.cc writes the page's
// assets/js/variant_fields.js from the same list, and the page reads the fields by name
// (vv[VARIANT.op]). The variant_fields test fails when the checked-in module is not that output.
#pragma once

#include <cstddef>

namespace tensormorph {

// X(enumerator, name in the page)
#define TM_TIMELINE_VARIANT_FIELDS(X)                                                      \
  X(kName, name)            /* the kernel's or copy's name: an index into `names` */       \
  X(kOp, op)                /* its op's name (index into `names`; the empty name: none) */ \
  X(kBackend, backend)      /* "cuda", "rocm", ... */                                      \
  X(kGrid, grid)            /* "x×y×z", "" for a copy */                                 \
  X(kBlock, block)          /* likewise */                                                 \
  X(kOccupancy, occupancy)  /* theoretical occupancy 0..1 of its shape, null: unknown */   \
  X(kAchieved, achieved)    /* achieved occupancy 0..1, null: not measured */              \
  X(kKind, kind)            /* "kernel", "memcpy" or "memset" */                           \
  X(kWorkClass, work_class) /* "communication", "memory" or "computation" (timeline) */    \
  X(kCopyKind, copy_kind)   /* a memcpy's kind label (MemcpyKindLabel), else null */

enum class VariantField : size_t {
#define TM_VARIANT_ENUMERATOR(enumerator, name) enumerator,
  TM_TIMELINE_VARIANT_FIELDS(TM_VARIANT_ENUMERATOR)
#undef TM_VARIANT_ENUMERATOR
};

#define TM_VARIANT_COUNT(enumerator, name) +1
inline constexpr size_t kVariantFieldCount = 0 TM_TIMELINE_VARIANT_FIELDS(TM_VARIANT_COUNT);
#undef TM_VARIANT_COUNT

}  // namespace tensormorph
