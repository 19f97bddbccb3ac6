// The compiled closure search (see search.hpp).
//
// Why it is complete (the argument of tunnels/solvers/exact.py, with a coarser memo key):
// - every front cell (an empty cell an exit runs into) is covered by some card of any closure,
//   and that card is legal now: its cells are empty, its edges that touch cards now meet them
//   as they do at the end, and it joins the exit into the front cell. So it may be laid first,
//   and trying every way to cover ONE front cell (the one with the fewest ways) is exhaustive;
// - a front cell with no way to be covered now never gets one (cells only fill up, cards only
//   run out): such a node can never close;
// - every node returns a proven lower bound on the cards any closure from it needs: the largest
//   of its counting bounds, or one more than the smallest bound of its children; the memo keeps
//   that bound per state (the occupied cells, the rim, the cards laid per type: see toggle),
//   which fixes every closure's future, so a larger budget, or another way to the same state,
//   skips every node already known to need more. (A bound also holds with fewer cards left,
//   but a dominance check on the cards left would never fire: the same occupied cells mean the
//   same number of cards laid from the one multiset, so cards left of which one lies within
//   the other are equal.)
#include <algorithm>
#include <chrono>

#include "engine.hpp"

namespace closure {
namespace engine {

// The cancel flag and the clock, read now (the map move's nodes cost more than the others):
// false once either says stop.
bool Search::clock_ok() {
  if (cancelled()) {
    stopped_ = Stop::kCancel;
    return false;
  }
  if (problem_.time_limit > 0 && std::chrono::steady_clock::now() > deadline_) {
    stopped_ = Stop::kTime;
    return false;
  }
  return true;
}

// Whether the cancel flag or a signal (Problem::stop) says stop.
bool Search::cancelled() const {
  return (problem_.cancel != nullptr && *problem_.cancel) ||
         (problem_.stop != nullptr && *problem_.stop);
}

// Count a node; false once a limit has run out.
bool Search::tick() {
  // (A node past the limit is not searched, so not counted: a search it stops reports the limit.)
  if (problem_.node_limit > 0 && nodes_ >= problem_.node_limit) {
    stopped_ = Stop::kNodes;
    return false;
  }
  ++nodes_;
  if ((nodes_ & 1023) == 0) {
    if (cancelled()) {
      stopped_ = Stop::kCancel;
      return false;
    }
    if (problem_.time_limit > 0) {
      const auto now = std::chrono::steady_clock::now();
      if (now > deadline_) {
        stopped_ = Stop::kTime;
        return false;
      }
      // Keep the time limit: no table growth that would run past it (a full table is
      // overwritten instead, which is always sound).
      if (std::chrono::duration<double>(deadline_ - now).count() < memo_.grow_seconds()) {
        memo_.freeze();
      }
    }
  }
  return true;
}

// A closed table takes no more cards: the goal reached, or never.
int Search::closed() const {
  if (maps_on_) return goal_met() ? kFound : kNever;
  // Without a required card it never reaches the goal.
  return (!problem_.required.empty() && missing()) ? kNever : kFound;
}

// Search the node with `budget` cards left: kFound (the closure in path_), or a proven lower
// bound above the budget on the cards any closure from here needs, or kStopped.
int Search::dfs(int budget) {
  if (!tick()) return kStopped;
  if (front_.empty()) return closed();
  // A map left: the map move's node (maps.cpp), whose bounds hold for lines that lay maps.
  if (maps_left_ > 0) return map_node(budget);
  // The counting bounds first: cheap, and a node they rule out needs no memo (they would
  // rule it out again). (Nodes one card from the budget's end are cheaper to search again
  // than to look up.)
  const int low = counting_bound();
  if (low > budget) return low;
  return branch(budget, low, budget >= kMemoBudget);
}

// The node past its counting bounds (low: the bound proven so far): every front cell's
// options, the covering bound, the memo (when `memo`), then the cell with the fewest options
// covered in every way (or the tight case's).
int Search::branch(int budget, int low, bool memo) {
  // Every front cell's options; the cell with the fewest is the one branched on. (Buffers per
  // depth, sized once in build(): no allocation per node.)
  const size_t n = front_.size();
  Scratch& sc = scratch_[path_.size()];
  std::vector<int>& pair_sides = sc.pair_sides;
  std::vector<Option>& best = sc.best;
  best.clear();
  int best_cell = scan_front(&pair_sides);
  if (best_cell < 0) return kNever;
  int cover = 1;
  if (n > 1) {
    cover = cover_bound(pair_sides);
    low = std::max(low, cover);
    if (low > budget) return low;
  }
  // Only now the memo (a random probe, and a slot per node kept): a front cell with no option
  // and the covering bound are found again from the node alone, sooner than a probe that
  // misses the cache, so nodes they cut are neither looked up nor kept (measured: 10-15 % less
  // CPU time on the regression positions, the same nodes).
  const int known = memo ? memo_.get(key_a_, key_b_) : 0;
  if (known > budget) return known;
  low = std::max(low, known);
  int result = kNever;
  best_cell = branch_options(budget, cover, best_cell, pair_sides, &best, &result);
  if (best_cell < 0) {
    if (memo) memo_.put(key_a_, key_b_, budget + 1);
    return budget + 1;
  }
  order_by_exits(best_cell, &best);
  for (const Option& option : best) {
    const Shape& s = shapes_[static_cast<size_t>(option.type)][static_cast<size_t>(option.shape)];
    const Mark mark = lay(option.type, best_cell, s);
    const int found = dfs(budget - 1);
    if (found == kFound) return kFound;
    lift(option.type, best_cell, s, mark);
    if (found == kStopped) return kStopped;
    result = std::min(result, found + 1);
  }
  result = std::max({result, low, budget + 1});
  if (memo) memo_.put(key_a_, key_b_, result);
  return result;
}

// The options the node branches on (in *best) and the cell they cover, or -1 when a front cell
// has none that a closure within the budget may lay. *result: kNever, or budget + 1 when
// options were dropped that may serve a larger budget (the bound proven is then at most that).
int Search::branch_options(int budget, int cover, int best_cell,
                           const std::vector<int>& pair_sides, std::vector<Option>* best,
                           int* result) {
  const int spare = budget - cover;
  if (spare == 0) {
    // Tight: every card still laid covers a front cell (see tight_options).
    *result = budget + 1;
    return tight_options(pair_sides, best);
  }
  if (front_.size() > 1 && spare <= kSpareFilter) {
    // Cards to spare: at most `spare` cards still laid cover no front cell (spare_options).
    if (spare_options(best_cell, spare, pair_sides, best)) *result = budget + 1;
    return best_cell;
  }
  options_at(best_cell, best, nullptr);
  return best_cell;
}

// Every front cell's option count (through the cache) and pair sides: the cell with the fewest
// options, or -1 when one has none.
int Search::scan_front(std::vector<int>* pair_sides) {
  const size_t n = front_.size();
  pair_sides->assign(n, 0);
  int best_cell = -1;
  int best_count = 0;
  for (size_t i = 0; i < n; ++i) {
    const int t = front_[i];
    const int count = count_at(t, &(*pair_sides)[i]);
    if (!count) return -1;
    if (best_cell < 0 || count < best_count) {
      best_count = count;
      best_cell = t;
    }
  }
  return best_cell;
}

Answer Search::run() {
  const Problem& p = problem_;
  Answer answer;
  if (p.time_limit > 0) {
    deadline_ = std::chrono::steady_clock::now() +
                std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                    std::chrono::duration<double>(p.time_limit));
  }
  if (!maps_on_) {
    deepen(&answer);
  } else {
    // The map move deepens the plain cards a line may lay while a map is left (see maps.cpp):
    // only the last level, with as many as the budget, holds every line and may say
    // impossible; each level keeps the memo's bounds of the nodes with no map left.
    for (int cap = 0;; ++cap) {
      pre_left_ = cap;
      deepen(&answer);
      if (answer.status != Status::kImpossible || cap >= p.max_cards) break;
    }
  }
  answer.nodes = nodes_;
  answer.memo_entries = memo_.entries();
  answer.memo_bytes = static_cast<int64_t>(memo_.bytes());
  return answer;
}

// Iterative deepening on the budget, from the first one to the most cards.
void Search::deepen(Answer* out) {
  const Problem& p = problem_;
  Answer& answer = *out;
  int budget = std::max(p.first_budget, 0);
  for (;;) {
    if (budget > p.max_cards) {
      answer.status = Status::kImpossible;
      answer.lower_bound = budget;
      break;
    }
    const int got = dfs(budget);
    if (got == kFound) {
      answer.status = Status::kClosable;
      answer.placements = path_;
      answer.removals = removal_log_;
      answer.lower_bound = static_cast<int>(path_.size());
      break;
    }
    if (got == kStopped) {
      answer.status = Status::kUnknown;
      answer.lower_bound = budget;
      answer.stopped = stopped_;
      break;
    }
    if (got >= kNever) {
      answer.status = Status::kImpossible;
      answer.lower_bound = kNever;
      break;
    }
    budget = std::max(budget + 1, got);
  }
  answer.budget = budget;
}

}  // namespace engine

Answer solve(const Problem& problem) {
  engine::Search search(problem);
  return search.run();
}

std::vector<std::vector<int>> map_removals(const Problem& problem) {
  engine::Search search(problem);
  return search.removals_now();
}

}  // namespace closure
