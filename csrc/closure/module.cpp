// banditsolve.tunnels.solvers.closure_core: the compiled closure search for Python.
//
// The arguments are checked in Python (banditsolve.tunnels.solvers.compiled) before they get
// here; this layer converts them, releases the GIL while the search runs, and converts the
// answer back.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>

#include "search.hpp"

namespace py = pybind11;

namespace {

const char* stop_name(closure::Stop stop) {
  switch (stop) {
    case closure::Stop::kNodes:
      return "nodes";
    case closure::Stop::kTime:
      return "time";
    case closure::Stop::kCancel:
      return "cancel";
    default:
      return "";
  }
}

py::dict solve(const std::vector<std::array<int, 3>>& cells,
               const std::vector<std::array<int, 2>>& types,
               const std::vector<std::vector<int>>& required,
               std::optional<std::array<int, 4>> bounds, int max_cards, int first_budget,
               int64_t node_limit, double time_limit, std::optional<py::buffer> cancel) {
  closure::Problem problem;
  problem.cells = cells;
  for (const auto& t : types) problem.types.push_back({t[0], t[1]});
  problem.required = required;
  if (bounds) {
    problem.bounded = true;
    problem.min_x = (*bounds)[0];
    problem.min_y = (*bounds)[1];
    problem.max_x = (*bounds)[2];
    problem.max_y = (*bounds)[3];
  }
  problem.max_cards = max_cards;
  problem.first_budget = first_budget;
  problem.node_limit = node_limit;
  problem.time_limit = time_limit;
  std::optional<py::buffer_info> flag;
  if (cancel) {
    flag.emplace(cancel->request(true));
    if (flag->size < 1) throw py::value_error("the cancel flag must hold at least one byte");
    problem.cancel = static_cast<const volatile uint8_t*>(flag->ptr);
  }
  closure::Answer answer;
  {
    py::gil_scoped_release release;
    answer = closure::solve(problem);
  }
  py::list placements;
  for (const auto& p : answer.placements) {
    placements.append(py::make_tuple(p.type, p.x, p.y, p.rotation));
  }
  py::dict out;
  const char* statuses[] = {"closable", "impossible", "unknown"};
  out["status"] = statuses[static_cast<int>(answer.status)];
  out["placements"] = placements;
  out["lower_bound"] = answer.lower_bound;
  out["never"] = answer.lower_bound >= closure::kNever;
  out["nodes"] = answer.nodes;
  out["stopped"] = stop_name(answer.stopped);
  out["budget"] = answer.budget;
  out["memo_entries"] = answer.memo_entries;
  out["memo_bytes"] = answer.memo_bytes;
  return out;
}

}  // namespace

PYBIND11_MODULE(closure_core, m) {
  m.doc() = "The compiled closure search of the tunnel games (see compiled.py).";
  m.def("solve", &solve, py::arg("cells"), py::arg("types"), py::arg("required"),
        py::arg("bounds"), py::arg("max_cards"), py::arg("first_budget"),
        py::arg("node_limit"), py::arg("time_limit"), py::arg("cancel"));
  m.attr("NEVER") = closure::kNever;
}
