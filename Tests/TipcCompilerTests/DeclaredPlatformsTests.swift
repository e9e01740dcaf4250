import Foundation
import Testing
@testable import TipKitBridge

/// The package's declared platforms are true: no Swift file of a target (under `Sources/`,
/// `Plugins/` and `Tests/`) uses an API that Apple's SDKs mark as newer than the oldest
/// system `Package.swift` declares. An app builds `TipRuntime` at its own deployment target,
/// the build plugin builds `tipc` for the Mac it runs on, and `swift test` on a Mac builds the
/// tests at the same minimums, so any of them would fail to compile there. Nothing is built for an Apple system here: the table below is the availability the
/// SDKs document, matched on tokens (comments and string literals do not count), and
/// docs/apple-platforms.md says how far that goes.
@Suite struct DeclaredPlatformsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// An operating-system version: `[15]`, `[10, 15]`.
    typealias Version = [Int]

    /// The first releases of each system where an API family exists.
    struct Availability: Sendable {
        var iOS: Version, macOS: Version, tvOS: Version, watchOS: Version, visionOS: Version

        var bySystem: [String: Version] { ["iOS": iOS, "macOS": macOS, "tvOS": tvOS, "watchOS": watchOS, "visionOS": visionOS] }

        /// Synchronization (`Mutex`, `Atomic`).
        static let swift6 = Availability(iOS: [18], macOS: [15], tvOS: [18], watchOS: [11], visionOS: [2])
        /// Swift 5.7's standard library: `Duration`, clocks, `Regex` and the string algorithms
        /// over it; Foundation's `URL(filePath:)` family of the same releases.
        static let swift57 = Availability(iOS: [16], macOS: [13], tvOS: [16], watchOS: [9], visionOS: [1])
        /// Foundation's `FormatStyle`, `Date.now`, `AttributedString`.
        static let foundation2021 = Availability(iOS: [15], macOS: [12], tvOS: [15], watchOS: [8], visionOS: [1])
        /// Observation (`@Observable`).
        static let swift59 = Availability(iOS: [17], macOS: [14], tvOS: [17], watchOS: [10], visionOS: [1])
    }

    /// An API family and how its use looks in tokens.
    struct NewerAPI: Sendable {
        var name: String
        var availability: Availability
        /// Whether the tokens at `index` use it.
        var matches: @Sendable (_ tokens: [SwiftToken], _ index: Int) -> Bool
    }

    /// The identifier `name` used as a type or value (not as a member: `x.Duration`).
    static func type(_ name: String, _ availability: Availability) -> NewerAPI {
        NewerAPI(name: name, availability: availability) { tokens, index in
            tokens[index].isIdentifier(name) && !(index > 0 && tokens[index - 1].isPunctuation("."))
        }
    }

    /// `.name(label:` (`label` nil: any first argument but the `excluding` labels).
    static func member(_ name: String, label: String? = nil, excluding: Set<String> = [], _ availability: Availability) -> NewerAPI {
        NewerAPI(name: "." + name + "(" + (label.map { $0 + ":" } ?? ""), availability: availability) { tokens, index in
            guard tokens[index].isIdentifier(name), index > 0, tokens[index - 1].isPunctuation("."),
                  index + 1 < tokens.count, tokens[index + 1].isPunctuation("(") else { return false }
            let hasLabel = index + 3 < tokens.count && tokens[index + 2].kind == .identifier && tokens[index + 3].isPunctuation(":")
            let first = hasLabel ? tokens[index + 2].text : nil
            if let label { return first == label }
            return !excluding.contains(first ?? "")
        }
    }

    /// `Type.member`.
    static func qualified(_ type: String, _ member: String, _ availability: Availability) -> NewerAPI {
        NewerAPI(name: type + "." + member, availability: availability) { tokens, index in
            index + 2 < tokens.count && tokens[index].isIdentifier(type) && tokens[index + 1].isPunctuation(".")
                && tokens[index + 2].isIdentifier(member)
        }
    }

    /// What is checked. Keep it in step with docs/apple-platforms.md.
    static let newerAPIs: [NewerAPI] = [
        type("Mutex", .swift6), type("Atomic", .swift6), type("AtomicLazyReference", .swift6),
        type("Duration", .swift57), type("ContinuousClock", .swift57), type("SuspendingClock", .swift57),
        type("Clock", .swift57), type("InstantProtocol", .swift57), type("DurationProtocol", .swift57),
        type("Regex", .swift57), type("RegexComponent", .swift57),
        NewerAPI(name: "a regex literal", availability: .swift57) { tokens, index in tokens[index].kind == .regex },
        // Foundation's `NSRegularExpression.firstMatch(in:options:range:)` is not it (a `Regex`
        // whose `firstMatch(in:)` is called is found where it is made).
        member("firstMatch", excluding: ["in"], .swift57), member("wholeMatch", .swift57), member("prefixMatch", .swift57),
        member("firstRange", label: "of", .swift57), member("ranges", label: "of", .swift57),
        member("trimmingPrefix", .swift57),
        // `replacing(_:with:)` of the string algorithms; the language server's own
        // `replacing(from:to:with:)` is not it.
        member("replacing", excluding: ["from"], .swift57),
        qualified("Task", "sleep", .swift57).restricted(toLabel: "for"),
        type("URL", .swift57).restricted(toLabel: "filePath"),
        member("appending", label: "path", .swift57), member("appending", label: "component", .swift57),
        member("path", label: "percentEncoded", .swift57),
        qualified("URL", "homeDirectory", .swift57), qualified("URL", "temporaryDirectory", .swift57),
        qualified("URL", "currentDirectory", .swift57), qualified("Locale", "Language", .swift57),
        member("formatted", .foundation2021), type("FormatStyle", .foundation2021), qualified("Date", "now", .foundation2021),
        type("AttributedString", .foundation2021),
        type("Observable", .swift59), type("Observation", .swift59),
    ]

    /// The oldest release of each system `Package.swift` declares (`.iOS(.v15)`, `.macOS(.v10_15)`).
    static func declaredPlatforms(in manifest: String) -> [String: Version] {
        var declared: [String: Version] = [:]
        let pattern = try! NSRegularExpression(pattern: #"\.(iOS|macOS|tvOS|watchOS|visionOS)\(\.v([0-9_]+)\)"#)
        let text = manifest as NSString
        for match in pattern.matches(in: manifest, range: NSRange(location: 0, length: text.length)) {
            let version = text.substring(with: match.range(at: 2)).split(separator: "_").compactMap { Int($0) }
            declared[text.substring(with: match.range(at: 1))] = version
        }
        return declared
    }

    /// Each use in `source` of an API newer than `declared`: `line: API needs system version`.
    static func uses(in source: String, declared: [String: Version]) -> [String] {
        let bytes = Array(source.utf8)
        let tokens = SwiftLexer.tokenize(bytes).tokens
        var found: [String] = []
        for token in tokens where token.isInterpolated {
            // The code of `\(…)` in a string literal counts too, at the string's line.
            let line = bytes[..<token.start].count(where: { $0 == UInt8(ascii: "\n") })
            for code in interpolations(in: token.text) {
                found += uses(in: String(repeating: "\n", count: line) + code, declared: declared)
            }
        }
        for index in tokens.indices {
            for api in newerAPIs where api.matches(tokens, index) {
                let newer = api.availability.bySystem.filter { system, version in
                    declared[system].map { $0.lexicographicallyPrecedes(version) } ?? false
                }
                guard !newer.isEmpty else { continue }
                let line = bytes[..<tokens[index].start].count(where: { $0 == UInt8(ascii: "\n") }) + 1
                let needs = newer.keys.sorted().map { "\($0) \(newer[$0]!.map(String.init).joined(separator: "."))" }
                found.append("\(line): \(api.name) needs \(needs.joined(separator: ", "))")
            }
        }
        // In line order (uses inside string interpolations were found first).
        return found.sorted { Int($0.prefix { $0 != ":" })! < Int($1.prefix { $0 != ":" })! }
    }

    /// The code of each `\(…)` in a string literal's text (brackets balanced; nested strings
    /// are not looked into).
    static func interpolations(in text: String) -> [String] {
        let characters = Array(text)
        var found: [String] = []
        var index = 0
        while index + 1 < characters.count {
            guard characters[index] == "\\", characters[index + 1] == "(" else { index += 1; continue }
            var depth = 1, end = index + 2
            while end < characters.count, depth > 0 {
                if characters[end] == "(" { depth += 1 } else if characters[end] == ")" { depth -= 1 }
                end += 1
            }
            found.append(String(characters[(index + 2)..<max(index + 2, end - 1)]))
            index = end
        }
        return found
    }

    @Test func noTargetUsesAnAPINewerThanTheDeclaredPlatforms() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let declared = Self.declaredPlatforms(in: manifest)
        #expect(declared["iOS"] != nil && declared["macOS"] != nil, "no platforms found in Package.swift")
        var files = 0
        var violations: [String] = []
        for folder in ["Sources", "Plugins", "Tests"] {
            let base = Self.root.appendingPathComponent(folder)
            let walker = try #require(FileManager.default.enumerator(atPath: base.path))
            // `Fixtures` folders are inputs the tests read, excluded from their targets.
            for case let path as String in walker where path.hasSuffix(".swift") && !path.split(separator: "/").contains("Fixtures") {
                files += 1
                let source = try String(contentsOf: base.appendingPathComponent(path), encoding: .utf8)
                violations += Self.uses(in: source, declared: declared).map { "\(folder)/\(path):\($0)" }
            }
        }
        #expect(files > 400, "only \(files) Swift files found under Sources, Plugins and Tests")
        #expect(violations.isEmpty, "APIs newer than Package.swift's platforms:\n\(violations.joined(separator: "\n"))")
    }

    /// The check itself: a use in code is found, with the systems it needs; the same name in a
    /// comment or a string, or under a high enough declaration, is not.
    @Test func theCheckFindsANewerAPIInCodeOnly() {
        let twelve: [String: Version] = ["iOS": [15], "macOS": [12]]
        let code = """
            import Synchronization
            // A Mutex in a comment, "Mutex" in a string.
            let lock = Mutex(0)
            let pause = Duration.seconds(1)
            let url = URL(filePath: "/tmp")
            let text = "a|b".replacing("|", with: "-")
            let edited = document.replacing(from: 1, to: 2, with: "x")
            let row = "| \\(summary.replacing("|", with: "/")) |"
            let match = "a1".firstMatch(of: digits)
            let found = expression.firstMatch(in: text, range: whole)
            """
        #expect(Self.uses(in: code, declared: twelve) == [
            "3: Mutex needs iOS 18, macOS 15",
            "4: Duration needs iOS 16, macOS 13",
            "5: URL(filePath: needs iOS 16, macOS 13",
            "6: .replacing( needs iOS 16, macOS 13",
            "8: .replacing( needs iOS 16, macOS 13",
            "9: .firstMatch( needs iOS 16, macOS 13",
        ])
        #expect(Self.uses(in: code, declared: ["iOS": [18], "macOS": [15]]).isEmpty)
        #expect(Self.declaredPlatforms(in: #"platforms: [.iOS(.v15), .macOS(.v10_15), .visionOS(.v1)],"#)
                    == ["iOS": [15], "macOS": [10, 15], "visionOS": [1]])
    }
}

extension DeclaredPlatformsTests.NewerAPI {
    /// This API only when its call's first argument label is `label` (`URL(filePath:`).
    func restricted(toLabel label: String) -> Self {
        let base = matches
        var restricted = self
        restricted.name += "(" + label + ":"
        restricted.matches = { tokens, index in
            guard base(tokens, index) else { return false }
            // The last token of the matched name is at `index` (a type) or `index + 2` (`Type.member`).
            let end = index + 1 < tokens.count && tokens[index + 1].isPunctuation(".") ? index + 2 : index
            return end + 3 < tokens.count && tokens[end + 1].isPunctuation("(") && tokens[end + 2].isIdentifier(label)
                && tokens[end + 3].isPunctuation(":")
        }
        return restricted
    }
}
