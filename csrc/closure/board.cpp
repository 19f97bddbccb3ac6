// The compiled closure search's board: built from the problem, cards laid and lifted, the rim
// values, the front and the memo's key kept as cards come and go (see engine.hpp).
#include "engine.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <utility>

namespace closure {
namespace engine {

void Search::build() {
  const Problem& p = problem_;
  int lo_x = 0, lo_y = 0, hi_x = 0, hi_y = 0;
  bool first = true;
  for (const auto& c : p.cells) {
    if (first) {
      lo_x = hi_x = c[0];
      lo_y = hi_y = c[1];
      first = false;
    }
    lo_x = std::min(lo_x, c[0]);
    hi_x = std::max(hi_x, c[0]);
    lo_y = std::min(lo_y, c[1]);
    hi_y = std::max(hi_y, c[1]);
  }
  // A card laid in a legal order touches the table or an earlier card: with at most
  // max_cards cards every covered cell lies within 2 * max_cards cells of the table. Two more
  // rows of cells hold the rims and a border that is never covered.
  const int margin = 2 * p.max_cards + 3;
  x0_ = lo_x - margin;
  y0_ = lo_y - margin;
  width_ = hi_x - lo_x + 1 + 2 * margin;
  height_ = hi_y - lo_y + 1 + 2 * margin;
  const size_t n = static_cast<size_t>(width_) * static_cast<size_t>(height_);
  occ_.assign(n, 0);
  rim_.assign(n, 0);
  blocked_.assign(n, 0);
  front_pos_.assign(n, -1);
  block_cells();
  for (const auto& c : p.cells) occ_[idx(c[0], c[1])] = kOccupied | static_cast<uint8_t>(c[2]);
  for (const auto& c : p.cells) {
    const int here = idx(c[0], c[1]);
    for (int side = 0; side < kSides; ++side) {
      const int nb = here + kDx[side] + kDy[side] * width_;
      if (occ_[nb]) continue;
      const int from = opposite(side);
      uint8_t v = rim_[nb] | static_cast<uint8_t>(1 << (from + kTouchShift));
      if (c[2] >> side & 1) v |= static_cast<uint8_t>(1 << from);
      set_rim(nb, v);
    }
  }
  undo_.clear();
  scratch_.resize(static_cast<size_t>(std::max(p.max_cards, 0)) + 2);
  zone_count_.assign(n, 0);
  zone_owner_.assign(n, {-1, -1, -1});
  build_types();
  if (p.maps.on) build_maps();
}

// The cells never covered: the grid's border, and the cells outside the play area.
void Search::block_cells() {
  const Problem& p = problem_;
  for (int y = 0; y < height_; ++y) {
    for (int x = 0; x < width_; ++x) {
      const int cx = x + x0_, cy = y + y0_;
      const bool border = x == 0 || y == 0 || x == width_ - 1 || y == height_ - 1;
      const bool outside = p.bounded && (cx < p.min_x || cx > p.max_x || cy < p.min_y ||
                                         cy > p.max_y);
      if (border || outside) blocked_[static_cast<size_t>(y) * width_ + x] = 1;
    }
  }
}

namespace {

// By port mask (six bits): the shapes of shapes_of(mask) whose square on the cell fits each rim
// value, as bits; worked out once for every mask (a question's types read their rows).
const std::array<std::array<uint8_t, 256>, 64>& fit_by_mask() {
  static const auto table = [] {
    std::array<std::array<uint8_t, 256>, 64> out{};
    for (int mask = 0; mask < 64; ++mask) {
      const std::vector<Shape> shapes = shapes_of(mask);
      for (int rim = 0; rim < 256; ++rim) {
        for (size_t i = 0; i < shapes.size(); ++i) {
          if (fits(shapes[i].t_open, rim)) {
            out[static_cast<size_t>(mask)][static_cast<size_t>(rim)] |= static_cast<uint8_t>(1u << i);
          }
        }
      }
    }
    return out;
  }();
  return table;
}

}  // namespace

// The card types: their shapes, which fit each rim value, the counts and the bounds' classes.
void Search::build_types() {
  const Problem& p = problem_;
  const size_t types = p.types.size();
  few_types_ = types <= 64;
  shapes_.resize(types);
  left_.resize(types);
  laid_.assign(types, 0);
  removed_.assign(types, 0);
  openings_.resize(types);
  skew_of_.resize(types);
  for (size_t k = 0; k < types; ++k) {
    const int mask = p.types[k].mask;
    shapes_[k] = shapes_of(mask);
    // (shapes_of reads the six port bits alone.)
    fit_t_.push_back(fit_by_mask()[static_cast<size_t>(mask & 63)]);
    for (int rim = 0; rim < 256 && k < 64; ++rim) {
      if (fit_t_[k][static_cast<size_t>(rim)]) {
        fit_types_[static_cast<size_t>(rim)] |= uint64_t{1} << k;
      }
    }
    left_[k] = p.types[k].count;
    if (left_[k] > 0 && k < 64) types_left_mask_ |= uint64_t{1} << k;
    openings_[k] = __builtin_popcount(mask);
    skew_of_[k] = std::abs(__builtin_popcount(mask & kSquareAPorts) -
                           __builtin_popcount(mask & kSquareBPorts));
    classes_[openings_[k]] += left_[k];
    if (skew_of_[k]) skews_[skew_of_[k] - 1] += left_[k];
  }
}

// Set an empty cell's rim value (logged, to be undone by rewind) and its part of the key,
// keeping the front, the exit count and the colour balance.
void Search::set_rim(int c, uint8_t value) {
  const uint8_t old = rim_[c];
  undo_.push_back({c, old});
  const uint64_t at = kRimPart | static_cast<uint64_t>(c) << 8;
  if (old) toggle(at | old);
  if (value) toggle(at | value);
  assign_rim(c, value);
}

// The rim value without the key (set_rim keys it; rewind restores the key whole).
void Search::assign_rim(int c, uint8_t value) {
  const uint8_t old = rim_[c];
  rim_[c] = value;
  const int before = pop4(old);
  const int after = pop4(value);
  if (before == after) return;
  const int x = c % width_ + x0_, y = c / width_ + y0_;
  const int sign = ((x + y) & 1) ? -1 : 1;
  exits_ += after - before;
  balance_ += sign * (after - before);
  if (!before) {
    front_pos_[c] = static_cast<int>(front_.size());
    front_.push_back(c);
  } else if (!after) {
    const int at = front_pos_[c];
    const int last = front_.back();
    front_[at] = last;
    front_pos_[last] = at;
    front_.pop_back();
    front_pos_[c] = -1;
  }
}

// The memo's key is the node's state, not the cards that made it: the occupied cells, the rim
// value of every empty cell next to a card (which sides touch a card, which carry an opening
// into it) and the cards laid of each type. Everything a closure from the node depends on is
// there (where cards fit, which exits are open, which cards are left, which required groups are
// met), so two nodes with equal keys need the same number of cards, however their cards were
// laid out inside. Each part enters as a hash XORed in and out as it changes (two hashes, the
// second the first times an odd constant, which XOR does not carry over: 96 bits are compared);
// lift and put_back restore the key their mark saved (rewind).
void Search::toggle(uint64_t part) {
  const uint64_t h = mix(part);
  key_a_ ^= h;
  key_b_ ^= h * kKeyB;
}

// Where the board is now, for rewind: the undo log's length and the key.
Search::Mark Search::mark() const { return {undo_.size(), key_a_, key_b_}; }

// Back to `m`: the rims logged since undone, and the key as it was (every part toggled since
// is back, so it is restored whole rather than toggled part by part).
void Search::rewind(const Mark& m) {
  while (undo_.size() > m.undo) {
    const Undo u = undo_.back();
    undo_.pop_back();
    assign_rim(u.cell, u.rim);
  }
  key_a_ = m.key_a;
  key_b_ = m.key_b;
}

Search::Mark Search::lay(int type, int t, const Shape& s) {
  const Mark before = mark();
  const int o = t + kDx[s.side] + kDy[s.side] * width_;
  const int opens[2] = {s.t_open, s.o_open};
  const int squares[2] = {t, o};
  for (int i = 0; i < 2; ++i) {
    set_rim(squares[i], 0);
    occ_[squares[i]] = kOccupied | static_cast<uint8_t>(opens[i]);
    toggle(kOccPart | static_cast<uint64_t>(squares[i]));
  }
  for (int i = 0; i < 2; ++i) {
    const int here = squares[i];
    for (int side = 0; side < kSides; ++side) {
      const int nb = here + kDx[side] + kDy[side] * width_;
      if (occ_[nb]) continue;
      const int from = opposite(side);
      uint8_t v = rim_[nb] | static_cast<uint8_t>(1 << (from + kTouchShift));
      if (opens[i] >> side & 1) v |= static_cast<uint8_t>(1 << from);
      set_rim(nb, v);
    }
  }
  if (--left_[type] == 0 && type < 64) types_left_mask_ &= ~(uint64_t{1} << type);
  ++laid_[type];
  --classes_[openings_[type]];
  if (skew_of_[type]) --skews_[skew_of_[type] - 1];
  toggle(kTypePart | static_cast<uint64_t>(type) << 16 | static_cast<uint64_t>(laid_[type]));
  toggle(kTypePart | static_cast<uint64_t>(type) << 16 | static_cast<uint64_t>(laid_[type] - 1));
  if (maps_on_) add_card(type, t, o);
  memo_.prefetch(key_a_);
  path_.push_back({type, t % width_ + x0_ + s.ax, t / width_ + y0_ + s.ay, s.rotation});
  return before;
}

void Search::lift(int type, int t, const Shape& s, const Mark& before) {
  const int o = t + kDx[s.side] + kDy[s.side] * width_;
  path_.pop_back();
  if (maps_on_) drop_card();
  if (++left_[type] == 1 && type < 64) types_left_mask_ |= uint64_t{1} << type;
  --laid_[type];
  ++classes_[openings_[type]];
  if (skew_of_[type]) ++skews_[skew_of_[type] - 1];
  occ_[t] = 0;
  occ_[o] = 0;
  rewind(before);
}

}  // namespace engine
}  // namespace closure
