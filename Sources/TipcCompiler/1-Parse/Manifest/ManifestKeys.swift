/// The keys of the mappings inside a tip's attributes, for `unknown-key` and its did-you-mean.
/// A declaration's own keys are its attributes' (`TipAttributes`, `FileAttributes`,
/// `ParameterAttributes`, `EventAttributes`, `DonationLimitAttributes`, `GroupAttributes`).
enum ManifestKeys {

    /// The keys of a tip's key (format 2).
    enum TipKey: String, ManifestKeySet {
        case name, type
        static let lookup = ManifestKeyLookup(allCases.map { ($0.rawValue, $0) })
    }

    /// The keys of an image written as a mapping.
    enum Image: String, ManifestKeySet {
        case asset
        static let lookup = ManifestKeyLookup(allCases.map { ($0.rawValue, $0) })
    }

    /// The keys of an action.
    enum Action: String, ManifestKeySet {
        case id, title
        static let lookup = ManifestKeyLookup(allCases.map { ($0.rawValue, $0) })
    }
}

/// The keys one kind of mapping allows, as an enumeration whose raw values are the keys, in
/// the order diagnostics list them.
protocol ManifestKeySet: RawRepresentable<String>, CaseIterable, Sendable {
    /// The keys by spelling (each kind declares it once: `static let lookup = ManifestKeyLookup(allCases.map { ($0.rawValue, $0) })`).
    static var lookup: ManifestKeyLookup<Self> { get }
}

extension ManifestKeySet {
    /// The key spelled `name`; nil for any other name.
    init?(named name: String) {
        guard let key = Self.lookup.value(named: name) else { return nil }
        self = key
    }

    /// Every key, in order (for diagnostics).
    static var names: [String] { allCases.map(\.rawValue) }
}

/// Finds what a manifest key stands for (a row's shape, a key of an enumeration), for every key
/// of every mapping the YAML reader reads: the length and the first byte are compared before
/// the text. Telling two different strings apart costs a call into the runtime and hashing one
/// costs a few hundred instructions; comparing two numbers costs nothing, and the keys of one
/// mapping rarely share both. Built once from a table's keys, so it lists nothing itself.
package struct ManifestKeyLookup<Value: Sendable>: Sendable {
    private let entries: [(length: Int, first: UInt8, name: String, value: Value)]

    /// A lookup of `keys`, each with what it stands for; the first of a repeated key wins.
    package init(_ keys: [(name: String, value: Value)]) {
        entries = keys.map { ($0.name.utf8.count, $0.name.utf8.first ?? 0, $0.name, $0.value) }
    }

    /// What the key spelled `name` stands for; nil for any other name.
    package func value(named name: String) -> Value? {
        let utf8 = name.utf8
        let length = utf8.count
        guard let first = utf8.first else { return nil }
        for entry in entries where entry.length == length && entry.first == first && entry.name == name {
            return entry.value
        }
        return nil
    }
}
