// Kineto has renamed its event categories several times (2021 `Kernel`/`Runtime`, 2022
// `async_gpu` flows, today `kernel`/`cuda_runtime`/`ac2g`); this table maps every spelling seen in
// the wild onto one meaning. Events are classified by category, never by pid (a python_function
// can sit on pid 0, which is also GPU 0's pid).
#pragma once

#include <cstdint>
#include <string_view>

namespace tensormorph::chrome {

enum class Category : uint8_t {
  kUnknown,         // anything not listed; counted, not kept
  kNone,            // no "cat" key (metadata events, legacy autograd export, JAX)
  kKernel,          // kernel, Kernel
  kMemcpy,          // gpu_memcpy, Memcpy
  kMemset,          // gpu_memset, Memset
  kRuntime,         // cuda_runtime, Runtime, xpu_runtime, mtia_runtime, privateuse1_runtime, ...
  kDriver,          // cuda_driver, xpu_driver, privateuse1_driver
  kSync,            // cuda_sync, xpu_sync
  kCpuOp,           // cpu_op, Operator
  kUserAnnotation,  // user_annotation, User
  kGpuAnnotation,   // gpu_user_annotation (gpu_user_Annotation until 2022-05)
  kPythonFunction,  // python_function
  kFlow,            // ac2g, fwdbwd, async_gpu, async_cpu_to_gpu, async, cpu_to_cuda
  kTraceSpan,       // Trace (the profiler's own span)
  kMtiaDevice,      // mtia_ccp_events: work on a Meta MTIA accelerator's streams
  kProfilerRange,   // cuda_profiler_range: CUPTI range-profiler counters (kernel replays)
  kInstant,         // cpu_instant_event ([memory] events)
  kOverhead,        // overhead (CUPTI buffer requests)
};

Category ClassifyCategory(std::string_view cat);

}  // namespace tensormorph::chrome
