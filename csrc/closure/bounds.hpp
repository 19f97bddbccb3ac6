// Lower bounds on the cards a closure needs: the same arguments as the Python reference
// (tunnels/solvers/bounds.py), each valid whatever the budget.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <vector>

namespace closure {

constexpr int kNever = 1 << 20;

// A direct-mapped cache of a bound by its exact key (never 0): one probe, a miss computes
// and overwrites the slot. The bounds are functions of their keys alone, so each kind's table
// is the thread's, kept from question to question (a small question then allocates none).
class KeyCache {
 public:
  explicit KeyCache(int kind) : slots_(table(kind)) {}

  template <typename F>
  int get(uint64_t key, F compute) {
    uint64_t h = key * 0x9E3779B97F4A7C15ULL;
    Slot& s = slots_[static_cast<size_t>(h >> (64 - kBits))];
    if (s.key != key) s = {key, compute()};
    return s.value;
  }

 private:
  struct Slot {
    uint64_t key = 0;
    int value = 0;
  };
  static constexpr int kBits = 12;
  static constexpr size_t kSize = size_t{1} << kBits;
  static std::vector<Slot>& table(int kind) {
    thread_local std::array<std::vector<Slot>, 2> tables;
    std::vector<Slot>& t = tables[static_cast<size_t>(kind)];
    if (t.empty()) t.resize(kSize);
    return t;
  }
  std::vector<Slot>& slots_;
};

// The fewest cards (classes[k] cards with k openings) whose openings add up to at least
// `exits` with its parity (min_cards_for_exits): kNever when no choice does. A card with k
// openings, m of them meeting exits, changes the exit count by k - 2m >= -k.
class ExitsBound {
 public:
  int operator()(const std::array<int, 7>& classes, int exits) {
    if (exits == 0) return 0;
    // The key holds the exits and every class exactly (capped at 127: more cards of one
    // class than that never change the answer for fewer than 127 exits; larger counts go
    // uncached), so a hit is always the answer.
    if (exits >= 127) return compute(classes, exits);
    uint64_t key = static_cast<uint64_t>(exits);
    for (int c : classes) key = key << 7 | static_cast<uint64_t>(std::min(c, 127));
    return cache_.get(key, [&] { return compute(classes, exits); });
  }

 private:
  static int compute(const std::array<int, 7>& classes, int exits) {
    // The n cards with most openings: whole classes from 6 down, the last one in part.
    std::array<int, 7> used = {0, 0, 0, 0, 0, 0, 0};
    int best = 0;
    int n = 0;
    for (int k = 6; k >= 0; --k) {
      for (int i = 0; i < classes[k]; ++i) {
        ++used[k];
        ++n;
        best += k;
        if (best < exits) continue;
        if ((best - exits) % 2 == 0) return n;
        // Swap one used card for an unused one of the other parity: the smallest loss.
        int loss = kNever;
        for (int u = 0; u < 7; ++u) {
          if (!used[u]) continue;
          for (int w = 0; w < u; ++w) {
            if (classes[w] - used[w] > 0 && ((u - w) & 1) && u - w < loss) loss = u - w;
          }
        }
        if (loss != kNever && best - loss >= exits) return n;
      }
    }
    return kNever;
  }

  KeyCache cache_{0};
};

// The fewest cards, from skews[i] cards with |a - b| = i + 1, whose signed skews add up to
// `balance` (min_cards_for_balance, the chessboard colouring): kNever when none do. A fewest
// choice takes p1, p2, p3 cards of each skew with one sign each, and none of the groups that
// add up to 0 (+3 +3 -2 -2 -2, +3 -1 -1 -1, +2 -1 -1, or with the signs turned), so p3 and
// p2 lie within balance + 6 of 0 (the argument of bounds.py).
class BalanceBound {
 public:
  int operator()(const std::array<int, 3>& skews, int balance) {
    if (balance == 0) return 0;
    if (balance >= 255) return compute(skews, balance);  // (the key caps each count at 255)
    uint64_t key = static_cast<uint64_t>(balance);
    for (int c : skews) key = key << 8 | static_cast<uint64_t>(std::min(c, 255));
    return cache_.get(key, [&] { return compute(skews, balance); });
  }

 private:
  static int compute(const std::array<int, 3>& skews, int balance) {
    const int reach = balance + 6;
    const int m3 = std::min(skews[2], reach), m2 = std::min(skews[1], reach);
    int best = kNever;
    for (int p3 = -m3; p3 <= m3; ++p3) {
      for (int p2 = -m2; p2 <= m2; ++p2) {
        const int p1 = balance - 3 * p3 - 2 * p2;
        if (std::abs(p1) > skews[0]) continue;
        best = std::min(best, std::abs(p1) + std::abs(p2) + std::abs(p3));
      }
    }
    return best;
  }

  KeyCache cache_{1};
};

}  // namespace closure
