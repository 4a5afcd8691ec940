// A list of ints that keeps up to kInline of them inside the object, in the
// 24 bytes a std::vector<int> takes, and moves to the heap only beyond that.
//
// Why: a body's shape list was a std::vector, so every walk over a body's
// shapes (the proxies' boxes after each step, the continuous stage's fast
// bodies) went body record -> a separate small heap block -> shape record.
// The heap block was the cache miss: in a dense pile, loading the first
// shape index dominated those walks. Almost every body has at most 4 shapes, so the
// indices now sit in the body record, next to the fields the walk already read.
#pragma once

#include <cstddef>
#include <cstring>
#include <utility>

namespace carom::detail {

class SmallIntList {
   public:
    static constexpr int kInline = 4;

    SmallIntList() = default;
    SmallIntList(const SmallIntList& o) { assign(o.begin(), o.end()); }
    SmallIntList(SmallIntList&& o) noexcept : size_(o.size_), cap_(o.cap_) {
        std::memcpy(&u_, &o.u_, sizeof(u_));  // the inline ints, or the heap pointer
        o.size_ = 0;
        o.cap_ = kInline;
    }
    SmallIntList& operator=(const SmallIntList& o) {
        if (this != &o) assign(o.begin(), o.end());
        return *this;
    }
    SmallIntList& operator=(SmallIntList&& o) noexcept {
        if (this != &o) {
            release();
            size_ = o.size_;
            cap_ = o.cap_;
            std::memcpy(&u_, &o.u_, sizeof(u_));
            o.size_ = 0;
            o.cap_ = kInline;
        }
        return *this;
    }
    ~SmallIntList() { release(); }

    int* data() { return cap_ > kInline ? u_.heap : u_.inl; }
    const int* data() const { return cap_ > kInline ? u_.heap : u_.inl; }
    int* begin() { return data(); }
    int* end() { return data() + size_; }
    const int* begin() const { return data(); }
    const int* end() const { return data() + size_; }
    size_t size() const { return size_t(size_); }
    bool empty() const { return size_ == 0; }
    int& operator[](size_t i) { return data()[i]; }
    int operator[](size_t i) const { return data()[i]; }
    int& back() { return data()[size_ - 1]; }
    int back() const { return data()[size_ - 1]; }

    void push_back(int x) {
        if (size_ == cap_) reserve(size_t(cap_) * 2);
        data()[size_++] = x;
    }
    void pop_back() { --size_; }
    void clear() { size_ = 0; }
    void reserve(size_t n) {
        if (n <= size_t(cap_)) return;
        int* heap = new int[n];
        if (size_ > 0) std::memcpy(heap, data(), size_t(size_) * sizeof(int));
        release();
        u_.heap = heap;
        cap_ = int(n);
    }
    /// New elements are zero.
    void resize(size_t n) {
        reserve(n);
        for (size_t i = size_t(size_); i < n; ++i) data()[i] = 0;
        size_ = int(n);
    }
    void assign(const int* first, const int* last) {
        const size_t n = size_t(last - first);
        clear();
        reserve(n);
        if (n > 0) std::memmove(data(), first, n * sizeof(int));
        size_ = int(n);
    }

   private:
    void release() {
        if (cap_ > kInline) delete[] u_.heap;
        cap_ = kInline;
    }

    union Storage {
        int inl[kInline];
        int* heap;
    } u_{};
    int size_ = 0;
    int cap_ = kInline;  ///< > kInline: the ints are on the heap
};

static_assert(sizeof(SmallIntList) == 24);

}  // namespace carom::detail
