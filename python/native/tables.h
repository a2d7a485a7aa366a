// A trace's rows as columns for pandas: one NumPy array per column, filled from the C++ rows
// without a Python object per row. Names (kernel, op, call, copy names, and every small set of
// labels such as backends) come as ("categorical", codes, categories): int32 codes into a list of
// the distinct strings, -1 for none; tensormorph/_tables.py makes them pandas Categoricals.
//
// Column names and units follow the model (model/trace.h): times are integer nanoseconds,
// `device` indexes the trace's device table (-1 = none), `pid`/`tid` are the host thread's.
#pragma once

#include <pybind11/pybind11.h>

#include "loaded_trace.h"

namespace tensormorph::python {

pybind11::dict KernelColumns(const LoadedTrace& loaded);           // with the launching op (links)
pybind11::dict MemcpyColumns(const LoadedTrace& loaded);           // copies and memsets
pybind11::dict RuntimeCallColumns(const LoadedTrace& loaded);      // runtime, driver, sync calls
pybind11::dict SliceColumns(const LoadedTrace& loaded, bool ops);  // ops, or the other slices
pybind11::list DeviceRows(const Trace& trace);                     // one dict per device
pybind11::list MemoryRecordRows(const LoadedTrace& loaded);        // one dict per [memory] record

}  // namespace tensormorph::python
