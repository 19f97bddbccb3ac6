// Lower bounds on the cards a closure needs: the same arguments as the Python reference
// (tunnels/solvers/bounds.py), each valid whatever the budget.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace closure {

constexpr int kNever = 1 << 20;

// The fewest cards (classes[k] cards with k openings) whose openings add up to at least
// `exits` with its parity (min_cards_for_exits): kNever when no choice does. A card with k
// openings, m of them meeting exits, changes the exit count by k - 2m >= -k.
class ExitsBound {
 public:
  int operator()(const std::array<int, 7>& classes, int exits) {
    if (exits == 0) return 0;
    uint64_t key = static_cast<uint64_t>(exits);
    for (int c : classes) key = key << 7 | static_cast<uint64_t>(std::min(c, 127));
    const auto found = memo_.find(key);
    if (found != memo_.end()) return found->second;
    if (memo_.size() > (1u << 16)) memo_.clear();
    const int got = compute(classes, exits);
    memo_.emplace(key, got);
    return got;
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

  std::unordered_map<uint64_t, int> memo_;
};

// The fewest cards, from skews[i] cards with |a - b| = i + 1, whose signed skews add up to
// `balance` (min_cards_for_balance, the chessboard colouring): kNever when none do.
class BalanceBound {
 public:
  int operator()(const std::array<int, 3>& skews, int balance) {
    if (balance == 0) return 0;
    uint64_t key = static_cast<uint64_t>(balance);
    for (int c : skews) key = key << 8 | static_cast<uint64_t>(std::min(c, 255));
    const auto found = memo_.find(key);
    if (found != memo_.end()) return found->second;
    if (memo_.size() > (1u << 16)) memo_.clear();
    const int got = compute(skews, balance);
    memo_.emplace(key, got);
    return got;
  }

 private:
  static int compute(const std::array<int, 3>& skews, int balance) {
    int span = 0;
    for (int i = 0; i < 3; ++i) span += (i + 1) * skews[i];
    if (balance > span) return kNever;
    // best[v + span]: the fewest cards seen so far whose signed skews add up to v.
    std::vector<int> best(2 * span + 1, kNever);
    best[span] = 0;
    for (int i = 0; i < 3; ++i) {
      const int value = i + 1;
      for (int c = 0; c < skews[i]; ++c) {
        std::vector<int> next = best;
        for (int v = 0; v <= 2 * span; ++v) {
          if (best[v] == kNever) continue;
          for (int w : {v + value, v - value}) {
            if (w >= 0 && w <= 2 * span && next[w] > best[v] + 1) next[w] = best[v] + 1;
          }
        }
        best.swap(next);
      }
    }
    return best[balance + span];
  }

  std::unordered_map<uint64_t, int> memo_;
};

}  // namespace closure
