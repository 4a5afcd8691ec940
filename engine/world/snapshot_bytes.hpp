// The frame of a snapshot's byte form (snapshot.cpp): a header of
// kSnapshotHeaderSize bytes, the last eight of them the checksum of the
// payload that follows.
#pragma once

#include <cstddef>
#include <cstdint>

namespace carom::detail {

/// "CAROMSNP", u32 format version, u32 0, u64 layout signature, u64 payload
/// size, u64 checksum of the payload.
inline constexpr std::size_t kSnapshotHeaderSize = 8 + 4 + 4 + 8 + 8 + 8;
/// Where the header holds the payload's checksum.
inline constexpr std::size_t kSnapshotChecksumOffset = kSnapshotHeaderSize - 8;

/// The payload's checksum: an integrity check against truncation and
/// corruption, not authentication.
uint64_t snapshotChecksum(const uint8_t* p, std::size_t n);

}  // namespace carom::detail
