import TipRuntime

/// The answer of `GET /v1/users/{user}/tips`: each tip's decision and what to show.
///
/// Texts come from `texts(of:locale:)`, one place for a locale to choose them; `key` is
/// written when a tip has one (a tip instance's key), so both slot in without touching the
/// rest of the answer.
enum TipsDocument {
    /// One tip's decision for one user now.
    struct Entry {
        var tip: PackTip
        var key: String?
        var status: TipStatus
        var shouldDisplay: Bool
    }

    /// The title and message to show for `tip` in `locale` (texts are plain today: every
    /// locale gets the pack's).
    static func texts(of tip: PackTip, locale: String?) -> (title: String, message: String?) {
        (tip.title, tip.message)
    }

    static func render(_ entries: [Entry], locale: String?) -> JSON {
        .object([("tips", .array(entries.map { render($0, locale: locale) }))])
    }

    static func render(_ entry: Entry, locale: String?) -> JSON {
        let (title, message) = texts(of: entry.tip, locale: locale)
        var members: [(String, JSON)] = [("id", .string(entry.tip.name))]
        if let key = entry.key { members.append(("key", .string(key))) }
        let image: JSON
        switch entry.tip.image {
        case .symbol(let name)?: image = .object([("symbol", .string(name))])
        case .asset(let name)?: image = .object([("asset", .string(name))])
        case nil: image = .null
        }
        members += [
            ("status", .string(entry.status.description)),
            ("shouldDisplay", .bool(entry.shouldDisplay)),
            ("title", .string(title)),
            ("message", message.map { .string($0) } ?? .null),
            ("image", image),
            ("actions", .array(entry.tip.actions.map { .object([("id", .string($0.id)), ("title", .string($0.title))]) })),
        ]
        return .object(members)
    }
}
