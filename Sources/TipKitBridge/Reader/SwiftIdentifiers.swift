import TipcCompiler

/// Swift names for a program's names and values, as `tipc generate swift` writes them
/// (docs/decisions.md, "Swift names in generated accessors"):
///
/// - a plain identifier (`[A-Za-z_][A-Za-z0-9_]*`) is kept as written, in backticks when it is a
///   Swift keyword or a name a member cannot take bare (`Type`, `self`); `_` alone becomes `__`;
/// - any other text drops each run of characters outside `[A-Za-z0-9_]` and upper-cases the letter
///   after it (`entered-detail-view` → `enteredDetailView`, `TaggingTips.Date` → `TaggingTipsDate`),
///   with a `_` in front when it starts with a digit (`2x` → `_2x`); an empty result is `__`;
/// - within one scope, a name that another took first (or that the accessor itself uses, such as
///   `center`) gets `_2`, `_3`, … in declaration order.
struct SwiftIdentifiers {
    private var taken: Set<String>

    /// `reserved`: the names the scope already uses.
    init(reserved: Set<String> = []) {
        taken = reserved
    }

    /// A unique identifier in this scope for `name`, backticked where Swift needs it.
    mutating func claim(_ name: String) -> String {
        let base = Self.bare(name)
        var candidate = base
        var number = 2
        while !taken.insert(candidate).inserted {
            candidate = base + "_\(number)"
            number += 1
        }
        return Self.escaped(candidate)
    }

    /// A unique type name in this scope: `name` in UpperCamelCase followed by `suffix`.
    mutating func claimType(_ name: String, suffix: String) -> String {
        let base = Self.upperCamel(name) + suffix
        var candidate = base
        var number = 2
        while !taken.insert(candidate).inserted {
            candidate = base + "_\(number)"
            number += 1
        }
        return candidate
    }

    /// The identifier for `name` before uniquing and escaping.
    static func bare(_ name: String) -> String {
        if isPlain(name) { return name == "_" ? "__" : name }
        var result = ""
        var upper = false
        for scalar in name.unicodeScalars {
            if isIdentifierScalar(scalar) {
                result.unicodeScalars.append(upper ? Unicode.Scalar(String(scalar).uppercased()) ?? scalar : scalar)
                upper = false
            } else {
                upper = !result.isEmpty
            }
        }
        if result.isEmpty || ("0"..."9").contains(result.unicodeScalars.first!) { result = "_" + result }
        return result == "_" ? "__" : result
    }

    /// `advanced-search` → `AdvancedSearch`, `isSignedIn` → `IsSignedIn`: letters and digits only.
    static func upperCamel(_ name: String) -> String {
        var result = ""
        var upper = true
        for scalar in name.unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                result += upper ? String(scalar).uppercased() : String(scalar)
                upper = false
            } else {
                upper = true
            }
        }
        if result.isEmpty || result.first!.isNumber { result = "T" + result }
        return result
    }

    static func escaped(_ identifier: String) -> String {
        keywords.contains(identifier) ? "`\(identifier)`" : identifier
    }

    private static func isIdentifierScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }

    private static func isPlain(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || ("a"..."z").contains(first) || ("A"..."Z").contains(first) else {
            return false
        }
        return name.unicodeScalars.allSatisfy(isIdentifierScalar)
    }

    /// Words a declared member cannot take without backticks: Swift's keywords, and `Type`,
    /// `Protocol` (which follow a dot as metatypes).
    static let keywords: Set<String> = [
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
        "inout", "internal", "let", "nonisolated", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows",
        "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do", "else",
        "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "Any", "as", "await",
        "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "Type", "Protocol",
    ]
}
