extension Lints {
    /// A set of Strings: either the finite set `members`, or every String except `members`.
    struct StringSet: Hashable, Sendable {
        var members: Set<String>
        var isComplement: Bool

        static let all = StringSet(members: [], isComplement: true)

        var isEmpty: Bool { !isComplement && members.isEmpty }

        func intersection(_ other: StringSet) -> StringSet {
            switch (isComplement, other.isComplement) {
            case (false, false): return StringSet(members: members.intersection(other.members), isComplement: false)
            case (false, true): return StringSet(members: members.subtracting(other.members), isComplement: false)
            case (true, false): return StringSet(members: other.members.subtracting(members), isComplement: false)
            case (true, true): return StringSet(members: members.union(other.members), isComplement: true)
            }
        }

        func complement() -> StringSet { StringSet(members: members, isComplement: !isComplement) }

        /// Whether the two sets share a String (the intersection, without building it).
        func intersects(_ other: StringSet) -> Bool {
            switch (isComplement, other.isComplement) {
            case (false, false): return !members.isDisjoint(with: other.members)
            case (false, true): return members.contains { !other.members.contains($0) }
            case (true, false): return other.members.contains { !members.contains($0) }
            case (true, true): return true  // both leave out finitely many Strings
            }
        }

        func union(_ other: StringSet) -> StringSet {
            switch (isComplement, other.isComplement) {
            case (false, false): return StringSet(members: members.union(other.members), isComplement: false)
            case (false, true): return StringSet(members: other.members.subtracting(members), isComplement: true)
            case (true, false): return StringSet(members: members.subtracting(other.members), isComplement: true)
            case (true, true): return StringSet(members: members.intersection(other.members), isComplement: true)
            }
        }
    }

    /// The values one quantity may take. The case always matches the quantity's type.
    enum ValueSet: Hashable, Sendable {
        case integers(IntegerSet)
        case reals(RealSet)
        case bools(Set<Bool>)
        case strings(StringSet)

        var isEmpty: Bool {
            switch self {
            case .integers(let set): return set.isEmpty
            case .reals(let set): return set.isEmpty
            case .bools(let set): return set.isEmpty
            case .strings(let set): return set.isEmpty
            }
        }

        /// The empty set of the same kind.
        var emptyOfSameKind: ValueSet {
            switch self {
            case .integers: return .integers(.empty)
            case .reals: return .reals(RealSet([], containsNaN: false))
            case .bools: return .bools([])
            case .strings: return .strings(StringSet(members: [], isComplement: false))
            }
        }

        /// The intersection; nil when the two sets are of different kinds (never for one quantity).
        func intersection(_ other: ValueSet) -> ValueSet? {
            switch (self, other) {
            case (.integers(let a), .integers(let b)): return .integers(a.intersection(b))
            case (.reals(let a), .reals(let b)): return .reals(a.intersection(b))
            case (.bools(let a), .bools(let b)):
                // Both Bools: the other set, without building a new one.
                if a.count == 2 { return other }
                if b.count == 2 { return self }
                return .bools(a.intersection(b))
            case (.strings(let a), .strings(let b)):
                // Every String: the other set, without building a new one.
                if a.isComplement, a.members.isEmpty { return other }
                if b.isComplement, b.members.isEmpty { return self }
                return .strings(a.intersection(b))
            default: return nil
            }
        }

        /// The values of `universe` that are not in this set.
        func complement(in universe: ValueSet) -> ValueSet? {
            let complement: ValueSet
            switch self {
            case .integers(let set): complement = .integers(set.complement())
            case .reals(let set): complement = .reals(set.complement())
            case .bools(let set): complement = .bools(Set([false, true]).subtracting(set))
            case .strings(let set): complement = .strings(set.complement())
            }
            return complement.intersection(universe)
        }

        /// Whether the two sets share a value: `intersection(other).map { !$0.isEmpty }`, without
        /// building the intersection of two integer sets. Nil when the sets are of different kinds.
        func intersects(_ other: ValueSet) -> Bool? {
            switch (self, other) {
            case (.integers(let a), .integers(let b)): return a.intersects(b)
            case (.reals(let a), .reals(let b)) where b.isEveryDouble: return !a.isEmpty
            case (.strings(let a), .strings(let b)): return a.intersects(b)
            default: return intersection(other).map { !$0.isEmpty }
            }
        }

        /// Whether some value of `universe` is not in this set: `complement(in: universe).map { !$0.isEmpty }`,
        /// without building the complement. Nil when the sets are of different kinds.
        func leavesOut(of universe: ValueSet) -> Bool? {
            switch (self, universe) {
            case (.integers(let set), .integers(let all)): return !set.contains(all)
            case (.reals(let set), .reals(let all)) where all.isEveryDouble: return !set.isEveryDouble
            case (.strings(let set), .strings(let all)): return set.complement().intersects(all)
            default: return complement(in: universe).map { !$0.isEmpty }
            }
        }

        /// The union; nil when the two sets are of different kinds.
        func union(_ other: ValueSet) -> ValueSet? {
            switch (self, other) {
            case (.integers(let a), .integers(let b)): return .integers(a.union(b))
            case (.reals(let a), .reals(let b)): return .reals(a.union(b))
            case (.bools(let a), .bools(let b)): return .bools(a.union(b))
            case (.strings(let a), .strings(let b)): return .strings(a.union(b))
            default: return nil
            }
        }
    }
}
