/// Constants of the `.tippack` binary format (see docs/bytecode.md, "Pack layout").
package enum PackFormat {
    /// `\x89 T I P \r \n \x1a \n`: the high-bit byte catches 7-bit transfers, CR LF and LF catch
    /// line-ending conversion, `\x1a` stops `type` on DOS (the PNG scheme).
    package static let magic: [UInt8] = [0x89, 0x54, 0x49, 0x50, 0x0D, 0x0A, 0x1A, 0x0A]
    /// The format version this runtime writes: 2 since tip keys, localized texts and tips about
    /// tips, whose data lives in tables a format-1 pack simply lacks.
    package static let version: UInt32 = 2
    /// The format versions this runtime reads: a format-1 pack loads and runs as before.
    package static let readableVersions: ClosedRange<UInt32> = 1...2
    /// Written little-endian; reads back differently on a byte-order mismatch.
    package static let testInteger: Int64 = 0x0102_0304_0506_0708
    /// Written as IEEE-754 binary64 bits; reads back differently on a float-format mismatch.
    package static let testDouble: Double = 370.5
    /// Header size in bytes: magic, version, flags, test integer, test double, body length, CRC-32.
    package static let headerSize = 40
    /// Header flags. None is defined yet; bits were reserved for format 2's features (tip keys,
    /// localized texts, tips about tips), which tables hold instead. A reader refuses flags it does not know.
    package static let knownFlags: UInt32 = 0
    /// "No string" in an optional string-index slot.
    package static let noString: UInt32 = 0xFFFF_FFFF

    /// Table kinds. A kind with `optionalTableBit` set may be skipped by a reader that does not
    /// know it; an unknown kind without it is refused. The tables a pack's version requires
    /// appear once each, in ascending kind order (the writer always writes every one).
    package enum TableKind: UInt16, Sendable, CaseIterable {
        case strings = 1, settings = 2, parameters = 3, events = 4, tips = 5, groups = 6
        /// The keys of keyed tips.
        case tipKeys = 7
        /// Localized and templated texts.
        case texts = 8

        /// The first format version in which this table is required; a pack of an earlier
        /// version lacks it (and means what the table's absence means: no keys, plain texts).
        package var introducedIn: UInt32 {
            switch self {
            case .strings, .settings, .parameters, .events, .tips, .groups: 1
            case .tipKeys, .texts: 2
            }
        }
    }
    package static let optionalTableBit: UInt16 = 0x8000
    /// The optional producer table: the UTF-8 name and version of the program that wrote the
    /// pack (`tipc 0.1.0`). Readers that do not know it skip it; it never changes what a pack means.
    package static let producerTableKind: UInt16 = optionalTableBit | 1
    /// The optional tip goals table: count, then (tip index u32, event index u32, window in
    /// milliseconds i64) per tip with a goal, tips ascending. Written only when a tip has a goal,
    /// so packs without goals are unchanged; readers that do not know it skip it (a goal only
    /// feeds analytics, never whether a tip displays).
    package static let tipGoalsTableKind: UInt16 = optionalTableBit | 2
    /// The optional experiments table (layout in docs/bytecode.md, "experiments"): each
    /// experiment's name, tip, salt, goal and arms (weight, hidden, overridden texts, image and
    /// actions). Written only when the program declares an experiment, so packs without one are
    /// unchanged; readers that do not know it skip it and show every tip as declared.
    package static let experimentsTableKind: UInt16 = optionalTableBit | 3
    /// The longest producer string a reader accepts, in bytes.
    package static let maximumProducerLength = 256

    /// Implementation limits, checked by the loader and by the bytecode verifier. The compiler's
    /// checker reports a program beyond them from these same constants, so that `tipc compile`
    /// never writes a pack that the runtime refuses.
    package static let maximumStackDepth = 256
    package static let maximumPredicateNesting = 8
    package static let maximumEvents = 1 << 20
    package static let maximumFields = 1 << 10
}
