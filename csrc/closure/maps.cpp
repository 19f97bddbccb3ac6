// The map move of the compiled closure search (BA-CLOSE-2): Bandida's map cards laid inside the
// depth-first search, each followed by every removal its reading allows (BA-OBJ-5, BA-OBJ-6,
// BA-OPT-1..4; the rules of tunnels/bandida/maps.py, which the tests compare it with).
//
// A line from a node lays plain cards, then (maybe) a map and its removal, then plain cards, and
// so on. While a map is left among the cards, a node also holds a set F of frozen front cells:
// the promise that no plain card covers them before the next map. Why the search is complete
// (every line within the budget that reaches the goal and keeps the promise is found):
// - with no map left, the node is a map-free one and the argument of search.cpp holds (no card
//   is ever taken off again, so its bounds and its fail-first branching are sound); the goal is
//   checked on the table itself, since a removal may have taken the ladder off
//   (map_removes=not_super) or cut the super cards apart (map_split=edges);
// - with a map left, take a front cell t not in F (the one with the fewest ways to cover it).
//   Either a plain card laid before the next map covers t: that card is legal now (cells only
//   fill up until the map, its edges meet the same cards now as when it is laid, and it joins
//   the exit into t), and the other cards laid before the map stay legal when it is moved
//   first (they meet it as they did; the table cannot close early, since a card laid later
//   joins an opening of a card before it, which would face an empty cell), and the map's
//   placement and its removal are the same; it covers no cell of F. So covering t first in
//   every way is exhaustive for such lines. Or no plain card covers t before the next map:
//   the same node with t frozen (no card laid, the same budget) holds every such line;
// - with every front cell frozen, the next card is the map: each map laid in every legal way
//   (a legal placement covers a front cell, frozen or not: the promise is about plain cards),
//   then, unless it closes the table (the game then ends before any removal, BA-END-2), each
//   removal the reading allows (none when it allows none); after a map nothing is frozen;
// - no front cell left: the table is closed and takes no card (a map neither): the goal holds
//   or the line is lost;
// - a front cell no card left can cover now stays so while the cards within two steps of it
//   stay (beyond_maps): when the maps left cannot take enough of those cards off, no line
//   closes.
// The search deepens the number of plain cards a line may lay while a map is left (pre_left_,
// part of the key of the nodes with a map left): the last level, with as many as the budget,
// holds every line, and only it may answer impossible; the nodes with no map left keep their
// bounds from level to level. Each node returns a proven lower bound on the cards any line
// from it needs under its level (at least one while the table is open; freezing costs none),
// and the memo keeps it by a key that fixes a node's future: with maps on, besides the occupied
// cells, the rim and the cards laid per type (maps included), every card on the table (its
// cells, openings and kind: what a removal may take and what it leaves) and the frozen cells.
// The order the table's cards were laid in plays no part once a map's removal is chosen (only
// the map just laid is special, BA-OPT-1).
#include <algorithm>
#include <chrono>
#include <vector>

#include "engine.hpp"

namespace closure {
namespace engine {

// The card graph a map's removals are checked on (BA-OBJ-6, BA-OPT-2, BA-OPT-3): the cards on
// the table (by their place among them, in the order laid), each card's neighbours (touching
// edge to edge, or joined through openings under map_split=tunnels) and its tunnel neighbours.
struct CardGraph {
  std::vector<int> ids;
  std::vector<int> place;  // by card id: its place among ids, or -1 (card_graph)
  std::vector<std::vector<int>> adjacent;
  std::vector<std::vector<int>> tunnels;
  // Tarjan's search of the graph without some cards, from card 0 (the start card).
  std::vector<int> disc, low;
  std::vector<uint8_t> gone, cut;
  int clock = 0;
  int reached = 0;

  void visit(int v, int parent) {
    disc[static_cast<size_t>(v)] = low[static_cast<size_t>(v)] = ++clock;
    ++reached;
    int children = 0;
    for (int w : adjacent[static_cast<size_t>(v)]) {
      if (gone[static_cast<size_t>(w)]) continue;
      if (!disc[static_cast<size_t>(w)]) {
        ++children;
        visit(w, v);
        low[static_cast<size_t>(v)] = std::min(low[static_cast<size_t>(v)], low[static_cast<size_t>(w)]);
        if (parent >= 0 && low[static_cast<size_t>(w)] >= disc[static_cast<size_t>(v)]) {
          cut[static_cast<size_t>(v)] = 1;
        }
      } else if (w != parent) {
        low[static_cast<size_t>(v)] = std::min(low[static_cast<size_t>(v)], disc[static_cast<size_t>(w)]);
      }
    }
    if (parent < 0 && children >= 2) cut[static_cast<size_t>(v)] = 1;
  }

  // Search the graph without the cards marked in `gone`: how many it leaves apart from the
  // start card's group (`disc` 0 for those), and its cut vertices (`cut`).
  int apart(int removed) {
    const size_t n = ids.size();
    disc.assign(n, 0);
    low.assign(n, 0);
    cut.assign(n, 0);
    clock = 0;
    reached = 0;
    visit(0, -1);
    return static_cast<int>(n) - removed - reached;
  }

  // After a search without two cards that left `apart` cards apart: whether taking k off too
  // leaves one group (k no cut vertex of the one group, or the one card apart).
  bool leaves_one(int k, int apart) const {
    return apart == 0 ? !cut[static_cast<size_t>(k)] : !disc[static_cast<size_t>(k)];
  }

  // BA-OPT-3 map_reopen=forbidden: no card kept is joined through an opening to a card taken
  // off (the cards of `gone`).
  bool keeps(const int* set, int n) const {
    for (int i = 0; i < n; ++i) {
      for (int w : tunnels[static_cast<size_t>(set[i])]) {
        if (!gone[static_cast<size_t>(w)]) return false;
      }
    }
    return true;
  }
};

void Search::build_maps() {
  const MapRules& m = problem_.maps;
  maps_on_ = true;
  const size_t n = occ_.size();
  card_of_.assign(n, -1);
  frozen_.assign(n, 0);
  frozen_list_.clear();
  removal_scratch_.resize(scratch_.size());
  frozen_saved_.resize(scratch_.size());
  for (const auto& c : m.table_cards) {
    const int a = idx(c[0], c[1]), b = idx(c[2], c[3]);
    const int id = static_cast<int>(cards_.size());
    cards_.push_back({a, b, static_cast<uint8_t>(occ_[static_cast<size_t>(a)] & 0xF),
                      static_cast<uint8_t>(occ_[static_cast<size_t>(b)] & 0xF), c[4], -1, true});
    card_of_[static_cast<size_t>(a)] = card_of_[static_cast<size_t>(b)] = id;
    toggle(card_part(cards_.back()));
    if (c[4] & kKindLadder) ++ladders_;
  }
  table_cards_ = static_cast<int>(cards_.size());
  for (size_t k = 0; k < m.type_kinds.size() && k < left_.size(); ++k) {
    if (m.type_kinds[k] & kKindMap) maps_left_ += left_[k];
  }
}

uint64_t Search::card_part(const CardRec& c) const {
  const bool a_first = c.a < c.b;
  const uint64_t lo = static_cast<uint64_t>(a_first ? c.a : c.b);
  const uint64_t hi = static_cast<uint64_t>(a_first ? c.b : c.a);
  const uint64_t open_lo = a_first ? c.open_a : c.open_b;
  const uint64_t open_hi = a_first ? c.open_b : c.open_a;
  return lo | hi << 24 | static_cast<uint64_t>(c.kind & 0xF) << 48 | open_lo << 52 |
         open_hi << 56;
}

// A card laid (after lay() has set its cells): its record, its part of the key.
void Search::add_card(int type, int a, int b) {
  const int kind = problem_.maps.type_kinds[static_cast<size_t>(type)];
  const int id = static_cast<int>(cards_.size());
  cards_.push_back({a, b, static_cast<uint8_t>(occ_[static_cast<size_t>(a)] & 0xF),
                    static_cast<uint8_t>(occ_[static_cast<size_t>(b)] & 0xF), kind, type, true});
  card_of_[static_cast<size_t>(a)] = card_of_[static_cast<size_t>(b)] = id;
  toggle(card_part(cards_.back()));
  if (kind & kKindLadder) ++ladders_;
  if (kind & kKindMap) --maps_left_;
}

// (lift's rewind restores the key: the card's part is not toggled back.)
void Search::drop_card() {
  const CardRec& c = cards_.back();
  card_of_[static_cast<size_t>(c.a)] = card_of_[static_cast<size_t>(c.b)] = -1;
  if (c.kind & kKindLadder) --ladders_;
  if (c.kind & kKindMap) ++maps_left_;
  cards_.pop_back();
}

// A node with a map left: a front cell not frozen covered in every way or frozen, or with every
// front cell frozen, a map laid (see the argument at the top).
int Search::map_node(int budget) {
  if (budget < 1) return 1;
  const bool memo = budget >= kMemoBudget;
  // (The key holds the plain cards the line may still lay while a map is left.)
  const uint64_t pre = kPrePart | static_cast<uint64_t>(pre_left_);
  const uint64_t key_a = key_a_ ^ mix(pre), key_b = key_b_ ^ mix(pre) * kKeyB;
  const int known = memo ? memo_.get(key_a, key_b) : 0;
  if (known > budget) return known;
  std::vector<int>& dead = scratch_[path_.size()].cells;
  const int best_cell = pick_cell(&dead);
  if (!dead.empty() && beyond_maps(dead)) {
    if (memo) memo_.put(key_a, key_b, kNever);
    return kNever;
  }
  // (With no plain card allowed before the next map, every front cell waits for it.)
  int result = best_cell < 0 || !pre_left_ ? lay_maps(budget) : cover_or_freeze(best_cell, budget);
  if (result == kFound || result == kStopped) return result;
  result = std::max({result, known, budget + 1});
  if (memo) memo_.put(key_a, key_b, result);
  return result;
}

// The front cell not frozen with the fewest ways to cover it (-1: every one is frozen), and
// the dead front cells (no way to cover them now) in *dead.
int Search::pick_cell(std::vector<int>* dead) {
  int best_cell = -1;
  int best_count = 0;
  dead->clear();
  for (int t : front_) {
    int sides = 0;
    const int count = count_at(t, &sides);
    if (!count) dead->push_back(t);
    if (frozen_[static_cast<size_t>(t)]) continue;
    if (best_cell < 0 || count < best_count) {
      best_cell = t;
      best_count = count;
    }
  }
  return best_cell;
}

// True when the maps left cannot mend the dead front cells (those no card left can cover
// now): a dead cell stays so while the cards within two steps of it stay (a card covering it
// covers a neighbour too, and must match the cards beside both; laying more cards only adds
// edges to match), so each needs one of those cards taken off, of a kind a map may take. None
// there, or more dead cells needing cards apart from one another than three per map left,
// and no line closes the table.
bool Search::beyond_maps(const std::vector<int>& dead) {
  const MapRules& m = problem_.maps;
  std::vector<int>& used = near_used_;
  used.clear();
  int apart = 0;
  for (int t : dead) {
    const int tx = t % width_, ty = t / width_;
    bool any = false, shared = false;
    const size_t before = used.size();
    for (int dy = -2; dy <= 2; ++dy) {
      for (int dx = -2 + std::abs(dy); dx <= 2 - std::abs(dy); ++dx) {
        const int x = tx + dx, y = ty + dy;
        if (x < 0 || y < 0 || x >= width_ || y >= height_) continue;
        const int id = card_of_[static_cast<size_t>(y * width_ + x)];
        if (id <= 0) continue;
        const int kind = cards_[static_cast<size_t>(id)].kind;
        if ((kind & kKindBandidoSuper) || (!m.removes_not_super && (kind & kKindLadder))) continue;
        any = true;
        if (std::find(used.begin(), used.begin() + static_cast<long>(before), id) !=
            used.begin() + static_cast<long>(before)) {
          shared = true;
        }
        used.push_back(id);
      }
    }
    if (!any) return true;
    if (shared) {
      used.resize(before);
    } else {
      ++apart;
    }
  }
  return apart > 3 * maps_left_;
}

// Front cell t covered now by a plain card in every way that covers no frozen cell (while the
// level allows one more), then t frozen (the lines in which no plain card covers it before
// the next map; a map covering it is laid once every front cell is frozen).
int Search::cover_or_freeze(int t, int budget) {
  std::vector<Option>& options = scratch_[path_.size()].best;
  options_at(t, &options, nullptr);
  size_t kept = 0;
  for (const Option& o : options) {
    const Shape& s = shapes_[static_cast<size_t>(o.type)][static_cast<size_t>(o.shape)];
    if (!frozen_[static_cast<size_t>(t + kDx[s.side] + kDy[s.side] * width_)]) options[kept++] = o;
  }
  options.resize(kept);
  order_by_exits(t, &options);
  int result = kNever;
  for (size_t i = 0; i < options.size(); ++i) {
    const Option option = options[i];
    const Shape& s = shapes_[static_cast<size_t>(option.type)][static_cast<size_t>(option.shape)];
    // (A map covering t now is laid once every front cell is frozen: lay_maps.)
    if (problem_.maps.type_kinds[static_cast<size_t>(option.type)] & kKindMap) continue;
    if (!pre_left_) break;  // (no more plain cards before the next map)
    if (problem_.maps.no_holes && walls_hole(t, s)) continue;
    const Mark mark = lay(option.type, t, s);
    --pre_left_;
    const int found = dfs(budget - 1);
    if (found == kFound) return kFound;
    ++pre_left_;
    lift(option.type, t, s, mark);
    if (found == kStopped) return kStopped;
    result = std::min(result, found + 1);
  }
  // (The options above are done with: the frozen node may use this depth's buffers.)
  const size_t frozen_mark = frozen_list_.size();
  freeze(t);
  const int waited = dfs(budget);
  if (waited == kFound) return kFound;
  unfreeze_to(frozen_mark);
  if (waited == kStopped) return kStopped;
  return std::min(result, waited);
}

// Every front cell frozen: each map laid in every legal way (each placement once: from the
// first front cell it covers), then its removals.
int Search::lay_maps(int budget) {
  std::vector<int>& cells = scratch_[path_.size()].cells;
  cells = front_;
  std::sort(cells.begin(), cells.end());
  int result = kNever;
  for (size_t k = 0; k < shapes_.size(); ++k) {
    if (!left_[k] || !(problem_.maps.type_kinds[k] & kKindMap)) continue;
    for (size_t ci = 0; ci < cells.size(); ++ci) {
      const int t = cells[ci];
      if (blocked_[static_cast<size_t>(t)]) continue;
      const auto& shapes = shapes_[k];
      for (unsigned bits = fit_t_[k][rim_[static_cast<size_t>(t)]]; bits; bits &= bits - 1) {
        const Shape& s = shapes[static_cast<size_t>(__builtin_ctz(bits))];
        if (!other_fits(t, s)) continue;
        const int o = t + kDx[s.side] + kDy[s.side] * width_;
        if (is_front(o) && o < t) continue;  // found from o
        if (problem_.maps.no_holes && walls_hole(t, s)) continue;
        const Mark mark = lay(static_cast<int>(k), t, s);
        const int found = after_map(budget - 1);
        if (found == kFound) return kFound;
        lift(static_cast<int>(k), t, s, mark);
        if (found == kStopped) return kStopped;
        result = std::min(result, found + 1);
      }
    }
  }
  return result;
}

// A map just laid (the last card), `budget` cards left after it: the game over if it closed
// the table (BA-END-2), else each removal its reading allows, nothing frozen any more.
int Search::after_map(int budget) {
  if (front_.empty()) return goal_met() ? kFound : kNever;
  std::vector<int>& saved = frozen_saved_[path_.size()];
  saved.assign(frozen_list_.begin(), frozen_list_.end());
  unfreeze_to(0);
  std::vector<RemovalSet>& sets = removal_scratch_[path_.size()];
  list_removals(&sets);
  int result = kNever;
  if (!clock_ok()) {
    result = kStopped;
  } else if (sets.empty()) {
    result = dfs(budget);
  } else {
    for (size_t i = 0; i < sets.size(); ++i) {
      const RemovalSet r = sets[i];
      const int need = need_after(r);
      if (need > budget) {
        result = std::min(result, need);
        continue;
      }
      const Mark mark = take_off(r);
      Removed log{static_cast<int>(path_.size()), {}};
      for (int j = 0; j < r.n; ++j) {
        const int id = r.ids[static_cast<size_t>(j)];
        log.cards.push_back(id);
      }
      removal_log_.push_back(log);
      const int found = dfs(budget);
      if (found == kFound) return kFound;
      removal_log_.pop_back();
      put_back(r, mark);
      if (found == kStopped) {
        result = kStopped;
        break;
      }
      result = std::min(result, found);
    }
  }
  for (int c : saved) freeze(c);
  return result;
}

// The card graph of the table now (see CardGraph), its cards in the order laid.
// (The graph's lists keep their room from call to call: no allocation once they have grown.)
void Search::card_graph(CardGraph* g) const {
  const bool tunnels_only = problem_.maps.split_tunnels;
  std::vector<int>& place = g->place;
  place.assign(cards_.size(), -1);
  g->ids.clear();
  for (size_t id = 0; id < cards_.size(); ++id) {
    if (!cards_[id].alive) continue;
    place[id] = static_cast<int>(g->ids.size());
    g->ids.push_back(static_cast<int>(id));
  }
  const size_t n = g->ids.size();
  if (g->adjacent.size() < n) {
    g->adjacent.resize(n);
    g->tunnels.resize(n);
  }
  for (size_t v = 0; v < n; ++v) {
    g->adjacent[v].clear();
    g->tunnels[v].clear();
  }
  g->gone.assign(n, 0);
  auto add = [](std::vector<int>& list, int w) {
    if (std::find(list.begin(), list.end(), w) == list.end()) list.push_back(w);
  };
  for (size_t v = 0; v < n; ++v) {
    const CardRec& c = cards_[static_cast<size_t>(g->ids[v])];
    for (int cell : {c.a, c.b}) {
      for (int side = 0; side < kSides; ++side) {
        const int w_id = card_of_[static_cast<size_t>(cell + kDx[side] + kDy[side] * width_)];
        if (w_id < 0 || w_id == g->ids[v]) continue;
        const int w = place[static_cast<size_t>(w_id)];
        const bool open = occ_[static_cast<size_t>(cell)] >> side & 1;
        if (open) add(g->tunnels[v], w);
        if (open || !tunnels_only) add(g->adjacent[v], w);
      }
    }
  }
}

// BA-OPT-1: the cards (places in the graph) a map just laid may take off: never the start card
// nor Bandido's super card; under not_special neither the ladder nor the map itself (the last).
std::vector<int> Search::removable(const CardGraph& g) const {
  std::vector<int> pool;
  const size_t n = g.ids.size();
  for (size_t v = 1; v < n; ++v) {
    const int kind = cards_[static_cast<size_t>(g.ids[v])].kind;
    if (kind & kKindBandidoSuper) continue;
    if (!problem_.maps.removes_not_super && ((kind & kKindLadder) || v == n - 1)) continue;
    pool.push_back(static_cast<int>(v));
  }
  return pool;
}

// The removals the reading allows now, the map just laid being the last card (BA-OBJ-6,
// BA-OPT-1..4, as tunnels/bandida/maps.py lists them): every set of three whose removal leaves
// one group of cards; with none, under map_short=as_many, every pair, else every single card.
// A set {i, j, k} leaves one group when the graph without i and j is one group in which k is
// no cut vertex, or leaves k alone apart.
void Search::list_removals(std::vector<RemovalSet>* out) {
  out->clear();
  const bool forbidden = problem_.maps.reopen_forbidden;
  if (!graph_) graph_ = std::make_shared<CardGraph>();
  CardGraph& g = *graph_;
  card_graph(&g);
  const std::vector<int> pool = removable(g);
  std::vector<std::array<int, 2>> whole_pairs;
  const size_t p = pool.size();
  for (size_t a = 0; a < p; ++a) {
    for (size_t b = a + 1; b < p; ++b) {
      const int i = pool[a], j = pool[b];
      g.gone[static_cast<size_t>(i)] = g.gone[static_cast<size_t>(j)] = 1;
      const int apart = g.apart(2);
      if (apart == 0) whole_pairs.push_back({i, j});
      for (size_t c = b + 1; c < p && apart <= 1; ++c) {
        const int set[3] = {i, j, pool[c]};
        if (!g.leaves_one(set[2], apart)) continue;
        g.gone[static_cast<size_t>(set[2])] = 1;
        if (!forbidden || g.keeps(set, 3)) out->push_back({3, {i, j, set[2]}});
        g.gone[static_cast<size_t>(set[2])] = 0;
      }
      g.gone[static_cast<size_t>(i)] = g.gone[static_cast<size_t>(j)] = 0;
    }
  }
  if (out->empty() && !problem_.maps.short_none) fewer(&g, pool, whole_pairs, out);
  for (RemovalSet& r : *out) {
    for (int x = 0; x < r.n; ++x) {
      r.ids[static_cast<size_t>(x)] = g.ids[static_cast<size_t>(r.ids[static_cast<size_t>(x)])];
    }
  }
}

// BA-OPT-4 as_many, no set of three allowed: the pairs that leave one group, else the single
// cards.
void Search::fewer(CardGraph* g, const std::vector<int>& pool,
                   const std::vector<std::array<int, 2>>& whole_pairs,
                   std::vector<RemovalSet>* out) const {
  const bool forbidden = problem_.maps.reopen_forbidden;
  for (const auto& pair : whole_pairs) {
    g->gone[static_cast<size_t>(pair[0])] = g->gone[static_cast<size_t>(pair[1])] = 1;
    if (!forbidden || g->keeps(pair.data(), 2)) out->push_back({2, {pair[0], pair[1], 0}});
    g->gone[static_cast<size_t>(pair[0])] = g->gone[static_cast<size_t>(pair[1])] = 0;
  }
  if (!out->empty()) return;
  for (const int i : pool) {
    g->gone[static_cast<size_t>(i)] = 1;
    if (g->apart(1) == 0 && (!forbidden || g->keeps(&i, 1))) out->push_back({1, {i, 0, 0}});
    g->gone[static_cast<size_t>(i)] = 0;
  }
}

std::vector<std::vector<int>> Search::removals_now() {
  std::vector<std::vector<int>> out;
  if (!maps_on_) return out;
  std::vector<RemovalSet> sets;
  list_removals(&sets);
  for (const RemovalSet& r : sets) {
    std::vector<int> ids(r.ids.begin(), r.ids.begin() + r.n);
    std::sort(ids.begin(), ids.end());
    out.push_back(ids);
  }
  return out;
}

// With no map left after this one, a lower bound on the cards closing the table once the
// cards of r are taken off, worked out without taking them off: the exits bound of the table
// then (its exits: those now, less the openings of the cards of r onto empty cells, plus the
// openings of the cards kept onto the cells r empties), which search.cpp's node would find
// first. 0 (no bound) while a map is left.
int Search::need_after(const RemovalSet& r) {
  if (maps_left_ > 0) return 0;
  int exits = exits_;
  for (int x = 0; x < r.n; ++x) {
    const CardRec& c = cards_[static_cast<size_t>(r.ids[static_cast<size_t>(x)])];
    for (int cell : {c.a, c.b}) {
      const int open4 = occ_[static_cast<size_t>(cell)] & 0xF;
      for (int side = 0; side < kSides; ++side) {
        const size_t nb = static_cast<size_t>(cell + kDx[side] + kDy[side] * width_);
        const uint8_t there = occ_[nb];
        if (!there) {
          exits -= open4 >> side & 1;
        } else if (there >> opposite(side) & 1) {
          const int owner = card_of_[nb];
          bool kept = true;
          for (int y = 0; y < r.n; ++y) kept = kept && owner != r.ids[static_cast<size_t>(y)];
          exits += kept ? 1 : 0;
        }
      }
    }
  }
  return exits_bound_(classes_, exits);
}

// The rim value an empty cell has with the cards on the table now.
uint8_t Search::rim_from(int c) const {
  int v = 0;
  for (int side = 0; side < kSides; ++side) {
    const uint8_t nb = occ_[static_cast<size_t>(c + kDx[side] + kDy[side] * width_)];
    if (!nb) continue;
    v |= 1 << (side + kTouchShift);
    if (nb >> opposite(side) & 1) v |= 1 << side;
  }
  return static_cast<uint8_t>(v);
}

// Take the cards of r off the table: their cells emptied, the rims around them set again
// (logged, undone by put_back).
Search::Mark Search::take_off(const RemovalSet& r) {
  const Mark before = mark();
  for (int x = 0; x < r.n; ++x) {
    CardRec& c = cards_[static_cast<size_t>(r.ids[static_cast<size_t>(x)])];
    toggle(card_part(c));
    c.alive = false;
    for (int cell : {c.a, c.b}) {
      occ_[static_cast<size_t>(cell)] = 0;
      card_of_[static_cast<size_t>(cell)] = -1;
      toggle(kOccPart | static_cast<uint64_t>(cell));
    }
    if (c.type >= 0) ++removed_[static_cast<size_t>(c.type)];
    if (c.kind & kKindLadder) --ladders_;
  }
  for (int x = 0; x < r.n; ++x) {
    const CardRec& c = cards_[static_cast<size_t>(r.ids[static_cast<size_t>(x)])];
    for (int cell : {c.a, c.b}) {
      set_rim(cell, rim_from(cell));
      for (int side = 0; side < kSides; ++side) {
        const int nb = cell + kDx[side] + kDy[side] * width_;
        if (!occ_[static_cast<size_t>(nb)]) set_rim(nb, rim_from(nb));
      }
    }
  }
  return before;
}

// (rewind restores the key too: the cards' parts are not toggled back.)
void Search::put_back(const RemovalSet& r, const Mark& before) {
  rewind(before);
  for (int x = r.n - 1; x >= 0; --x) {
    const int id = r.ids[static_cast<size_t>(x)];
    CardRec& c = cards_[static_cast<size_t>(id)];
    occ_[static_cast<size_t>(c.a)] = kOccupied | c.open_a;
    occ_[static_cast<size_t>(c.b)] = kOccupied | c.open_b;
    for (int cell : {c.a, c.b}) card_of_[static_cast<size_t>(cell)] = id;
    c.alive = true;
    if (c.type >= 0) --removed_[static_cast<size_t>(c.type)];
    if (c.kind & kKindLadder) ++ladders_;
  }
}

void Search::freeze(int c) {
  frozen_[static_cast<size_t>(c)] = 1;
  frozen_list_.push_back(c);
  toggle(kFrozenPart | static_cast<uint64_t>(c));
}

void Search::unfreeze_to(size_t mark) {
  while (frozen_list_.size() > mark) {
    const int c = frozen_list_.back();
    frozen_list_.pop_back();
    frozen_[static_cast<size_t>(c)] = 0;
    toggle(kFrozenPart | static_cast<uint64_t>(c));
  }
}

// The goal on a closed table (goals.goal_problem): every required group met by a card on the
// table, the ladder there (goals ladder and join), and a second super card joined to the start
// card through the tunnels (join).
bool Search::goal_met() const {
  if (missing()) return false;
  const Goal goal = problem_.maps.goal;
  if (goal != Goal::kClose && ladders_ <= 0) return false;
  return goal != Goal::kJoin || super_joined();
}

// True when a card with a super card's port set, other than the start card, is joined to the
// start card's square A through the tunnels (openings meeting, and a card's two squares when
// they have openings: goals.joined).
bool Search::super_joined() const {
  if (cards_.empty()) return false;
  std::vector<uint8_t> seen(occ_.size(), 0);
  std::vector<int> todo = {cards_[0].a};
  seen[static_cast<size_t>(cards_[0].a)] = 1;
  while (!todo.empty()) {
    const int c = todo.back();
    todo.pop_back();
    const int id = card_of_[static_cast<size_t>(c)];
    if (id > 0 && (cards_[static_cast<size_t>(id)].kind & kKindSuperMask)) return true;
    const int open4 = occ_[static_cast<size_t>(c)] & 0xF;
    auto go = [&](int n) {
      if ((occ_[static_cast<size_t>(n)] & 0xF) && !seen[static_cast<size_t>(n)]) {
        seen[static_cast<size_t>(n)] = 1;
        todo.push_back(n);
      }
    };
    for (int side = 0; side < kSides; ++side) {
      if (open4 >> side & 1) go(c + kDx[side] + kDy[side] * width_);
    }
    if (open4 && id >= 0) {
      const CardRec& card = cards_[static_cast<size_t>(id)];
      go(card.a == c ? card.b : card.a);
    }
  }
  return false;
}

}  // namespace engine
}  // namespace closure
