//! [`named_enum!`](crate::named_enum): the one way every enum of the crates gets its name table.
//!
//! Records, configurations, command-line options, C messages and Python all spell the
//! values of these enums by name; the macro declares each value once with its name and
//! generates `ALL` (every value, in declaration order), `name()`, `from_name()` and `doc()`
//! (the value's documentation comment, which the C ABI's generated enums repeat).
//!
//! ```
//! carcassonne::named_enum! {
//!     /// A colour.
//!     #[derive(Copy, Clone, Debug, PartialEq, Eq)]
//!     pub enum Colour {
//!         /// Red.
//!         Red = "red",
//!         /// Blue.
//!         Blue = "blue",
//!     }
//! }
//! assert_eq!(Colour::ALL, [Colour::Red, Colour::Blue]);
//! assert_eq!(Colour::Blue.name(), "blue");
//! assert_eq!(Colour::from_name("red"), Some(Colour::Red));
//! assert_eq!(Colour::from_name("green"), None);
//! assert_eq!(Colour::Blue.doc(), " Blue.\n");
//! ```

/// Whether two names are equal, usable in a constant (`str`'s `==` is not `const`): the
/// compile-time lookups of names (figure keys, state columns, observation rows) use it.
///
/// ```
/// const SAME: bool = carcassonne::names::same_name("big-follower", "big-follower");
/// const OTHER: bool = carcassonne::names::same_name("follower", "big-follower");
/// assert!(SAME && !OTHER);
/// ```
pub const fn same_name(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// An enum declared with [`named_enum!`](crate::named_enum): its values and their names,
/// for code that works on any of them (rule switches, for one).
pub trait Named: Copy + 'static {
    /// Every value, in declaration order.
    fn all() -> &'static [Self];
    /// The value's name.
    fn name(self) -> &'static str;
    /// The value's documentation comment (see the macro's `doc()`).
    fn doc(self) -> &'static str;

    /// The value with this name.
    fn with_name(name: &str) -> Option<Self> {
        Self::all().iter().copied().find(|v| v.name() == name)
    }

    /// Every name, in declaration order, joined by `, ` (for messages that list the
    /// allowed values).
    fn names() -> String {
        let names: Vec<&str> = Self::all().iter().map(|v| v.name()).collect();
        names.join(", ")
    }
}

/// Declares an enum whose values have names; see the [module docs](crate::names).
#[macro_export]
macro_rules! named_enum {
    (
        $(#[$m:meta])*
        $vis:vis enum $name:ident {
            $($(#[$($vm:tt)*])* $variant:ident $(($disc:expr))? = $text:literal),+ $(,)?
        }
    ) => {
        $(#[$m])*
        $vis enum $name {
            $($(#[$($vm)*])* $variant $(= $disc)?),+
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: [$name; [$($text),+].len()] = [$($name::$variant),+];

            /// The value's name (in records, configurations, options and messages).
            pub const fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }

            /// The value with this name.
            pub fn from_name(name: &str) -> ::core::option::Option<$name> {
                Self::ALL.into_iter().find(|v| v.name() == name)
            }

            /// The value's documentation comment as written: each line followed by a
            /// newline, with the space after `///` kept.
            pub const fn doc(self) -> &'static str {
                match self {
                    $($name::$variant => concat!($($crate::named_enum!(@doc $($vm)*)),*)),+
                }
            }
        }

        impl $crate::names::Named for $name {
            fn all() -> &'static [$name] {
                &$name::ALL
            }
            fn name(self) -> &'static str {
                $name::name(self)
            }
            fn doc(self) -> &'static str {
                $name::doc(self)
            }
        }
    };
    (@doc doc = $line:literal) => { concat!($line, "\n") };
    (@doc $($other:tt)*) => { "" };
}
