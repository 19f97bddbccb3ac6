// banditsolve.tunnels.solvers.closure_core: the compiled closure search for Python.
//
// The arguments are checked in Python (banditsolve.tunnels.solvers.compiled) before they get
// here; this layer converts them, releases the GIL while the search runs, and converts the
// answer back.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <pythread.h>
#include <signal.h>

#include <algorithm>
#include <array>
#include <csignal>
#include <cstdlib>
#include <optional>
#include <tuple>

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

// Ctrl-C (SIGINT) and SIGTERM while a search runs: Python runs its handlers between bytecodes
// only, so a search that holds no GIL would run on to its end. While one runs on the main
// thread, a handler of ours takes either signal (where Python's own handles it), sets the byte
// the search reads as a stop, and once the search has stopped the signal is handed on to
// Python's handler (PyErr_SetInterruptEx), which raises KeyboardInterrupt or whatever it does.
volatile std::sig_atomic_t g_signal = 0;
volatile uint8_t g_stop = 0;
unsigned long g_main_thread = 0;

extern "C" void note_signal(int signum) {
  g_signal = signum;
  g_stop = 1;
}

class SignalStop {
 public:
  SignalStop() {
    if (PyThread_get_thread_ident() != g_main_thread) return;
    g_signal = 0;
    g_stop = 0;
    for (size_t i = 0; i < kSignals.size(); ++i) {
      struct sigaction current {};
      if (sigaction(kSignals[i], nullptr, &current) != 0) continue;
      const bool plain = !(current.sa_flags & SA_SIGINFO);
      if (plain && (current.sa_handler == SIG_IGN || current.sa_handler == SIG_DFL)) continue;
      struct sigaction ours {};
      ours.sa_handler = note_signal;
      sigemptyset(&ours.sa_mask);
      if (sigaction(kSignals[i], &ours, &saved_[i]) == 0) installed_[i] = active_ = true;
    }
  }
  ~SignalStop() { restore(); }
  SignalStop(const SignalStop&) = delete;
  SignalStop& operator=(const SignalStop&) = delete;

  // The stop byte the search reads, or none (off the main thread, or no handler of Python's).
  const volatile uint8_t* flag() const { return active_ ? &g_stop : nullptr; }

  // Put Python's handlers back; the signal caught meanwhile (0: none).
  int restore() {
    for (size_t i = 0; i < kSignals.size(); ++i) {
      if (installed_[i]) sigaction(kSignals[i], &saved_[i], nullptr);
      installed_[i] = false;
    }
    const int caught = active_ ? static_cast<int>(g_signal) : 0;
    active_ = false;
    return caught;
  }

 private:
  static constexpr std::array<int, 2> kSignals = {SIGINT, SIGTERM};
  std::array<struct sigaction, 2> saved_{};
  std::array<bool, 2> installed_{};
  bool active_ = false;
};

// Hand a signal caught during a search on to Python's handler (its exception, if it raises one).
void pass_on(int signum) {
  if (!signum) return;
  PyErr_SetInterruptEx(signum);
  if (PyErr_CheckSignals() != 0) throw py::error_already_set();
}

// The map move's data (BA-CLOSE-2): the kind flags of each type, the table's cards, the
// readings as five flags (BA-OPT-1..4 and the hole's, BA-OPT-14) and the goal; checked in Python (compiled.py), and here
// again for what could make the search read out of bounds.
struct MapData {
  std::vector<int> type_kinds;
  std::vector<std::array<int, 5>> table_cards;
  std::array<int, 5> readings;
  int goal;
};

using MapTuple = std::tuple<std::vector<int>, std::vector<std::array<int, 5>>,
                            std::array<int, 5>, int>;

void set_maps(closure::Problem* problem, const MapData& maps) {
  if (maps.type_kinds.size() != problem->types.size()) {
    throw py::value_error("type_kinds must give one kind per card type");
  }
  if (maps.goal < 0 || maps.goal > 2) throw py::value_error("the goal must be 0, 1 or 2");
  std::vector<std::array<int, 2>> covered;
  for (const auto& c : maps.table_cards) {
    if (std::abs(c[0] - c[2]) + std::abs(c[1] - c[3]) != 1) {
      throw py::value_error("a table card's two cells must be neighbours");
    }
    covered.push_back({c[0], c[1]});
    covered.push_back({c[2], c[3]});
  }
  std::vector<std::array<int, 2>> cells;
  for (const auto& c : problem->cells) cells.push_back({c[0], c[1]});
  std::sort(covered.begin(), covered.end());
  std::sort(cells.begin(), cells.end());
  if (covered != cells || std::adjacent_find(cells.begin(), cells.end()) != cells.end()) {
    throw py::value_error("the table's cards must cover exactly the table's cells, once each");
  }
  closure::MapRules& m = problem->maps;
  m.on = true;
  m.type_kinds = maps.type_kinds;
  m.table_cards = maps.table_cards;
  m.removes_not_super = maps.readings[0] != 0;
  m.split_tunnels = maps.readings[1] != 0;
  m.reopen_forbidden = maps.readings[2] != 0;
  m.short_none = maps.readings[3] != 0;
  m.no_holes = maps.readings[4] != 0;
  m.goal = static_cast<closure::Goal>(maps.goal);
}

py::dict solve(const std::vector<std::array<int, 3>>& cells,
               const std::vector<std::array<int, 2>>& types,
               const std::vector<std::vector<int>>& required,
               std::optional<std::array<int, 4>> bounds, int max_cards, int first_budget,
               int64_t node_limit, double time_limit, std::optional<py::buffer> cancel,
               std::optional<MapTuple> maps) {
  closure::Problem problem;
  problem.cells = cells;
  for (const auto& t : types) problem.types.push_back({t[0], t[1]});
  problem.required = required;
  if (maps) {
    set_maps(&problem, MapData{std::get<0>(*maps), std::get<1>(*maps), std::get<2>(*maps),
                               std::get<3>(*maps)});
  }
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
  SignalStop signals;
  problem.stop = signals.flag();
  int caught = 0;
  {
    py::gil_scoped_release release;
    answer = closure::solve(problem);
    caught = signals.restore();
  }
  pass_on(caught);
  py::list placements;
  for (const auto& p : answer.placements) {
    placements.append(py::make_tuple(p.type, p.x, p.y, p.rotation));
  }
  py::list removals;
  for (const auto& r : answer.removals) {
    removals.append(py::make_tuple(r.after, py::cast(r.cards)));
  }
  py::dict out;
  out["removals"] = removals;
  const char* statuses[] = {"closable", "impossible", "unknown"};
  out["status"] = statuses[static_cast<int>(answer.status)];
  out["placements"] = placements;
  out["lower_bound"] = answer.lower_bound;
  out["never"] = answer.lower_bound >= closure::kNever;
  out["nodes"] = answer.nodes;
  out["stopped"] = caught ? "signal" : stop_name(answer.stopped);
  out["budget"] = answer.budget;
  out["memo_entries"] = answer.memo_entries;
  out["memo_bytes"] = answer.memo_bytes;
  return out;
}

std::vector<std::vector<int>> removals(const std::vector<std::array<int, 3>>& cells,
                                      const MapTuple& maps) {
  closure::Problem problem;
  problem.cells = cells;
  set_maps(&problem, MapData{std::get<0>(maps), std::get<1>(maps), std::get<2>(maps),
                             std::get<3>(maps)});
  return closure::map_removals(problem);
}

}  // namespace

PYBIND11_MODULE(closure_core, m) {
  m.doc() = "The compiled closure search of the tunnel games (see compiled.py).";
  g_main_thread = py::module_::import("threading")
                      .attr("main_thread")()
                      .attr("ident")
                      .cast<unsigned long>();
  m.def("solve", &solve, py::arg("cells"), py::arg("types"), py::arg("required"),
        py::arg("bounds"), py::arg("max_cards"), py::arg("first_budget"),
        py::arg("node_limit"), py::arg("time_limit"), py::arg("cancel"),
        py::arg("maps") = py::none());
  m.def("removals", &removals, py::arg("cells"), py::arg("maps"));
  m.attr("NEVER") = closure::kNever;
}
