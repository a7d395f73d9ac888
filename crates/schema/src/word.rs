//! How a word of the vocabulary is declared (`word!`): an enum whose every variant has one name
//! in files and on command lines. `words` and `phases` declare theirs with it.

/// A word with a fixed set of names: `name()`, `parse()` (whose error lists the valid names),
/// `ALL`, `Display`, `FromStr`, serde as the name, and order by name.
macro_rules! word {
    ($(#[$meta:meta])* $vis:vis enum $Word:ident ($what:literal) {
        $($(#[$vmeta:meta])* $Variant:ident = $name:literal,)+
    }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        $vis enum $Word {
            $($(#[$vmeta])* $Variant,)+
        }

        impl $Word {
            /// Every value, in declaration order.
            pub const ALL: [$Word; [$($name),+].len()] = [$($Word::$Variant),+];

            /// The name written in files and on command lines.
            pub fn name(self) -> &'static str {
                match self {
                    $($Word::$Variant => $name,)+
                }
            }

            /// The value named `text`; the error names it and lists the valid names.
            pub fn parse(text: &str) -> Result<$Word, String> {
                match text {
                    $($name => Ok($Word::$Variant),)+
                    other => Err(format!(
                        concat!("unknown ", $what, " `{}`; valid: {}"),
                        ::text::for_terminal(&::text::clip(other, 40), false),
                        [$($name),+].join(", ")
                    )),
                }
            }
        }

        impl ::std::fmt::Display for $Word {
            fn fmt(&self, f: &mut ::std::fmt::Formatter) -> ::std::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl ::std::str::FromStr for $Word {
            type Err = String;
            fn from_str(text: &str) -> Result<$Word, String> {
                $Word::parse(text)
            }
        }

        impl Ord for $Word {
            fn cmp(&self, other: &$Word) -> ::std::cmp::Ordering {
                self.name().cmp(other.name())
            }
        }

        impl PartialOrd for $Word {
            fn partial_cmp(&self, other: &$Word) -> Option<::std::cmp::Ordering> {
                Some(self.cmp(other))
            }
        }

        impl ::serde::Serialize for $Word {
            fn serialize<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.name())
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $Word {
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> Result<$Word, D::Error> {
                let text = <String as ::serde::Deserialize>::deserialize(d)?;
                $Word::parse(&text).map_err(::serde::de::Error::custom)
            }
        }
    };
}
pub(crate) use word;
