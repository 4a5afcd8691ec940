// The two forms of the World calls that list ids or records: a std::vector
// (allocates) and a caller's buffer (does not). Each call walks its items
// once through a visitor; these sinks give the two forms from that walk.
#pragma once

#include <algorithm>
#include <cstddef>
#include <ranges>
#include <span>
#include <vector>

namespace carom::detail {

/// Appends every item to a vector.
template <class T>
struct VectorSink {
    std::vector<T>& out;
    void operator()(const T& v) { out.push_back(v); }
};

/// Writes the first out.size() items into the buffer and counts them all.
template <class T>
struct SpanSink {
    std::span<T> out;
    int count = 0;
    void operator()(const T& v) {
        if (size_t(count) < out.size()) out[size_t(count)] = v;
        ++count;
    }
};

/// The vector form of a listing: visit(sink) calls sink(item) for each item.
template <class T, class Visit>
std::vector<T> listAll(Visit&& visit) {
    std::vector<T> out;
    VectorSink<T> sink{out};
    visit(sink);
    return out;
}

/// The buffer form: the number of items there are (more than out.size()
/// when the buffer is short; the first out.size() are written).
template <class T, class Visit>
int listInto(std::span<T> out, Visit&& visit) {
    SpanSink<T> sink{out};
    visit(sink);
    return sink.count;
}

/// The live records' ids in creation order (records[i].alive,
/// records[i].creationSeq; idOf(i) makes the id): the first out.size() of
/// them, and the number of live records.
template <class Id, class Records, class IdOf>
int liveInCreationOrder(const Records& records, IdOf idOf, std::span<Id> out) {
    auto live = std::views::iota(size_t{0}, records.size()) |
                std::views::filter([&](size_t i) { return bool(records[i].alive); });
    const int count = int(std::ranges::distance(live));
    std::ranges::partial_sort_copy(live | std::views::transform([&](size_t i) { return idOf(int(i)); }), out,
                                   [&](const Id& a, const Id& b) {
                                       return records[size_t(a.index)].creationSeq <
                                              records[size_t(b.index)].creationSeq;
                                   });
    return count;
}

/// liveInCreationOrder as a vector.
template <class Id, class Records, class IdOf>
std::vector<Id> liveInCreationOrder(const Records& records, IdOf idOf) {
    std::vector<Id> out(size_t(liveInCreationOrder<Id>(records, idOf, std::span<Id>{})));
    liveInCreationOrder<Id>(records, idOf, std::span<Id>(out));
    return out;
}

}  // namespace carom::detail
