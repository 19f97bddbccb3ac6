// The memo of the compiled closure search: proven lower bounds by the node's key (see
// search.cpp), in an open-addressed table on pages of its own.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <new>
#include <utility>

#include <sys/mman.h>

namespace closure {

inline uint64_t mix(uint64_t x) {
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

}  // namespace closure
