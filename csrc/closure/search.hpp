// The compiled closure search: the question of tunnels/solvers/exact.py (can this table be
// closed with some of these cards, with how few?) answered by a fail-first depth-first search
// on one mutable board, with a memo of proven lower bounds and the same bounds as the Python
// reference. See search.cpp for the argument that makes it complete.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <vector>

#include "bounds.hpp"
#include "geometry.hpp"

namespace closure {

// A card type: its port mask and how many cards of it may be laid.
struct CardType {
  int mask;
  int count;
};

// A placement found: the card type (an index into the types), square A's cell, the rotation in
// quarter turns.
struct Laid {
  int type;
  int x;
  int y;
  int rotation;
};

// A card's kind, as bit flags (the map move and the goals need them; see maps.cpp).
constexpr int kKindLadder = 1;        // the ladder
constexpr int kKindBandidoSuper = 2;  // Bandido's super card (mode 3): never taken off
constexpr int kKindMap = 4;           // a map card
constexpr int kKindSuperMask = 8;     // a super card's port set (a second super card, BA-MODE-4)

// The goals (BA-CLOSE-1).
enum class Goal { kClose = 0, kLadder = 1, kJoin = 2 };

// Bandida's map cards (BA-CLOSE-2), as plain data checked in Python: with `on`, the types whose
// kind has kKindMap are map cards, and the search lays them with every removal the reading
// allows (BA-OPT-1..4: map_removes=not_super, map_split=tunnels, map_reopen=forbidden,
// map_short=none when the flag is set, each option's default otherwise). With `no_holes`
// (BA-OPT-14 `illegal` or `loses_at_once`) no line lays a card that walls an exit into a
// one-cell hole: such a card is not offered, or loses at once.
struct MapRules {
  bool on = false;
  bool removes_not_super = false;
  bool split_tunnels = false;
  bool reopen_forbidden = false;
  bool short_none = false;
  bool no_holes = false;
  Goal goal = Goal::kClose;
  // By type: its kind flags.
  std::vector<int> type_kinds;
  // The table's cards in the order laid (the start card first): square A's cell, square B's
  // cell, the kind flags. Together they cover exactly the table's cells.
  std::vector<std::array<int, 5>> table_cards;
};

// The question, as plain data (checked in Python before it gets here).
struct Problem {
  // The occupied cells of the table: (x, y, open sides).
  std::vector<std::array<int, 3>> cells;
  std::vector<CardType> types;
  // Groups of type indices of which at least one card must be laid (a Bandida goal).
  std::vector<std::vector<int>> required;
  // The play area (inclusive), or none.
  bool bounded = false;
  int min_x = 0, min_y = 0, max_x = 0, max_y = 0;
  // The most cards a closure may use.
  int max_cards = 0;
  // The first budget to try (a lower bound proven elsewhere, at least 0).
  int first_budget = 0;
  // Limits: nodes (0: none), wall-clock seconds (<= 0: none).
  int64_t node_limit = 0;
  double time_limit = 0.0;
  // Set (from another thread or process) to stop the search: it then answers unknown.
  const volatile uint8_t* cancel = nullptr;
  // Set by a signal handler (Ctrl-C, SIGTERM; see module.cpp): a stop as the cancel flag's.
  const volatile uint8_t* stop = nullptr;
  MapRules maps;
};

// A map's removal in a closure: after placement `after` (counted from 1), the cards `cards`
// taken off, each named by its index among the table's cards, or (from the number of table
// cards on) the number of table cards plus its index among the placements.
struct Removed {
  int after;
  std::vector<int> cards;
};

enum class Status { kClosable = 0, kImpossible = 1, kUnknown = 2 };
enum class Stop { kNone = 0, kNodes = 1, kTime = 2, kCancel = 3 };

struct Answer {
  Status status = Status::kUnknown;
  // The placements of a closure in a legal order (kClosable).
  std::vector<Laid> placements;
  // The removals of a closure that lays maps (kClosable).
  std::vector<Removed> removals;
  // A proven lower bound on the cards any closure needs (kImpossible: above max_cards, or
  // kNever when no closure exists at all; kUnknown: the bound reached).
  int lower_bound = 0;
  int64_t nodes = 0;
  Stop stopped = Stop::kNone;
  // The budget the search was at when it stopped (kUnknown).
  int budget = 0;
  // Peak entries in the memo, and its size in bytes at the end.
  int64_t memo_entries = 0;
  int64_t memo_bytes = 0;
};

// Answer the question; the caller releases the GIL around it.
Answer solve(const Problem& problem);

// The removals a map allows on the problem's table, its last card the map just laid (each a
// sorted list of the table cards' indices, in the order the search tries them): for the tests,
// which compare them with the Python rules.
std::vector<std::vector<int>> map_removals(const Problem& problem);

}  // namespace closure
