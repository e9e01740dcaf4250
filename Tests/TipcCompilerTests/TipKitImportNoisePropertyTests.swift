import Testing
@testable import TipcCompiler
import TipcTestSupport
@testable import TipKitBridge

/// An app's other Swift never changes what is imported: random Swift that declares nothing of
/// TipKit — regex literals of every form, raw, multi-line and interpolated strings, comments,
/// App Intents' instance `@Parameter`s, views and result builders, macros, attributes, `#if`
/// blocks, operators — put before and after a fixed tip file and in files beside it, gives the
/// same manifest and no diagnostic.
@Suite struct TipKitImportNoisePropertyTests {
    static let tipFile = """
        import TipKit

        struct SearchTip: Tip {
            static let searched = Tips.Event(id: "searchPerformed")
            @Parameter static var isLoggedIn: Bool = false

            var id: String { "advancedSearch" }
            var title: Text { Text("Try Advanced Search") }
            var message: Text? { Text("Filter by {date} and \\"author\\"") }
            var actions: [Action] { Action(id: "open", title: "Open") }
            var options: [any TipOption] { MaxDisplayCount(3) }
            var rules: [Rule] {
                #Rule(Self.$isLoggedIn) { $0 == true }
                #Rule(Self.searched) { $0.donations.donatedWithin(.days(3)).count >= 3 }
            }
        }

        func configureTips() {
            try? Tips.configure([.displayFrequency(.daily)])
        }

        """

    /// The written manifest and the diagnostics of importing `sources`.
    static func imported(_ sources: [SourceFile]) throws -> (yaml: String, diagnostics: [String]) {
        var diagnostics: [Diagnostic] = []
        let module = TipKitImporter.importModule(sources, diagnostics: &diagnostics)
        let yaml = try TipKitImporter.write(module, sources: ["Tips.swift"], to: .yaml)
        return (yaml, diagnostics.map { "\($0.range): \($0.message)" })
    }

    @Test func otherSwiftNeverChangesTheImportedTip() throws {
        let expected = try Self.imported([SourceFile(path: "Tips.swift", text: Self.tipFile)])
        #expect(expected.diagnostics.isEmpty)
        #expect(expected.yaml.contains("advancedSearch:"))
        for seed in UInt64(1)...150 {
            var noise = SwiftNoise(seed: seed)
            let tipText = noise.declarations(count: 3) + Self.tipFile + noise.declarations(count: 3)
            var sources = [SourceFile(path: "Tips.swift", text: tipText)]
            for number in 0..<Int.random(in: 0...3, using: &noise.generator) {
                sources.append(SourceFile(path: "Other\(number).swift", text: noise.declarations(count: 4)))
            }
            let actual = try Self.imported(sources)
            #expect(actual.yaml == expected.yaml, "seed \(seed):\n\(sources.map { String(decoding: $0.bytes, as: UTF8.self) }.joined(separator: "\n// ----\n"))")
            #expect(actual.diagnostics.isEmpty, "seed \(seed): \(actual.diagnostics)")
        }
    }
}

/// Random Swift declarations that compile (as far as the reader can tell) and declare nothing
/// of TipKit.
struct SwiftNoise {
    var generator: SeededGenerator
    private var counter = 0

    init(seed: UInt64) { generator = SeededGenerator(seed: seed) }

    private mutating func pick<T>(_ choices: [T]) -> T { choices.randomElement(using: &generator)! }

    private mutating func name() -> String {
        counter += 1
        return "Noise\(counter)"
    }

    /// A string literal of some form, with quotes, braces and slashes inside.
    mutating func stringLiteral() -> String {
        let words = ["a", "{", "}", "(", ")", "/", "//", "/*", "#", "[", "\\\"", "\\\\", "'", "x y", "ü", "🙂"]
        let content = (0..<Int.random(in: 0...5, using: &generator)).map { _ in pick(words) }.joined()
        switch Int.random(in: 0..<5, using: &generator) {
        case 0: return "\"\(content)\""
        case 1: return "#\"a \"quoted\" \\(raw) \(content.filter { $0 != "\\" })\"#"
        case 2: return "\"\"\"\n    line \"one\" \(content)\n    \\(value) { \n    \"\"\""
        case 3: return "\"total \\(items.map { \"\\($0)\" }.joined(separator: \", \")) \(content)\""
        default: return "\"\\(value > 1 ? \")\" : \"(\") \(content)\""
        }
    }

    /// A regex literal of some form.
    mutating func regexLiteral() -> String {
        pick(["/a\"b/", "#/\"(?<name>[^\"]*)\"/#", "/[)}\\]\"]+/", "/^\"start/", "##/a/#b/##", "/\\/\\//",
              "#/\n    \\d+ \" { (\n    [a-z]+\n/#", "Regex { \"x\"; OneOrMore(.digit) }"])
    }

    /// A comment, line or block (nested), with brackets and quotes.
    mutating func comment() -> String {
        pick(["// a \" quote { and ( brackets /\n", "/* a /* nested { */ \" comment ( */ ", "/// doc `Tips.Event(id: \"x\")`\n",
              "// Tips.configure([.displayFrequency(.hourly)])\n"])
    }

    /// An expression: operators (division among them), calls, closures, literals.
    mutating func expression() -> String {
        switch Int.random(in: 0..<6, using: &generator) {
        case 0: return "value / 2"
        case 1: return "(value + 1)/3 * 4"
        case 2: return stringLiteral()
        case 3: return "items.filter { $0 > 1 }.count"
        case 4: return regexLiteral()
        default: return "[\(stringLiteral()), \(stringLiteral())]"
        }
    }

    /// One top-level declaration.
    mutating func declaration() -> String {
        let type = name()
        switch Int.random(in: 0..<9, using: &generator) {
        case 0:
            return """
                struct \(type): AppIntent {
                    static let title: LocalizedStringResource = \(stringLiteral())
                    @Parameter(title: \(stringLiteral()), default: true) var isLoggedIn: Bool
                    @Parameter(title: "Count") var searched: Int
                    func perform() async throws -> some IntentResult { .result() }
                }

                """
        case 1:
            return """
                struct \(type): View {
                    @State private var value = 1
                    var items: [Int] = []
                    var body: some View {
                        VStack(alignment: .leading) {
                            Text(\(stringLiteral())).font(.title)
                            if value > 2 { Text("big") } else { EmptyView() }
                        }
                    }
                }

                """
        case 2:
            return """
                enum \(type): String, CaseIterable {
                    case first, second = \(stringLiteral())
                    static let pattern = \(regexLiteral())
                }

                """
        case 3:
            return """
                func \(type.lowercased())(_ value: Int, items: [Int]) -> Bool {
                    let x = \(expression())
                    \(comment())
                    if let match = "text".firstMatch(of: \(regexLiteral())) { return match.output.isEmpty }
                    return x != nil
                }

                """
        case 4:
            return """
                #if DEBUG
                let \(type.lowercased()) = \(stringLiteral())
                #elseif os(macOS)
                let \(type.lowercased()) = \(stringLiteral())
                #else
                let \(type.lowercased()) = 0
                #endif

                """
        case 5:
            return """
                @Observable
                @MainActor
                final class \(type) {
                    @ObservationIgnored private var cache: [String: Int] = [:]
                    var value = 1
                    var items: [Int] = []
                    lazy var computed: String = { \(expression()) }()
                }

                """
        case 6:
            return "#Preview {\n    Text(\(stringLiteral()))\n}\n\n"
        case 7:
            return """
                extension \(type) {
                    var description: String { \(stringLiteral()) }
                    subscript(index: Int) -> Int { index / 2 }
                }

                """
        default:
            return comment() + "\n"
        }
    }

    mutating func declarations(count: Int) -> String {
        (0..<Int.random(in: 0...count, using: &generator)).map { _ in declaration() }.joined()
    }
}

/// A `/` is a regex literal where an operand is expected, and division after an operand.
@Test func regexLiteralsAndDivisionAreToldApart() {
    func regexes(_ text: String) -> Int {
        SwiftLexer.tokenize(Array(text.utf8)).tokens.filter { $0.kind == .regex }.count
    }
    #expect(regexes("let a = b / c / d") == 0)
    #expect(regexes("let a = (b + c)/d/e") == 0)
    #expect(regexes("let a = x[0]/2 + 1/2") == 0)
    #expect(regexes("let r = /a\"b/") == 1)
    #expect(regexes("if s.contains(/[)}]+/) { return /x/ }") == 2)
    #expect(regexes("let r = #/\"[^\"]*\"/#, t = ##/a/#b/##") == 2)
    #expect(regexes("let f: (Int, Int) -> Int = (/)") == 0)
    #expect(SwiftLexer.tokenize(Array("let r = #/\n  a\" {\n/#\nlet s = 1".utf8)).problems.isEmpty)
    #expect(SwiftLexer.tokenize(Array("let r = #/a\"b\nlet s = 1".utf8)).problems.map(\.message) == ["unterminated regex literal"])
}
