// Placement generation and the bounds of the compiled closure search: the ways to cover a
// front cell, their counts, the counting, covering and tight bounds (see engine.hpp).
#include "engine.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <utility>

namespace closure {
namespace engine {

namespace {

// The set bits of x, without the library call that __builtin_popcountll becomes when the
// target's baseline has no popcount instruction (the wheel's does not).
inline int bit_count(uint64_t x) {
  x -= (x >> 1) & 0x5555555555555555ULL;
  x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
  return static_cast<int>((x * 0x0101010101010101ULL) >> 56);
}

}  // namespace

// How many required groups no card laid belongs to.
int Search::missing() const {
  int out = 0;
  for (const auto& group : problem_.required) {
    bool met = false;
    for (int k : group) {
      // (A card taken off by a map no longer counts: removed_ is 0 without maps.)
      met = met || laid_[static_cast<size_t>(k)] > removed_[static_cast<size_t>(k)];
    }
    out += met ? 0 : 1;
  }
  return out;
}

// The node's counting bounds: half its front cells, its exits with their parity, its colour
// balance, its required groups (one card each); kNever when the cards left never suffice.
int Search::counting_bound() {
  int low = (static_cast<int>(front_.size()) + 1) / 2;
  if (!problem_.required.empty()) low = std::max(low, missing());
  const int need = exits_bound_(classes_, exits_);
  if (need >= kNever) return kNever;
  low = std::max(low, need);
  if (balance_) {
    const int skew = balance_bound_(skews_, balance_ > 0 ? balance_ : -balance_);
    if (skew >= kNever) return kNever;
    low = std::max(low, skew);
  }
  return low;
}

// The ways to cover front cell t now (each a card type and a shape), and the sides on which
// such a card covers a neighbour too. False when t can never be covered.
bool Search::options_at(int t, std::vector<Option>* out, int* pair_sides) const {
  out->clear();
  int sides = 0;
  if (blocked_[static_cast<size_t>(t)]) return false;
  each_fit(t, [&](size_t k, int i, const Shape& s) {
    out->push_back({static_cast<int>(k), i});
    sides |= 1 << s.side;
  });
  if (pair_sides != nullptr) *pair_sides = sides;
  return !out->empty();
}

// How many options front cell t has (options_at without the list), and their pair sides.
// With at most 64 types, through a table keyed by the cell's geometry alone (its rim value and
// its four neighbours' rim values, or that they are taken), which holds, for every type with
// or without cards left, how many shapes of it fit there (in four bit planes) and on which
// sides they pair: the count is then a few popcounts of those planes with the types left.
// (Measured on regression position 4: a key with the types left in it was met again at 10 % of
// a node's front cells, since nearly every card laid is its type's last, the geometry alone at
// 57 %; the table's slots are refilled at 0.14 % of the calls.)
int Search::count_at(int t, int* pair_sides) {
  if (blocked_[static_cast<size_t>(t)]) return 0;
  if (!few_types_) return count_options(t, pair_sides);
  const uint8_t rim_t = rim_[static_cast<size_t>(t)];
  uint64_t sig = rim_t;
  for (int side = 0; side < kSides; ++side) {
    const size_t nb = static_cast<size_t>(t + kDx[side] + kDy[side] * width_);
    const uint64_t v = (occ_[nb] || blocked_[nb]) ? 0x100 : rim_[nb];
    sig = sig << 9 | v;
  }
  sig |= geo_tag_ | uint64_t{1} << 63;  // never 0: an empty slot holds 0
  GeoSlot& g = geo_cache_[(mix(sig) >> 40) & (kGeoCache - 1)];
  if (g.sig != sig) fill_geo(t, sig, &g);
  const uint64_t left = types_left_mask_;
  int count = bit_count(g.planes[0] & left);
  if (g.planes[1] | g.planes[2] | g.planes[3]) {
    count += 2 * bit_count(g.planes[1] & left) + 4 * bit_count(g.planes[2] & left) +
             8 * bit_count(g.planes[3] & left);
  }
  int sides = 0;
  for (int side = 0; side < kSides; ++side) {
    if (g.sides[side] & left) sides |= 1 << side;
  }
  *pair_sides = sides;
  return count;
}

// count_at's table: the thread's own, kept from question to question, since a fresh one costs a
// small question more than its search (zeroing 590 KB of new pages: measured, a third of a
// 5-card question's time in the core). Each question takes a tag of its own (16 bits, in the
// keys' bits 47-62, above the geometry's 44), so no slot another question filled ever matches;
// when the tags wrap around, the table is cleared.
Search::GeoSlot* Search::geo_table() {
  thread_local std::vector<GeoSlot> slots;
  thread_local uint64_t tag = 0;
  if (slots.empty()) slots.resize(kGeoCache);
  tag = (tag + 1) & 0xFFFF;
  if (tag == 0) {
    std::fill(slots.begin(), slots.end(), GeoSlot{});
    tag = 1;
  }
  geo_tag_ = tag << 47;
  return slots.data();
}

// The geometry slot of empty cell t (key sig): every type's fitting shapes there, whether its
// cards are left or not (see count_at).
void Search::fill_geo(int t, uint64_t sig, GeoSlot* g) const {
  *g = GeoSlot{};
  g->sig = sig;
  const int rim_t = rim_[static_cast<size_t>(t)];
  for (uint64_t ks = fit_types_[static_cast<size_t>(rim_t)]; ks; ks &= ks - 1) {
    const size_t k = static_cast<size_t>(__builtin_ctzll(ks));
    const uint64_t bit = uint64_t{1} << k;
    unsigned n = 0;
    for (unsigned bits = fit_t_[k][static_cast<size_t>(rim_t)]; bits; bits &= bits - 1) {
      const Shape& s = shapes_[k][static_cast<size_t>(__builtin_ctz(bits))];
      if (!other_fits(t, s)) continue;
      ++n;
      g->sides[s.side] |= bit;
    }
    for (int plane = 0; plane < 4; ++plane) {
      if (n >> plane & 1) g->planes[plane] |= bit;
    }
  }
}

int Search::count_options(int t, int* pair_sides) const {
  int count = 0;
  int sides = 0;
  each_fit(t, [&](size_t, int, const Shape& s) {
    ++count;
    sides |= 1 << s.side;
  });
  *pair_sides = sides;
  return count;
}

// The fewest cards covering every front cell: front cells less a maximum matching of the
// pairs one card can cover (adjacent front cells, the pair sides); the graph is bipartite by
// the colour of x + y, so augmenting paths from the even cells find it.
int Search::cover_bound(const std::vector<int>& pair_sides) {
  const int n = static_cast<int>(front_.size());
  if (n <= 1) return n;
  std::vector<std::array<int, 4>>& adj = cover_adj_;
  std::vector<int>& degree = cover_degree_;
  adj.assign(static_cast<size_t>(n), {-1, -1, -1, -1});
  degree.assign(static_cast<size_t>(n), 0);
  bool any = false;
  for (int i = 0; i < n; ++i) {
    const int c = front_[static_cast<size_t>(i)];
    const int x = c % width_ + x0_, y = c / width_ + y0_;
    if ((x + y) & 1) continue;
    for (int side = 0; side < kSides; ++side) {
      if (!(pair_sides[static_cast<size_t>(i)] >> side & 1)) continue;
      const int nb = c + kDx[side] + kDy[side] * width_;
      const int j = front_pos_[nb];
      if (j >= 0) {
        adj[static_cast<size_t>(i)][static_cast<size_t>(degree[static_cast<size_t>(i)]++)] = j;
        any = true;
      }
    }
  }
  if (!any) return n;
  std::vector<int>& match = cover_match_;
  std::vector<int>& seen = cover_seen_;
  match.assign(static_cast<size_t>(n), -1);
  seen.assign(static_cast<size_t>(n), -1);
  int matched = 0;
  for (int i = 0; i < n; ++i) {
    if (degree[static_cast<size_t>(i)] && augment(i, i)) ++matched;
  }
  return n - matched;
}

// The tight case: the cover bound equals the budget, so every card of a closure within the
// budget covers a front cell (on it and, when it covers two, on a neighbour on one of its pair
// sides). An opening of a card onto a cell n empty when it is laid faces a later card of the
// closure, which covers a front cell v other than the two cells of this card, so n is in v's
// zone (v, or v's neighbour on one of v's pair sides). A front cell none of whose options
// opens only onto occupied cells or the zones of other front cells has no closure within the
// budget. Returns the front cell with the fewest options left (in *best), or -1 when a front
// cell has none.
int Search::tight_options(const std::vector<int>& pair_sides, std::vector<Option>* best) {
  mark_zones(pair_sides);
  int best_cell = -1;
  for (const int t : front_) {
    // (A cell whose kept options reach the best one's number is not taken, so counting stops
    // there; the best one has at least one, so a cell stopped there is not a dead one.)
    const size_t limit = best_cell < 0 ? SIZE_MAX : best->size();
    const int kept = kept_options(t, limit);
    if (kept == 0) {
      best_cell = -1;
      break;
    }
    if (best_cell < 0 || static_cast<size_t>(kept) < best->size()) {
      best->swap(options_);
      best_cell = t;
    }
  }
  clear_zones();
  return best_cell;
}

// Front cell t's options when the budget is the cover bound plus `spare` cards (in *best). At
// most `spare` cards of a closure within the budget cover no front cell now (the others cover
// at least the cover bound's number of front cells), and an opening of a card onto a cell empty
// when it is laid faces a later card (see tight_options): one covering a front cell whose zone
// holds that cell, or one of the spare cards. So an option whose openings meet more empty cells
// outside the other front cells' zones than `spare` cards can cover (two each; with one card,
// two side by side) has no closure within the budget. Only the branching cell's options are
// filtered: filtering every cell's found 45 % fewer nodes but cost more than it saved. True when
// an option was dropped.
bool Search::spare_options(int t, int spare, const std::vector<int>& pair_sides,
                           std::vector<Option>* best) {
  mark_zones(pair_sides);
  options_at(t, best, nullptr);
  OpenOk ok;
  size_t kept = 0;
  for (const Option& o : *best) {
    const Shape& s = shapes_[static_cast<size_t>(o.type)][static_cast<size_t>(o.shape)];
    open_ok(t, s.side, &ok);
    if (opens_near_zone(t, s, spare, ok)) (*best)[kept++] = o;
  }
  const bool dropped = kept < best->size();
  best->resize(kept);
  clear_zones();
  return dropped;
}

// Each front cell's zone: the cell, and its neighbours on its pair sides (see tight_options).
void Search::mark_zones(const std::vector<int>& pair_sides) {
  auto own = [this](int cell, int owner) {
    uint8_t& count = zone_count_[static_cast<size_t>(cell)];
    if (count < 3) zone_owner_[static_cast<size_t>(cell)][count] = owner;
    if (count < 255) ++count;
  };
  for (size_t i = 0; i < front_.size(); ++i) {
    const int t = front_[i];
    own(t, t);
    for (int side = 0; side < kSides; ++side) {
      if (pair_sides[i] >> side & 1) own(t + kDx[side] + kDy[side] * width_, t);
    }
  }
}

void Search::clear_zones() {
  for (const int t : front_) {
    zone_count_[static_cast<size_t>(t)] = 0;
    for (int side = 0; side < kSides; ++side) {
      zone_count_[static_cast<size_t>(t + kDx[side] + kDy[side] * width_)] = 0;
    }
  }
}

// Front cell t's options that open only onto taken cells or the zones of front cells other
// than t and the card's other cell (see tight_options), left in options_ (the first `limit` of
// them): how many.
int Search::kept_options(int t, size_t limit) {
  std::vector<Option>& options = options_;
  options.clear();
  if (blocked_[static_cast<size_t>(t)]) return 0;
  OpenOk ok;
  each_fit_while(t, [&](size_t k, int i, const Shape& s) {
    open_ok(t, s.side, &ok);
    const size_t side = static_cast<size_t>(s.side);
    if ((s.t_open & ~ok.t[side]) || (s.o_open & ~ok.o[side])) return true;
    options.push_back({static_cast<int>(k), i});
    return options.size() < limit;
  });
  return static_cast<int>(options.size());
}

// For a card covering front cell t with its other cell o on `side` of it: the sides of t, and
// of o, whose neighbour is occupied or lies in the zone of a front cell other than t and o (see
// tight_options). Found once per side and kept in *ok, not once per option.
void Search::open_ok(int t, int side, OpenOk* ok) const {
  if (ok->known >> side & 1) return;
  ok->known |= 1 << side;
  const int o = t + kDx[side] + kDy[side] * width_;
  auto sides_ok = [&](int c) {
    int out = 0;
    for (int d = 0; d < kSides; ++d) {
      const int nb = c + kDx[d] + kDy[d] * width_;
      if (occ_[static_cast<size_t>(nb)] || served(nb, t, o)) out |= 1 << d;
    }
    return out;
  };
  ok->t[static_cast<size_t>(side)] = sides_ok(t);
  ok->o[static_cast<size_t>(side)] = sides_ok(o);
}

// Whether empty cell nb lies in the zone of a front cell other than t and o.
bool Search::served(int nb, int t, int o) const {
  const uint8_t count = zone_count_[static_cast<size_t>(nb)];
  if (count >= 3) return true;
  for (int k = 0; k < count; ++k) {
    const int u = zone_owner_[static_cast<size_t>(nb)][static_cast<size_t>(k)];
    if (u != t && u != o) return true;
  }
  return false;
}

// Whether the empty cells that a card of shape s covering front cell t opens onto, outside the
// zones of front cells other than t and the card's other cell, fit under `spare` cards (see
// spare_options): at most 2 * spare of them, and with one card, two side by side.
bool Search::opens_near_zone(int t, const Shape& s, int spare, const OpenOk& ok) const {
  // (The two cells' neighbours are distinct cells: no cell is counted twice.)
  const size_t side = static_cast<size_t>(s.side);
  const int far_t = s.t_open & ~ok.t[side];
  const int far_o = s.o_open & ~ok.o[side];
  const int extras = pop4(far_t) + pop4(far_o);
  if (extras > 2 * spare) return false;
  if (spare > 1 || extras < 2) return true;
  const int o = t + kDx[s.side] + kDy[s.side] * width_;
  std::array<int, 2> extra{};
  int n = 0;
  for (int d = 0; d < kSides; ++d) {
    if (far_t >> d & 1) extra[static_cast<size_t>(n++)] = t + kDx[d] + kDy[d] * width_;
    if (far_o >> d & 1) extra[static_cast<size_t>(n++)] = o + kDx[d] + kDy[d] * width_;
  }
  const int gap = std::abs(extra[0] - extra[1]);
  return gap == 1 || gap == width_;
}

// The options at t with the fewest exits after them first (a closure is found sooner).
void Search::order_by_exits(int t, std::vector<Option>* options) const {
  const int rim_t = rim_[static_cast<size_t>(t)];
  auto delta = [this, t, rim_t](const Option& o) {
    const Shape& s = shapes_[static_cast<size_t>(o.type)][static_cast<size_t>(o.shape)];
    const int other = t + kDx[s.side] + kDy[s.side] * width_;
    return exit_change(s.t_open, rim_t) + exit_change(s.o_open, rim_[static_cast<size_t>(other)]);
  };
  // A stable insertion sort on the change computed once per option (a cell has few options).
  const size_t n = options->size();
  std::array<int, 64> keys{};
  if (n > keys.size()) {
    std::stable_sort(options->begin(), options->end(),
                     [&delta](const Option& a, const Option& b) { return delta(a) < delta(b); });
    return;
  }
  Option* o = options->data();
  for (size_t i = 0; i < n; ++i) keys[i] = delta(o[i]);
  for (size_t i = 1; i < n; ++i) {
    const Option v = o[i];
    const int k = keys[i];
    size_t j = i;
    for (; j > 0 && keys[j - 1] > k; --j) {
      o[j] = o[j - 1];
      keys[j] = keys[j - 1];
    }
    o[j] = v;
    keys[j] = k;
  }
}

bool Search::augment(int i, int stamp) {
  for (int d = 0; d < cover_degree_[static_cast<size_t>(i)]; ++d) {
    const int u = cover_adj_[static_cast<size_t>(i)][static_cast<size_t>(d)];
    if (cover_seen_[static_cast<size_t>(u)] == stamp) continue;
    cover_seen_[static_cast<size_t>(u)] = stamp;
    const int v = cover_match_[static_cast<size_t>(u)];
    if (v < 0 || augment(v, stamp)) {
      cover_match_[static_cast<size_t>(u)] = i;
      return true;
    }
  }
  return false;
}

}  // namespace engine
}  // namespace closure
