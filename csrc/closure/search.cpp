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
//   skips every node already known to need more.
#include "search.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <new>
#include <utility>

#include <sys/mman.h>

namespace closure {
namespace {

// The kinds of parts of the memo's key (see Search::toggle).
constexpr uint64_t kTypePart = uint64_t{1} << 62;
constexpr uint64_t kOccPart = uint64_t{2} << 62;
constexpr uint64_t kRimPart = uint64_t{3} << 62;
constexpr int kFound = -1;
constexpr int kMemoBudget = 2;
constexpr int kStopped = -2;
constexpr uint8_t kOccupied = 0x10;
constexpr int kSquareAPorts = 0b100011;  // L, TL, BL
constexpr int kSquareBPorts = 0b011100;  // TR, R, BR

uint64_t mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

// An array of zeroed slots in pages of their own (mmap), on Linux in huge pages where the
// kernel gives them (madvise): the memo is probed at random, and with 4 KB pages most probes of
// a large table also miss the TLB. Pages are committed as they are first touched.
template <typename T>
class PageArray {
 public:
  explicit PageArray(size_t n) : n_(n), bytes_(n * sizeof(T)) {
    void* p = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
    if (bytes_ >= (size_t{2} << 20)) madvise(p, bytes_, MADV_HUGEPAGE);
#endif
    data_ = static_cast<T*>(p);
  }
  PageArray(const PageArray&) = delete;
  PageArray& operator=(const PageArray&) = delete;
  ~PageArray() {
    if (data_ != nullptr) munmap(data_, bytes_);
  }
  void swap(PageArray& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(n_, other.n_);
    std::swap(bytes_, other.bytes_);
  }
  size_t size() const { return n_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + n_; }

 private:
  T* data_ = nullptr;
  size_t n_ = 0;
  size_t bytes_ = 0;
};

// The memo: proven lower bounds by the set of cards laid (two 64-bit hashes of it), open
// addressing in a window of kWindow slots. The table starts small and doubles while it is
// more than half full, up to 2^kMaxBits slots (kMaxBits = 24: 256 MB); past that a full window
// is overwritten (losing a bound is always sound: it is only searched again).
class Memo {
 public:
  Memo() : slots_(size_t{1} << kFirstBits) {}

  void prefetch(uint64_t a) const { __builtin_prefetch(&slots_[a & (slots_.size() - 1)]); }

  int get(uint64_t a, uint64_t b64) const {
    const uint32_t b = static_cast<uint32_t>(b64 >> 32);
    const size_t mask = slots_.size() - 1;
    for (size_t i = 0; i < kWindow; ++i) {
      const Slot& s = slots_[(a + i) & mask];
      if (!s.bound) return 0;
      if (s.a == a && s.b == b) return s.bound;
    }
    return 0;
  }

  void put(uint64_t a, uint64_t b64, int bound) {
    const uint32_t b = static_cast<uint32_t>(b64 >> 32);
    if (2 * (entries_ + 1) > static_cast<int64_t>(slots_.size()) &&
        slots_.size() < (size_t{1} << kMaxBits) && !frozen_) {
      grow();
    }
    insert(a, b, bound);
    peak_ = std::max(peak_, entries_);
  }

  int64_t entries() const { return peak_; }
  // Seconds a grow() would take now, at two seconds per GB of the new table: mapping and first
  // touching fresh pages costs 1.1-1.4 s per GB on these machines (measured: 64 MB in 70-90
  // ms, more when the other core is busy), the re-insertion the rest. A search near its time
  // limit stops growing the table rather than pass the limit.
  double grow_seconds() const { return 4.0 * static_cast<double>(bytes()) * 1e-9; }
  void freeze() { frozen_ = true; }
  size_t bytes() const { return slots_.size() * sizeof(Slot); }

 private:
  // 16 bytes, four to a cache line: the key's two hashes keep 64 + 32 bits.
  struct Slot {
    uint64_t a = 0;
    uint32_t b = 0;
    int32_t bound = 0;
  };
  static constexpr size_t kWindow = 8;
  static constexpr int kFirstBits = 12;
  static constexpr int kMaxBits = 24;

  void insert(uint64_t a, uint32_t b, int bound) {
    const size_t mask = slots_.size() - 1;
    for (size_t i = 0; i < kWindow; ++i) {
      Slot& s = slots_[(a + i) & mask];
      if (!s.bound) {
        ++entries_;
        s = {a, b, bound};
        return;
      }
      if (s.a == a && s.b == b) {
        s.bound = bound;
        return;
      }
    }
    slots_[a & mask] = {a, b, bound};  // the window is full: overwrite its first slot
  }

  void grow() {
    PageArray<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    entries_ = 0;
    for (const Slot& s : old) {
      if (s.bound) insert(s.a, s.b, s.bound);
    }
  }

  PageArray<Slot> slots_;
  int64_t entries_ = 0;
  bool frozen_ = false;
  int64_t peak_ = 0;
};

struct Option {
  int type;
  int shape;
};

struct Scratch {
  std::vector<int> pair_sides;
  std::vector<Option> best;
};

struct Undo {
  int cell;
  uint8_t rim;
};

class Search {
 public:
  explicit Search(const Problem& p) : problem_(p) { build(); }

  Answer run();

 private:
  int idx(int x, int y) const { return (y - y0_) * width_ + (x - x0_); }
  bool is_front(int c) const { return front_pos_[c] >= 0; }

  void build();
  void set_rim(int c, uint8_t value);
  void assign_rim(int c, uint8_t value);
  void toggle(uint64_t part);
  size_t lay(int type, int t, const Shape& s);
  void lift(int type, int t, const Shape& s, size_t mark);
  int counting_bound();
  int missing() const;
  bool options_at(int t, std::vector<Option>* out, int* pair_sides) const;
  int count_at(int t, int* pair_sides);
  int count_options(int t, int* pair_sides) const;
  // Call f(type, shape index, shape) for every way a card left can cover front cell t now: its
  // shape fits t's rim, and its other cell is free, inside and fits its own rim. Only the
  // types with a shape fitting t's rim are visited (with at most 64 types: fit_types_).
  template <typename F>
  void each_fit(int t, F f) const {
    const int rim_t = rim_[static_cast<size_t>(t)];
    auto visit = [&](size_t k) {
      const auto& shapes = shapes_[k];
      for (unsigned bits = fit_t_[k][static_cast<size_t>(rim_t)]; bits; bits &= bits - 1) {
        const int i = __builtin_ctz(bits);
        const Shape& s = shapes[static_cast<size_t>(i)];
        const size_t o = static_cast<size_t>(t + kDx[s.side] + kDy[s.side] * width_);
        if (occ_[o] || blocked_[o] || !fits(s.o_open, rim_[o])) continue;
        f(k, i, s);
      }
    };
    if (few_types_) {
      const uint64_t fitting = fit_types_[static_cast<size_t>(rim_t)] & types_left_mask_;
      for (uint64_t ks = fitting; ks; ks &= ks - 1) visit(static_cast<size_t>(__builtin_ctzll(ks)));
    } else {
      for (size_t k = 0; k < shapes_.size(); ++k) {
        if (left_[k]) visit(k);
      }
    }
  }
  int cover_bound(const std::vector<int>& pair_sides);
  int tight_options(const std::vector<int>& pair_sides, std::vector<Option>* best);
  bool opens_in_zone(int t, const Shape& s) const;
  void order_by_exits(int t, std::vector<Option>* options) const;
  bool augment(int i, int stamp);
  int dfs(int budget);
  bool tick();

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
  struct CountSlot {
    uint64_t sig = 0;
    uint64_t types = 0;
    int count = 0;
    int sides = 0;
  };
  static constexpr size_t kCountCache = size_t{1} << 16;
  std::vector<CountSlot> count_cache_ = std::vector<CountSlot>(kCountCache);
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
};

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
  for (int y = 0; y < height_; ++y) {
    for (int x = 0; x < width_; ++x) {
      const int cx = x + x0_, cy = y + y0_;
      const bool border = x == 0 || y == 0 || x == width_ - 1 || y == height_ - 1;
      const bool outside = p.bounded && (cx < p.min_x || cx > p.max_x || cy < p.min_y ||
                                         cy > p.max_y);
      if (border || outside) blocked_[static_cast<size_t>(y) * width_ + x] = 1;
    }
  }
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
  const size_t types = p.types.size();
  few_types_ = types <= 64;
  shapes_.resize(types);
  left_.resize(types);
  laid_.assign(types, 0);
  openings_.resize(types);
  skew_of_.resize(types);
  for (size_t k = 0; k < types; ++k) {
    const int mask = p.types[k].mask;
    shapes_[k] = shapes_of(mask);
    fit_t_.push_back({});
    for (int rim = 0; rim < 256; ++rim) {
      for (size_t i = 0; i < shapes_[k].size(); ++i) {
        if (fits(shapes_[k][i].t_open, rim)) fit_t_[k][static_cast<size_t>(rim)] |= 1u << i;
      }
      if (k < 64 && fit_t_[k][static_cast<size_t>(rim)]) {
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

// Set an empty cell's rim value (logged, to be undone), keeping the front, the exit count and
// the colour balance.
void Search::set_rim(int c, uint8_t value) {
  undo_.push_back({c, rim_[c]});
  assign_rim(c, value);
}

void Search::assign_rim(int c, uint8_t value) {
  const uint8_t old = rim_[c];
  rim_[c] = value;
  const uint64_t at = kRimPart | static_cast<uint64_t>(c) << 8;
  if (old) toggle(at | old);
  if (value) toggle(at | value);
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
// laid out inside. Each part enters as a hash XORed in and out as it changes (two independent
// hashes: 96 bits are compared).
void Search::toggle(uint64_t part) {
  key_a_ ^= mix(part);
  key_b_ ^= mix(part ^ 0xD6E8FEB86659FD93ULL);
}

size_t Search::lay(int type, int t, const Shape& s) {
  const size_t mark = undo_.size();
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
  memo_.prefetch(key_a_);
  path_.push_back({type, t % width_ + x0_ + s.ax, t / width_ + y0_ + s.ay, s.rotation});
  return mark;
}

void Search::lift(int type, int t, const Shape& s, size_t mark) {
  const int o = t + kDx[s.side] + kDy[s.side] * width_;
  toggle(kTypePart | static_cast<uint64_t>(type) << 16 | static_cast<uint64_t>(laid_[type]));
  toggle(kTypePart | static_cast<uint64_t>(type) << 16 | static_cast<uint64_t>(laid_[type] - 1));
  path_.pop_back();
  if (++left_[type] == 1 && type < 64) types_left_mask_ |= uint64_t{1} << type;
  --laid_[type];
  ++classes_[openings_[type]];
  if (skew_of_[type]) ++skews_[skew_of_[type] - 1];
  occ_[t] = 0;
  occ_[o] = 0;
  toggle(kOccPart | static_cast<uint64_t>(t));
  toggle(kOccPart | static_cast<uint64_t>(o));
  while (undo_.size() > mark) {
    const Undo u = undo_.back();
    undo_.pop_back();
    assign_rim(u.cell, u.rim);
  }
}

// How many required groups no card laid belongs to.
int Search::missing() const {
  int out = 0;
  for (const auto& group : problem_.required) {
    bool met = false;
    for (int k : group) met = met || laid_[static_cast<size_t>(k)] > 0;
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

// How many options front cell t has (options_at without the list), and their pair sides:
// through a cache keyed by what decides them, the cell's rim value, its four neighbours' (or
// that they are taken) and the types left.
int Search::count_at(int t, int* pair_sides) {
  if (blocked_[static_cast<size_t>(t)]) return 0;
  const bool cached = shapes_.size() <= 64;
  uint64_t sig = 0;
  CountSlot* slot = nullptr;
  if (cached) {
    sig = rim_[static_cast<size_t>(t)];
    for (int side = 0; side < kSides; ++side) {
      const size_t nb = static_cast<size_t>(t + kDx[side] + kDy[side] * width_);
      const uint64_t v = (occ_[nb] || blocked_[nb]) ? 0x100 : rim_[nb];
      sig = sig << 9 | v;
    }
    sig |= uint64_t{1} << 63;  // never 0: an empty slot holds 0
    slot = &count_cache_[(mix(sig ^ types_left_mask_) >> 40) & (kCountCache - 1)];
    if (slot->sig == sig && slot->types == types_left_mask_) {
      *pair_sides = slot->sides;
      return slot->count;
    }
  }
  const int count = count_options(t, pair_sides);
  if (slot != nullptr) *slot = {sig, types_left_mask_, count, *pair_sides};
  return count;
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
  const size_t n = front_.size();
  auto own = [this](int cell, int owner) {
    uint8_t& count = zone_count_[static_cast<size_t>(cell)];
    if (count < 3) zone_owner_[static_cast<size_t>(cell)][count] = owner;
    if (count < 255) ++count;
  };
  for (size_t i = 0; i < n; ++i) {
    const int t = front_[i];
    own(t, t);
    for (int side = 0; side < kSides; ++side) {
      if (pair_sides[i] >> side & 1) own(t + kDx[side] + kDy[side] * width_, t);
    }
  }
  int best_cell = -1;
  std::vector<Option>& options = options_;
  for (size_t i = 0; i < n && best_cell != -2; ++i) {
    const int t = front_[i];
    options_at(t, &options, nullptr);
    size_t kept = 0;
    for (const Option& o : options) {
      const Shape& s = shapes_[static_cast<size_t>(o.type)][static_cast<size_t>(o.shape)];
      if (opens_in_zone(t, s)) options[kept++] = o;
    }
    options.resize(kept);
    if (kept == 0) {
      best_cell = -2;
    } else if (best_cell < 0 || kept < best->size()) {
      best->swap(options);
      best_cell = t;
    }
  }
  for (size_t i = 0; i < n; ++i) {
    const int t = front_[i];
    zone_count_[static_cast<size_t>(t)] = 0;
    for (int side = 0; side < kSides; ++side) {
      zone_count_[static_cast<size_t>(t + kDx[side] + kDy[side] * width_)] = 0;
    }
  }
  return best_cell < 0 ? -1 : best_cell;
}

// Whether a card of shape s covering front cell t opens only onto occupied cells or the zone
// of a front cell other than t and the card's other cell (see tight_options).
bool Search::opens_in_zone(int t, const Shape& s) const {
  const int o = t + kDx[s.side] + kDy[s.side] * width_;
  const int squares[2] = {t, o};
  const int opens[2] = {s.t_open, s.o_open};
  for (int i = 0; i < 2; ++i) {
    for (int side = 0; side < kSides; ++side) {
      if (!(opens[i] >> side & 1)) continue;
      const int nb = squares[i] + kDx[side] + kDy[side] * width_;
      if (occ_[static_cast<size_t>(nb)]) continue;
      const uint8_t count = zone_count_[static_cast<size_t>(nb)];
      bool served = count >= 3;
      for (int k = 0; k < count && k < 3 && !served; ++k) {
        const int u = zone_owner_[static_cast<size_t>(nb)][static_cast<size_t>(k)];
        served = u != t && u != o;
      }
      if (!served) return false;
    }
  }
  return true;
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

// Count a node; false once a limit has run out.
bool Search::tick() {
  ++nodes_;
  if (problem_.node_limit > 0 && nodes_ > problem_.node_limit) {
    stopped_ = Stop::kNodes;
    return false;
  }
  if ((nodes_ & 1023) == 0) {
    if (problem_.cancel != nullptr && *problem_.cancel) {
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

// Search the node with `budget` cards left: kFound (the closure in path_), or a proven lower
// bound above the budget on the cards any closure from here needs, or kStopped.
int Search::dfs(int budget) {
  if (!tick()) return kStopped;
  if (front_.empty()) {
    // Closed; without a required card it can take no more cards and never reaches the goal.
    return (!problem_.required.empty() && missing()) ? kNever : kFound;
  }
  // The counting bounds first: cheap, and a node they rule out needs no memo (they would
  // rule it out again).
  int low = counting_bound();
  if (low > budget) return low;
  // (Nodes one card from the budget's end are cheaper to search again than to look up.)
  const bool memo = budget >= kMemoBudget;
  const int known = memo ? memo_.get(key_a_, key_b_) : 0;
  if (known > budget) return known;
  low = std::max(low, known);
  // Every front cell's options; the cell with the fewest is the one branched on. (Buffers per
  // depth, sized once in build(): no allocation per node.)
  const size_t n = front_.size();
  Scratch& sc = scratch_[path_.size()];
  std::vector<int>& pair_sides = sc.pair_sides;
  std::vector<Option>& best = sc.best;
  pair_sides.assign(n, 0);
  best.clear();
  int best_cell = -1;
  int best_count = 0;
  for (size_t i = 0; i < n; ++i) {
    const int t = front_[i];
    const int count = count_at(t, &pair_sides[i]);
    if (!count) {
      if (memo) memo_.put(key_a_, key_b_, kNever);
      return kNever;
    }
    if (best_cell < 0 || count < best_count) {
      best_count = count;
      best_cell = t;
    }
  }
  int cover = 1;
  if (n > 1) {
    cover = cover_bound(pair_sides);
    low = std::max(low, cover);
    if (low > budget) {
      if (memo) memo_.put(key_a_, key_b_, low);
      return low;
    }
  }
  int result = kNever;
  if (cover == budget) {
    // Tight: every card still laid covers a front cell (see tight_options). The options it
    // drops may serve a larger budget, so the bound proven here is at most budget + 1.
    best_cell = tight_options(pair_sides, &best);
    if (best_cell < 0) {
      if (memo) memo_.put(key_a_, key_b_, budget + 1);
      return budget + 1;
    }
    result = budget + 1;
  } else {
    options_at(best_cell, &best, nullptr);
  }
  order_by_exits(best_cell, &best);
  for (const Option& option : best) {
    const Shape& s = shapes_[static_cast<size_t>(option.type)][static_cast<size_t>(option.shape)];
    const size_t mark = lay(option.type, best_cell, s);
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

Answer Search::run() {
  const Problem& p = problem_;
  Answer answer;
  if (p.time_limit > 0) {
    deadline_ = std::chrono::steady_clock::now() +
                std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                    std::chrono::duration<double>(p.time_limit));
  }
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
  answer.nodes = nodes_;
  answer.memo_entries = memo_.entries();
  answer.memo_bytes = static_cast<int64_t>(memo_.bytes());
  return answer;
}

}  // namespace

Answer solve(const Problem& problem) {
  Search search(problem);
  return search.run();
}

}  // namespace closure
