//! The checksums a cell is checked by: of a `ser` output (in order, or of its bytes' counts for a
//! library whose member order changes between processes), and of a decoded value as serde walks
//! it.

use schema::protocol::fnv1a;

/// The checksum of a `ser` output.
pub fn output_checksum(bytes: &[u8]) -> u64 {
    fnv1a(bytes)
}

/// A checksum of a `ser` output that does not depend on the order of its bytes (FNV-1a of how
/// many times each byte value occurs): the same for any order of an object's members, changed
/// by any value written differently in length or content (not by a permutation of equal bytes).
pub fn unordered_checksum(bytes: &[u8]) -> u64 {
    let mut counts = [0u64; 256];
    for &b in bytes {
        counts[b as usize] += 1;
    }
    let mut h = schema::protocol::FNV_OFFSET;
    for count in counts {
        h = schema::protocol::fnv1a_from(h, &count.to_le_bytes());
    }
    h
}

/// A hash of a value's structure as serde walks it (postcard's encoding fed to FNV-1a, nothing
/// stored): the checksum of a decoded value, with no JSON writer linked.
pub fn digest_of<T: serde::Serialize + ?Sized>(value: &T) -> u64 {
    struct Fnv(u64);
    impl postcard::ser_flavors::Flavor for Fnv {
        type Output = u64;
        fn try_push(&mut self, byte: u8) -> postcard::Result<()> {
            self.0 = schema::protocol::fnv1a_from(self.0, &[byte]);
            Ok(())
        }
        fn finalize(self) -> postcard::Result<u64> {
            Ok(self.0)
        }
    }
    postcard::serialize_with_flavor(value, Fnv(schema::protocol::FNV_OFFSET)).unwrap_or(0)
}
