// The tunnel cards' geometry, as the Python engine states it (tunnels/geometry.py, table.py):
// sides N=0, E=1, S=2, W=3; a card's six ports (L, TL, TR, R, BR, BL) sit on square A's W, N, S
// sides and square B's N, E, S sides; a rotation turns every side a quarter clockwise per step
// and puts square B on side (E + rotation) of square A. An empty cell's rim value holds, in
// bits 0-3, the sides from which an opening runs into it and, in bits 4-7, the sides that touch
// a card; a square with open sides `open4` fits it when every touching side matches.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace closure {

constexpr int kSides = 4;
constexpr std::array<int, 4> kDx = {0, 1, 0, -1};
constexpr std::array<int, 4> kDy = {-1, 0, 1, 0};
constexpr int kTouchShift = 4;

// The number of sides in a 4-bit set (a table: without -mpopcnt the builtin is a library call).
constexpr std::array<int, 16> kPop4 = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
inline int pop4(int sides) { return kPop4[static_cast<size_t>(sides & 0xF)]; }

inline int opposite(int side) { return (side + 2) & 3; }

inline int turn_open(int open4, int quarters) {
  const int q = quarters & 3;
  return ((open4 << q) | (open4 >> (4 - q))) & 0xF;
}

// The edge rule (table.fits): a square with open sides `open4` may cover an empty cell whose
// rim value is `rim`.
inline bool fits(int open4, int rim) { return ((open4 ^ rim) & (rim >> kTouchShift) & 0xF) == 0; }

// How the exit count changes when a square with open sides `open4` covers a cell of rim `rim`.
inline int exit_change(int open4, int rim) {
  const int touch = rim >> kTouchShift;
  return pop4(open4 & ~touch) - pop4(rim);
}

// One way a card (a port mask) can cover a given cell t: the open sides on t, the side of t on
// which the card's other cell lies and that cell's open sides, square A's offset from t and the
// rotation as laid.
struct Shape {
  int t_open;
  int side;
  int o_open;
  int ax;
  int ay;
  int rotation;  // in quarter turns
};

// The two squares' open sides of port mask `mask` at `quarters` quarter turns.
inline std::array<int, 2> square_opens(int mask, int quarters) {
  // Ports L, TL, TR, R, BR, BL at (square, side) in the reference frame.
  constexpr std::array<std::array<int, 2>, 6> kPortPlace = {
      {{0, 3}, {0, 0}, {1, 0}, {1, 1}, {1, 2}, {0, 2}}};
  std::array<int, 2> opens = {0, 0};
  for (int i = 0; i < 6; ++i) {
    if (mask >> i & 1) {
      opens[kPortPlace[i][0]] |= 1 << ((kPortPlace[i][1] + quarters) & 3);
    }
  }
  return opens;
}

// Every distinct way a card of port mask `mask` covers one cell (geometry.shapes): as square A
// or square B, at each rotation, without repeats (a half-turn symmetric card covers the same
// cells with the same openings at two rotations).
inline std::vector<Shape> shapes_of(int mask) {
  std::vector<Shape> out;
  auto seen = [&out](int t_open, int side, int o_open) {
    for (const Shape& s : out) {
      if (s.t_open == t_open && s.side == side && s.o_open == o_open) return true;
    }
    return false;
  };
  for (int q = 0; q < 4; ++q) {
    const auto opens = square_opens(mask, q);
    const int b_side = (1 + q) & 3;  // E turned q quarters
    // t is square A: B lies on side b_side.
    if (!seen(opens[0], b_side, opens[1])) {
      out.push_back({opens[0], b_side, opens[1], 0, 0, q});
    }
    // t is square B: A lies on the opposite side.
    const int a_side = opposite(b_side);
    if (!seen(opens[1], a_side, opens[0])) {
      out.push_back({opens[1], a_side, opens[0], kDx[a_side], kDy[a_side], q});
    }
  }
  return out;
}

}  // namespace closure
