// The scenarios of `whatif` as edits of one StepGraph (docs/whatif.md "Fixes as edits"). Each
// function returns the edit of one fix over the ranks of input `input` (-1: every rank of the
// graph); an edit that finds nothing to change is empty (GraphEdit::empty).
#pragma once

#include <string>
#include <vector>

#include "analysis/whatif/replay.h"
#include "tensormorph/analysis/findings/findings.h"
#include "tensormorph/analysis/whatif/whatif.h"

namespace tensormorph::whatif {

// host_launch_gaps and --no-host-gaps: each step's kernels launched as one graph. Every item
// launched in a step is released by the step's first launch instead of its own launch call, with
// at most its device's median delay after a stream predecessor (a graph's back-to-back dispatch);
// the host time between the step's first and last launch on each launching thread goes (the
// captured region no longer runs on the host); blocking calls still wait.
GraphEdit GraphLaunchEdit(const StepGraph& graph, int input);

// launch_bound_kernels: kernels that ran shorter than their launch call took, launched in a graph
// (released by the step's first launch, at most the median back-to-back delay) and their launch
// calls free on the host.
GraphEdit LaunchBoundEdit(const StepGraph& graph, int input);

// synchronization: every synchronising call (its name holds "Synchronize") stops waiting.
GraphEdit SynchronizationEdit(const StepGraph& graph, int input);

// blocking_copies: every blocking copy call (cudaMemcpy... without Async) stops waiting: the copy
// is made asynchronous from pinned memory and the host goes on.
GraphEdit BlockingCopiesEdit(const StepGraph& graph, int input);

// exposed_communication: the computation overlaps the communication: no non-collective item
// waits for a collective kernel before it on its stream or another stream (blocking calls still
// wait for them: the host needs their results).
GraphEdit ExposedCommunicationEdit(const StepGraph& graph, int input);

// stragglers: the late rank arrives with the others. No other rank's collective kernel waits for
// its arrival, and its own matched collective kernels end when the others' arrivals and the
// transfer allow (its own late arrival no longer counts).
GraphEdit StragglerEdit(const StepGraph& graph, int input);

// --remove-sync NAME: the blocking calls named NAME, or inside a framework op named NAME
// (aten::item), stop waiting.
GraphEdit RemoveSyncEdit(const StepGraph& graph, const std::string& name);

// --speedup PATTERN=FACTOR (whatif.h states the pattern's forms), on every rank.
GraphEdit SpeedupEdit(const StepGraph& graph, const WhatIfSpeedup& speedup);

// below_roof, fp32_matmul, slow_copies: the finding's WorkSpeedups. An op's speedup applies to
// the kernels under the outermost op of that name (the roofline's counted op); a kernel's to the
// kernels of that name; a copy kind's to the memcpys of that kind; each on the speedup's device.
GraphEdit WorkSpeedupEdit(const StepGraph& graph, int input,
                          const std::vector<WorkSpeedup>& speedups);

}  // namespace tensormorph::whatif
