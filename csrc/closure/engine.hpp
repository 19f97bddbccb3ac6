// The compiled closure search's engine, shared by its parts: the board (board.cpp), placement
// generation and the bounds (placements.cpp), the depth-first search (search.cpp) and the map
// move (maps.cpp).
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

#include "memo.hpp"
#include "search.hpp"

namespace closure {
namespace engine {

// The kinds of parts of the memo's key (see Search::toggle).
constexpr uint64_t kTypePart = uint64_t{1} << 62;
constexpr uint64_t kOccPart = uint64_t{2} << 62;
constexpr uint64_t kRimPart = uint64_t{3} << 62;
// The second hash of a part is the first times this (odd: a bijection, and a product is not
// linear over XOR, so two sets of parts whose first hashes XOR alike still differ in it).
constexpr uint64_t kKeyB = 0xD6E8FEB86659FD93ULL;
constexpr int kFound = -1;
constexpr int kMemoBudget = 2;
// The most cards to spare (the budget less the cover bound) at which spare_options filters the
// branching cell's options (measured: with two to spare it never dropped one).
constexpr int kSpareFilter = 1;
constexpr int kStopped = -2;
constexpr uint8_t kOccupied = 0x10;
constexpr int kSquareAPorts = 0b100011;  // L, TL, BL
constexpr int kSquareBPorts = 0b011100;  // TR, R, BR
// The map move's parts of the memo's key: a card on the table (its cells, openings and kind)
// and a front cell that waits for the next map (see maps.cpp).
constexpr uint64_t kFrozenPart = uint64_t{1} << 61;
// The plain cards a line may still lay while a map is left (a node with a map left only).
constexpr uint64_t kPrePart = uint64_t{1} << 60;

struct Option {
  int type;
  int shape;
};

struct Scratch {
  std::vector<int> pair_sides;
  std::vector<Option> best;
  std::vector<int> cells;  // the map move: the front cells, the cells frozen before a map
};

// A card on the table, when the search lays maps: its two cells, their open sides, its kind
// flags, its type (-1: a card of the starting table), whether it is still there.
struct CardRec {
  int a;
  int b;
  uint8_t open_a;
  uint8_t open_b;
  int kind;
  int type;
  bool alive;
};

struct CardGraph;  // maps.cpp

// A removal: up to three cards' ids.
struct RemovalSet {
  int n;
  std::array<int, 3> ids;
};

struct Undo {
  int cell;
  uint8_t rim;
};

class Search {
 public:
  explicit Search(const Problem& p) : problem_(p) { build(); }

  Answer run();
  std::vector<std::vector<int>> removals_now();

 private:
  int idx(int x, int y) const { return (y - y0_) * width_ + (x - x0_); }
  bool is_front(int c) const { return front_pos_[c] >= 0; }

  void build();
  void set_rim(int c, uint8_t value);
  void assign_rim(int c, uint8_t value);
  void toggle(uint64_t part);
  // The undo log's length and the key at some point of the search (lay, take_off), to go back
  // to (lift, put_back).
  struct Mark {
    size_t undo;
    uint64_t key_a;
    uint64_t key_b;
  };
  Mark mark() const;
  void rewind(const Mark& m);
  Mark lay(int type, int t, const Shape& s);
  void lift(int type, int t, const Shape& s, const Mark& before);
  int counting_bound();
  int missing() const;
  bool options_at(int t, std::vector<Option>* out, int* pair_sides) const;
  int count_at(int t, int* pair_sides);
  int count_options(int t, int* pair_sides) const;
  struct GeoSlot;
  void fill_geo(int t, uint64_t sig, GeoSlot* g) const;
  // Whether a card of shape s on front cell t has its other cell free, inside and fitting that
  // cell's rim (its shape fitting t's rim is fit_t_'s part).
  bool other_fits(int t, const Shape& s) const {
    const size_t o = static_cast<size_t>(t + kDx[s.side] + kDy[s.side] * width_);
    return !occ_[o] && !blocked_[o] && fits(s.o_open, rim_[o]);
  }
  // Whether a card of shape s on front cell t would wall an exit into a one-cell hole: an
  // empty cell next to it touched on all four sides once it is laid, with an opening facing
  // it (the card's own or another's). (Two neighbouring cells have no neighbour in common.)
  bool walls_hole(int t, const Shape& s) const {
    const int o = t + kDx[s.side] + kDy[s.side] * width_;
    const int squares[2] = {t, o};
    const int opens[2] = {s.t_open, s.o_open};
    for (int i = 0; i < 2; ++i) {
      for (int side = 0; side < kSides; ++side) {
        const int nb = squares[i] + kDx[side] + kDy[side] * width_;
        if (nb == squares[1 - i] || occ_[static_cast<size_t>(nb)]) continue;
        const int from = opposite(side);
        int v = rim_[static_cast<size_t>(nb)] | 1 << (from + kTouchShift);
        if (opens[i] >> side & 1) v |= 1 << from;
        if ((v >> kTouchShift) == 0xF && (v & 0xF)) return true;
      }
    }
    return false;
  }
  // Call f(type, shape index, shape) for every way a card left can cover front cell t now: its
  // shape fits t's rim, and its other cell is free, inside and fits its own rim. Only the
  // types with a shape fitting t's rim are visited (with at most 64 types: fit_types_). The
  // visit stops once f returns false.
  template <typename F>
  void each_fit_while(int t, F f) const {
    const int rim_t = rim_[static_cast<size_t>(t)];
    auto visit = [&](size_t k) {
      const auto& shapes = shapes_[k];
      for (unsigned bits = fit_t_[k][static_cast<size_t>(rim_t)]; bits; bits &= bits - 1) {
        const int i = __builtin_ctz(bits);
        const Shape& s = shapes[static_cast<size_t>(i)];
        if (!other_fits(t, s)) continue;
        if (!f(k, i, s)) return false;
      }
      return true;
    };
    if (few_types_) {
      const uint64_t fitting = fit_types_[static_cast<size_t>(rim_t)] & types_left_mask_;
      for (uint64_t ks = fitting; ks; ks &= ks - 1) {
        if (!visit(static_cast<size_t>(__builtin_ctzll(ks)))) return;
      }
    } else {
      for (size_t k = 0; k < shapes_.size(); ++k) {
        if (left_[k] && !visit(k)) return;
      }
    }
  }
  // Every way (each_fit_while without a stop).
  template <typename F>
  void each_fit(int t, F f) const {
    each_fit_while(t, [&](size_t k, int i, const Shape& s) {
      f(k, i, s);
      return true;
    });
  }
  int cover_bound(const std::vector<int>& pair_sides);
  int tight_options(const std::vector<int>& pair_sides, std::vector<Option>* best);
  void mark_zones(const std::vector<int>& pair_sides);
  void clear_zones();
  int kept_options(int t, size_t limit);
  bool spare_options(int t, int spare, const std::vector<int>& pair_sides,
                     std::vector<Option>* best);
  // Per side of a front cell: the sides of the card's two cells open onto taken or served
  // cells (see open_ok); `known`: the sides found so far.
  struct OpenOk {
    int known = 0;
    std::array<int, kSides> t = {};
    std::array<int, kSides> o = {};
  };
  void open_ok(int t, int side, OpenOk* ok) const;
  bool opens_near_zone(int t, const Shape& s, int spare, const OpenOk& ok) const;
  bool served(int nb, int t, int o) const;
  void order_by_exits(int t, std::vector<Option>* options) const;
  bool augment(int i, int stamp);
  int dfs(int budget);
  int branch(int budget, int low, bool memo);
  int scan_front(std::vector<int>* pair_sides);
  int branch_options(int budget, int cover, int best_cell, const std::vector<int>& pair_sides,
                     std::vector<Option>* best, int* result);
  int closed() const;
  void build_types();
  void block_cells();
  void deepen(Answer* out);
  bool tick();
  bool clock_ok();
  bool cancelled() const;
  // The map move (maps.cpp).
  void build_maps();
  uint64_t card_part(const CardRec& c) const;
  void add_card(int type, int a, int b);
  void drop_card();
  int map_node(int budget);
  bool beyond_maps(const std::vector<int>& dead);
  int pick_cell(std::vector<int>* dead);
  int cover_or_freeze(int t, int budget);
  int lay_maps(int budget);
  int after_map(int budget);
  void list_removals(std::vector<RemovalSet>* out);
  void card_graph(CardGraph* g) const;
  std::vector<int> removable(const CardGraph& g) const;
  void fewer(CardGraph* g, const std::vector<int>& pool,
             const std::vector<std::array<int, 2>>& whole_pairs,
             std::vector<RemovalSet>* out) const;
  Mark take_off(const RemovalSet& r);
  int need_after(const RemovalSet& r);
  void put_back(const RemovalSet& r, const Mark& before);
  uint8_t rim_from(int c) const;
  void freeze(int c);
  void unfreeze_to(size_t mark);
  bool goal_met() const;
  bool super_joined() const;

  const Problem& problem_;
  Memo memo_;
  ExitsBound exits_bound_;
  BalanceBound balance_bound_;
  int x0_ = 0, y0_ = 0, width_ = 0, height_ = 0;
  std::vector<uint8_t> occ_;      // kOccupied | open sides, 0 when empty
  std::vector<uint8_t> rim_;      // the rim value of an empty cell
  std::vector<uint8_t> blocked_;  // never covered (outside the play area or the grid)
  std::vector<int> front_;        // the front cells
  std::vector<int> front_pos_;    // each cell's place in front_, or -1
  std::vector<Undo> undo_;
  std::vector<std::vector<Shape>> shapes_;  // by type
  std::vector<std::array<uint8_t, 256>> fit_t_;  // by type and rim value: the shapes fitting it
  // By rim value: the types (up to 64) with a shape fitting it (the loops below visit only
  // those of them with cards left).
  std::array<uint64_t, 256> fit_types_ = {};
  bool few_types_ = false;  // at most 64 types: types_left_mask_ and fit_types_ hold them all
  // count_at's table: by a cell's geometry, each type's fitting shapes there (their number in
  // four bit planes: at most 8 shapes a type) and the sides they pair on.
  struct GeoSlot {
    uint64_t sig = 0;
    std::array<uint64_t, 4> planes = {};
    std::array<uint64_t, kSides> sides = {};
  };
  static constexpr size_t kGeoCache = size_t{1} << 13;
  // The table is the thread's, kept from question to question (see geo_table); this
  // question's slots carry its tag in their keys.
  // (geo_tag_ first: geo_table sets it.)
  GeoSlot* geo_table();
  uint64_t geo_tag_ = 0;
  GeoSlot* geo_cache_ = geo_table();
  uint64_t types_left_mask_ = 0;  // bit k: cards of type k are left (up to 64 types)
  std::vector<int> left_;                   // cards left by type
  std::vector<int> laid_;                   // cards laid by type
  std::array<int, 7> classes_ = {};         // cards left by number of openings
  std::array<int, 3> skews_ = {};           // cards left by |a - b| = 1, 2, 3
  std::vector<int> openings_, skew_of_;     // by type
  int exits_ = 0;
  int balance_ = 0;
  uint64_t key_a_ = 0, key_b_ = 0;
  std::vector<Laid> path_;
  int64_t nodes_ = 0;
  Stop stopped_ = Stop::kNone;
  std::chrono::steady_clock::time_point deadline_;
  std::vector<std::array<int, 4>> cover_adj_;
  std::vector<int> cover_degree_, cover_match_, cover_seen_;
  std::vector<Scratch> scratch_;  // by depth
  // The tight case's zone: per cell, how many front cells may have their card on it (up to
  // three of them named; a cell with three has one other than any two given).
  std::vector<uint8_t> zone_count_;
  std::vector<std::array<int, 3>> zone_owner_;
  std::vector<Option> options_;
  // The map move (maps.cpp): on when maps are among the cards.
  bool maps_on_ = false;
  int maps_left_ = 0;
  int pre_left_ = 0;                 // plain cards a line may still lay while a map is left
  int ladders_ = 0;                  // ladder cards on the table
  int table_cards_ = 0;              // cards of the starting table (ids below it)
  std::vector<int> card_of_;         // by cell: the card on it, or -1
  std::vector<CardRec> cards_;       // by id: the table's cards, then those laid in order
  std::vector<int> removed_;         // by type: cards laid and then taken off
  std::vector<uint8_t> frozen_;      // by cell: waits for the next map
  std::vector<int> frozen_list_;     // the frozen cells, in order
  std::vector<Removed> removal_log_;
  std::vector<std::vector<RemovalSet>> removal_scratch_;  // by depth
  std::shared_ptr<CardGraph> graph_;  // list_removals' graph, its room kept from call to call
  std::vector<int> near_used_;  // beyond_maps: the cards near the dead cells counted apart
  std::vector<std::vector<int>> frozen_saved_;            // by depth: frozen before a map
};

}  // namespace engine
}  // namespace closure
