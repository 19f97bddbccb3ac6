// The compiled closure search: the question of tunnels/solvers/exact.py (can this table be
// closed with some of these cards, with how few?) answered by a fail-first depth-first search
// on one mutable board, with a memo of proven lower bounds and the same bounds as the Python
// reference. See search.cpp for the argument that makes it complete.
#pragma once

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
};

enum class Status { kClosable = 0, kImpossible = 1, kUnknown = 2 };
enum class Stop { kNone = 0, kNodes = 1, kTime = 2, kCancel = 3 };

struct Answer {
  Status status = Status::kUnknown;
  // The placements of a closure in a legal order (kClosable).
  std::vector<Laid> placements;
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

}  // namespace closure
