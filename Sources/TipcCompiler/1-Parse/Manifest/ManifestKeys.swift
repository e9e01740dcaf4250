/// The keys of the mappings inside a tip's attributes, for `unknown-key` and its did-you-mean.
/// A declaration's own keys are its attributes' (`TipAttributes`, `FileAttributes`,
/// `ParameterAttributes`, `EventAttributes`, `DonationLimitAttributes`, `GroupAttributes`).
enum ManifestKeys {

    /// The keys of a tip's key (format 2).
    enum TipKey: String, ManifestKeySet {
        case name, type
        static let lookup = ManifestKeyLookup<Self>()
    }

    /// The keys of an image written as a mapping.
    enum Image: String, ManifestKeySet {
        case asset
        static let lookup = ManifestKeyLookup<Self>()
    }

    /// The keys of an action.
    enum Action: String, ManifestKeySet {
        case id, title
        static let lookup = ManifestKeyLookup<Self>()
    }
}

/// The keys one kind of mapping allows, as an enumeration whose raw values are the keys, in
/// the order diagnostics list them.
protocol ManifestKeySet: RawRepresentable<String>, CaseIterable, Sendable {
    /// The keys by spelling (each kind declares it once: `static let lookup = ManifestKeyLookup<Self>()`).
    static var lookup: ManifestKeyLookup<Self> { get }
}

extension ManifestKeySet {
    /// The key spelled `name`; nil for any other name.
    init?(named name: String) {
        guard let key = Self.lookup.key(named: name) else { return nil }
        self = key
    }

    /// Every key, in order (for diagnostics).
    static var names: [String] { allCases.map(\.rawValue) }
}

/// Finds a key by its spelling, for every key of every mapping read: the length and the first
/// byte are compared before the text (telling two different strings apart costs a call into
/// the runtime; comparing two numbers costs nothing, and keys of one kind rarely share both).
struct ManifestKeyLookup<Key: ManifestKeySet>: Sendable {
    private let keys: [(length: Int, first: UInt8, name: String, key: Key)]

    init() {
        keys = Key.allCases.map { ($0.rawValue.utf8.count, $0.rawValue.utf8.first ?? 0, $0.rawValue, $0) }
    }

    func key(named name: String) -> Key? {
        let utf8 = name.utf8
        let length = utf8.count
        guard let first = utf8.first else { return nil }
        for entry in keys where entry.length == length && entry.first == first && entry.name == name {
            return entry.key
        }
        return nil
    }
}
