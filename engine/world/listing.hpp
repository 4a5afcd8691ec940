// The two forms of the World calls that list ids or records: a std::vector
// (allocates) and a caller's buffer (does not). Each call walks its items
// once through a visitor; these sinks give the two forms from that walk.
#pragma once

#include <algorithm>
#include <cstddef>
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
    // The out.size() earliest kept as a max-heap on the creation sequence,
    // then sorted: O(n log out.size()), no allocation.
    const auto later = [&](const Id& a, const Id& b) {
        return records[size_t(a.index)].creationSeq < records[size_t(b.index)].creationSeq;
    };
    int count = 0;
    size_t held = 0;
    for (size_t i = 0; i < records.size(); ++i) {
        if (!records[i].alive) continue;
        ++count;
        const Id id = idOf(int(i));
        if (held < out.size()) {
            out[held++] = id;
            std::push_heap(out.begin(), out.begin() + std::ptrdiff_t(held), later);
        } else if (held > 0 && later(id, out[0])) {
            std::pop_heap(out.begin(), out.begin() + std::ptrdiff_t(held), later);
            out[held - 1] = id;
            std::push_heap(out.begin(), out.begin() + std::ptrdiff_t(held), later);
        }
    }
    std::sort_heap(out.begin(), out.begin() + std::ptrdiff_t(held), later);
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
