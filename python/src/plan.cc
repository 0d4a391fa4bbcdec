// simdex.parts.plan: include/simdex/plan.h for Python.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>

#include "python/src/errors.h"
#include "python/src/module.h"
#include "simdex/plan.h"

namespace py = pybind11;

namespace simdex::python {
namespace {

py::dict ChoiceDict(const PlanChoice& c) {
  using namespace pybind11::literals;
  return py::dict("scheme"_a = c.scheme.Name(), "block_size"_a = c.block_size, "codec"_a = c.codec,
                  "index_bytes"_a = c.index_bytes, "scratch_bytes"_a = c.scratch_bytes, "disk_bytes"_a = c.disk_bytes,
                  "memory_bytes"_a = c.memory_bytes, "spills"_a = c.spills, "p50_us"_a = c.p50_us,
                  "p50_measured"_a = c.p50_measured, "extrapolated"_a = c.extrapolated);
}

}  // namespace

void DefinePlan(py::module_& m) {
  m.def(
      "plan",
      [](uint64_t n, int k, uint64_t memory, uint64_t disk, uint32_t block_size, const std::string& codec) {
        PlanRequest request;
        request.n = n;
        request.k = k;
        request.memory_bytes = memory;
        request.disk_bytes = disk;
        request.block_size = block_size;
        request.codec = codec;
        Plan plan;
        ThrowIfError(PlanIndex(request, &plan));
        using namespace pybind11::literals;
        return py::dict("choice"_a = ChoiceDict(plan.choice),
                        "runner_up"_a = plan.has_runner_up ? py::object(ChoiceDict(plan.runner_up)) : py::none(),
                        "reasons"_a = plan.reasons);
      },
      py::arg("n"), py::kw_only(), py::arg("k") = 3, py::arg("memory") = uint64_t{1} << 30, py::arg("disk") = 0,
      py::arg("block_size") = 0, py::arg("codec") = "",
      R"doc(The index `simdex plan` chooses for n entries searched at distance k within the build's memory
budget and a disk budget (0: none): a dict with `choice` and `runner_up` (scheme, block_size, codec,
index_bytes, scratch_bytes, disk_bytes, memory_bytes, spills, p50_us, p50_measured, extrapolated; runner_up
None when nothing else fits) and `reasons` (the lines `simdex plan` prints). block_size / codec (0 / '':
the planner's choice) fix those. ValueError when nothing fits, naming the smallest need
(docs/benchmarks.md, "Scheme planner").)doc");
}

}  // namespace simdex::python
