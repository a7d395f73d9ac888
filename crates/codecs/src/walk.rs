//! The walk a decoded value's checksum is made of: a serde serializer that feeds FNV-1a a tag
//! per value, whole numbers and floats as their bytes, strings and sequences with their lengths,
//! and each map as the sorted hashes of its entries, so that a map's checksum does not depend on
//! the order its library iterates it in. simd-json's trees keep an object of more than 32
//! members in a hash map seeded at random for every map, so the same document walked in
//! iteration order hashed differently in every process and in every call (issue 51).

use schema::protocol::{fnv1a_from, FNV_OFFSET};
use serde::ser::{self, Serialize};
use std::fmt;

/// The hash of `value`'s walk (0 if its `Serialize` fails, which no decoded value does).
pub fn hash<T: Serialize + ?Sized>(value: &T) -> u64 {
    let mut walk = Walk(FNV_OFFSET);
    match value.serialize(&mut walk) {
        Ok(()) => walk.0,
        Err(_) => 0,
    }
}

/// The hash so far.
struct Walk(u64);

impl Walk {
    fn feed(&mut self, tag: u8, bytes: &[u8]) {
        self.0 = fnv1a_from(fnv1a_from(self.0, &[tag]), bytes);
    }

    fn len(&mut self, tag: u8, len: usize) {
        self.feed(tag, &(len as u64).to_le_bytes());
    }
}

/// A `Serialize` that failed: only a value's own `Serialize` reports one.
#[derive(Debug)]
pub struct WalkError(String);

impl fmt::Display for WalkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for WalkError {}

impl ser::Error for WalkError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        WalkError(msg.to_string())
    }
}

/// A map being walked: the hash of each entry (its key's walk, then its value's, from the
/// offset basis), fed to the parent sorted when the map ends.
struct Entries<'w> {
    parent: &'w mut Walk,
    entries: Vec<u64>,
    entry: Walk,
}

macro_rules! number {
    ($($method:ident: $ty:ty = $tag:expr;)*) => {$(
        fn $method(self, v: $ty) -> Result<(), WalkError> {
            self.feed($tag, &v.to_le_bytes());
            Ok(())
        }
    )*};
}

impl<'w> ser::Serializer for &'w mut Walk {
    type Ok = ();
    type Error = WalkError;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Entries<'w>;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    number! {
        serialize_i8: i8 = b'i';
        serialize_i16: i16 = b'i';
        serialize_i32: i32 = b'i';
        serialize_i64: i64 = b'i';
        serialize_i128: i128 = b'I';
        serialize_u8: u8 = b'u';
        serialize_u16: u16 = b'u';
        serialize_u32: u32 = b'u';
        serialize_u64: u64 = b'u';
        serialize_u128: u128 = b'U';
        serialize_f32: f32 = b'g';
        serialize_f64: f64 = b'f';
    }

    fn serialize_bool(self, v: bool) -> Result<(), WalkError> {
        self.feed(b'b', &[u8::from(v)]);
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<(), WalkError> {
        self.feed(b'c', &u32::from(v).to_le_bytes());
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<(), WalkError> {
        self.len(b's', v.len());
        self.0 = fnv1a_from(self.0, v.as_bytes());
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), WalkError> {
        self.len(b'B', v.len());
        self.0 = fnv1a_from(self.0, v);
        Ok(())
    }
    fn serialize_none(self) -> Result<(), WalkError> {
        self.feed(b'0', &[]);
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), WalkError> {
        self.feed(b'1', &[]);
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), WalkError> {
        self.feed(b'n', &[]);
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), WalkError> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        index: u32,
        _variant: &'static str,
    ) -> Result<(), WalkError> {
        self.feed(b'v', &index.to_le_bytes());
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), WalkError> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        index: u32,
        _variant: &'static str,
        value: &T,
    ) -> Result<(), WalkError> {
        self.feed(b'v', &index.to_le_bytes());
        value.serialize(self)
    }
    /// A sequence of unknown length is closed by its own tag instead.
    fn serialize_seq(self, len: Option<usize>) -> Result<Self, WalkError> {
        match len {
            Some(len) => self.len(b'[', len),
            None => self.feed(b'(', &[]),
        }
        Ok(self)
    }
    fn serialize_tuple(self, len: usize) -> Result<Self, WalkError> {
        self.len(b't', len);
        Ok(self)
    }
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Self, WalkError> {
        self.serialize_tuple(len)
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        index: u32,
        _variant: &'static str,
        len: usize,
    ) -> Result<Self, WalkError> {
        self.feed(b'v', &index.to_le_bytes());
        self.serialize_tuple(len)
    }
    fn serialize_map(self, len: Option<usize>) -> Result<Entries<'w>, WalkError> {
        Ok(Entries {
            parent: self,
            entries: Vec::with_capacity(len.unwrap_or(0)),
            entry: Walk(FNV_OFFSET),
        })
    }
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<Self, WalkError> {
        self.serialize_tuple(len)
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        index: u32,
        _variant: &'static str,
        len: usize,
    ) -> Result<Self, WalkError> {
        self.serialize_tuple_variant("", index, "", len)
    }
}

/// Sequences, tuples and structs are walked in their order: it is part of their meaning (a
/// struct's fields come in its declaration's order in every process).
macro_rules! in_order {
    ($($trait:ident :: $method:ident $(($key:ident))?;)*) => {$(
        impl ser::$trait for &mut Walk {
            type Ok = ();
            type Error = WalkError;
            fn $method<T: Serialize + ?Sized>(
                &mut self,
                $($key: &'static str,)?
                value: &T,
            ) -> Result<(), WalkError> {
                $(let _ = $key;)?
                value.serialize(&mut **self)
            }
            fn end(self) -> Result<(), WalkError> {
                self.feed(b')', &[]);
                Ok(())
            }
        }
    )*};
}

in_order! {
    SerializeSeq::serialize_element;
    SerializeTuple::serialize_element;
    SerializeTupleStruct::serialize_field;
    SerializeTupleVariant::serialize_field;
    SerializeStruct::serialize_field(key);
    SerializeStructVariant::serialize_field(key);
}

impl ser::SerializeMap for Entries<'_> {
    type Ok = ();
    type Error = WalkError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), WalkError> {
        self.entry = Walk(FNV_OFFSET);
        key.serialize(&mut self.entry)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), WalkError> {
        value.serialize(&mut self.entry)?;
        self.entries.push(self.entry.0);
        Ok(())
    }
    fn end(mut self) -> Result<(), WalkError> {
        self.entries.sort_unstable();
        self.parent.len(b'{', self.entries.len());
        for entry in &self.entries {
            self.parent.0 = fnv1a_from(self.parent.0, &entry.to_le_bytes());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::hash;
    use std::collections::{BTreeMap, HashMap};

    #[test]
    fn a_map_hashes_alike_in_any_order_and_unlike_when_an_entry_differs() {
        let members: Vec<(String, u64)> = (0..40).map(|i| (format!("k{i}"), i)).collect();
        let sorted: BTreeMap<_, _> = members.iter().cloned().collect();
        // std's HashMap iterates in an order seeded at random for every map.
        let hashed: HashMap<_, _> = members.iter().rev().cloned().collect();
        assert_eq!(hash(&sorted), hash(&hashed));
        let mut changed = sorted.clone();
        changed.insert("k3".to_string(), 4);
        assert_ne!(hash(&sorted), hash(&changed));
        let mut renamed = sorted.clone();
        renamed.remove("k3");
        renamed.insert("k3 ".to_string(), 3);
        assert_ne!(hash(&sorted), hash(&renamed));
    }

    #[test]
    fn order_lengths_and_types_still_tell_values_apart() {
        // A sequence's order is part of its meaning.
        assert_ne!(hash(&[1u64, 2]), hash(&[2u64, 1]));
        // Strings carry their lengths: ["ab", "c"] is not ["a", "bc"].
        assert_ne!(hash(&["ab", "c"]), hash(&["a", "bc"]));
        // A whole number is not the float of the same bits, nor a signed one a string.
        assert_ne!(hash(&1u64), hash(&f64::from_bits(1)));
        assert_ne!(hash(&1i64), hash(&1u64));
        assert_ne!(hash(&Some(())), hash(&None::<()>));
        // A key moved into a nested map is another value.
        let flat: BTreeMap<&str, BTreeMap<&str, u8>> =
            [("a", BTreeMap::from([("b", 1)])), ("c", BTreeMap::new())].into();
        let moved: BTreeMap<&str, BTreeMap<&str, u8>> =
            [("a", BTreeMap::new()), ("c", BTreeMap::from([("b", 1)]))].into();
        assert_ne!(hash(&flat), hash(&moved));
    }

    #[test]
    fn the_walk_is_a_known_answer() {
        // FNV-1a of the tag 'u' and 1u64's eight little-endian bytes, worked out by hand with
        // the same function: what a change of the walk's encoding would break.
        let by_hand = schema::protocol::fnv1a(&[b'u', 1, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(hash(&1u64), by_hand);
        let map: BTreeMap<&str, u8> = [("a", 1)].into();
        let entry = schema::protocol::fnv1a(&[b's', 1, 0, 0, 0, 0, 0, 0, 0, b'a', b'u', 1]);
        let mut expected = schema::protocol::fnv1a(&[b'{', 1, 0, 0, 0, 0, 0, 0, 0]);
        expected = schema::protocol::fnv1a_from(expected, &entry.to_le_bytes());
        assert_eq!(hash(&map), expected);
    }
}
