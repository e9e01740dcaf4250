extension Lints {
    /// Something rules constrain: a parameter's value, or a number computed from donations
    /// (`e.within(3d).count`, `e.distinct(f)`).
    ///
    /// Quantities are numbered by `QuantityInterner`: within one tip, the same query written in
    /// two places (source ranges aside) gets one `id`, so comparing a quantity never walks its tree.
    struct Quantity: Hashable, Sendable {
        /// The quantity's number among the quantities of the tip being analysed.
        var id: Int
        /// Every value the quantity can take (counts are never negative; an enum-like String
        /// parameter takes only its `values`).
        var universe: ValueSet

        static func == (a: Quantity, b: Quantity) -> Bool { a.id == b.id }
        func hash(into hasher: inout Hasher) { hasher.combine(id) }
    }
}
