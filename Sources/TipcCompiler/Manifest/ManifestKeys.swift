/// The keys of each kind of mapping in a manifest (SPEC §2), for `unknown-key` and its
/// did-you-mean.
enum ManifestKeys {
    static let fileKeys = ["tipkit", "displayFrequency", "parameters", "events", "tips", "groups"]

    /// The keys of a parameter.
    enum Parameter: String, ManifestKeySet {
        case type, `default`, values, transient
    }

    /// The keys of an event.
    enum Event: String, ManifestKeySet {
        case donationLimit, value
    }

    /// The keys of an event's donation limit.
    enum DonationLimit: String, ManifestKeySet {
        case maximumCount, maximumAge
    }

    /// The keys of a tip.
    enum Tip: String, ManifestKeySet {
        case title, message, image, actions, maxDisplayCount, maxDisplayDuration, ignoresDisplayFrequency, rules
    }

    /// The keys of an image written as a mapping.
    enum Image: String, ManifestKeySet {
        case asset
    }

    /// The keys of an action.
    enum Action: String, ManifestKeySet {
        case id, title
    }

    /// The keys of a group.
    enum Group: String, ManifestKeySet {
        case priority, tips
    }
}

/// The keys one kind of mapping allows, as an enumeration whose raw values are the keys, in
/// the order diagnostics list them.
protocol ManifestKeySet: RawRepresentable<String>, CaseIterable {}

extension ManifestKeySet {
    /// The key spelled `name`; nil for any other name.
    ///
    /// Lengths are compared first: telling two different strings apart costs a call into the
    /// runtime, comparing their lengths costs nothing, and keys of one kind rarely share one.
    init?(named name: String) {
        let length = name.utf8.count
        for key in Self.allCases where key.rawValue.utf8.count == length && key.rawValue == name {
            self = key
            return
        }
        return nil
    }

    /// Every key, in order (for diagnostics).
    static var names: [String] { allCases.map(\.rawValue) }
}
