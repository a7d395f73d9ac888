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

/// A hash of a value's structure as serde walks it (FNV-1a of a tag per value, its numbers' bytes,
/// its strings and sequences with their lengths, nothing stored; see [`crate::walk`]): the
/// checksum of a decoded value, with no JSON writer linked. A map's entries are hashed apart and
/// combined in sorted order, so a library that iterates an object's members in an order of its
/// own (simd-json's trees: a hash map seeded at random for every object of more than 32 members)
/// has the same checksum in every process and on every call.
pub fn digest_of<T: serde::Serialize + ?Sized>(value: &T) -> u64 {
    crate::walk::hash(value)
}

#[cfg(test)]
mod tests {
    use crate::{registry, Op, Style};

    /// A document with an object of 40 members (simd-json's trees keep one above 32 in a map
    /// seeded at random), in the document's order and reversed.
    fn wide_objects() -> (Vec<u8>, Vec<u8>) {
        let members: Vec<String> = (0..40)
            .map(|i| format!("\"m{i}\":[{i},\"v{i}\"]"))
            .collect();
        let reversed: Vec<String> = members.iter().rev().cloned().collect();
        let object = |m: &[String]| format!("{{\"wide\":{{{}}},\"n\":1.5}}", m.join(","));
        (
            object(&members).into_bytes(),
            object(&reversed).into_bytes(),
        )
    }

    /// What the preflight relies on: the runner's checksum of a `de` cell is what every child
    /// computes again, on every call, in every process; and it is the same for an object's
    /// members in any order. simd-json's DOMs failed it before the walk sorted a map's entries
    /// (their curve children on twitter and citm_catalog were refused as `wrong-checksum`).
    #[test]
    fn every_dom_codec_checksums_a_wide_object_alike_on_every_call_and_in_any_order() {
        let (document, reversed) = wide_objects();
        let mut checked = 0;
        for codec in registry() {
            if codec.style() != Style::Dom {
                continue;
            }
            let once = |input: &[u8]| codec.expected_output(Op::De, None, input).unwrap().checksum;
            let first = once(&document);
            for _ in 0..3 {
                assert_eq!(once(&document), first, "{} on a second call", codec.id());
            }
            assert_eq!(
                once(&reversed),
                first,
                "{} with members reversed",
                codec.id()
            );
            checked += 1;
        }
        assert!(checked >= 5, "only {checked} DOM codecs checked");
    }
}
