import Testing
@testable import TipcCompiler
import TipcDriver

/// `tipc check` on Swift: the checker's diagnostics about imported rules point into the Swift
/// closures they came from.
private func check(_ files: [(String, String)]) -> [Diagnostic] {
    Frontend.check(sources: files.map { SourceFile(path: $0.0, text: $0.1) }, keepingProgram: false).diagnostics
}

private func position(_ diagnostic: Diagnostic?) -> String {
    guard let diagnostic else { return "none" }
    return "\(diagnostic.range.file):\(diagnostic.range.start)-\(diagnostic.range.end)"
}

@Test func typeErrorInAMultiLineClosureWithANamedArgument() {
    let swift = """
    import TipKit

    struct CountTip: Tip {
        static let opened = Tips.Event(id: "opened")
        var title: Text { Text("T") }
        var rules: [Rule] {
            #Rule(Self.opened) { event in
                event.donations
                    .count >= "three"
            }
        }
    }
    """
    let diagnostics = check([("Tips.swift", swift)])
    let mismatch = diagnostics.first { $0.code == .typeMismatch }
    // The comparison spans from `event.donations` (line 8) to `"three"` (line 9).
    #expect(position(mismatch) == "Tips.swift:8:13-9:34")
}

@Test func typeErrorOnAParameterPointsAtTheComparison() {
    let swift = """
    import TipKit
    struct LevelTip: Tip {
        @Parameter static var level: Int = 0
        var title: Text { Text("T") }
        var rules: [Rule] { [#Rule(Self.$level) { $0 == true }] }
    }
    """
    let diagnostics = check([("Tips.swift", swift)])
    #expect(position(diagnostics.first { $0.code == .typeMismatch }) == "Tips.swift:5:47-5:57")
}

@Test func unknownEventPointsAtTheRuleSubjectInAnotherType() {
    let swift = """
    import TipKit
    enum Events { static let opened = Tips.Event(id: "opened") }
    struct OpenTip: Tip {
        var title: Text { Text("T") }
        var rules: [Rule] {
            #Rule(Events.opend) { $0.donations.count > 1 }
            #Rule(Events.opened) { $0.donations.count > 1 }
        }
    }
    """
    let diagnostics = check([("Tips.swift", swift)])
    let unknown = diagnostics.first { $0.code == .unknownEvent }
    #expect(position(unknown) == "Tips.swift:6:15-6:27")
    #expect(unknown?.message.contains("opend") == true)
}

@Test func eventsAndParametersOfOtherFilesAndTypesResolve() {
    let events = """
    import TipKit
    enum Shared {
        static let viewed = Tips.Event(id: "viewed")
        @Parameter static var beta: Bool = false
    }
    """
    let tips = """
    import TipKit
    struct BetaTip: Tip {
        var title: Text { Text("T") }
        var rules: [Rule] {
            #Rule(Shared.$beta) { $0 }
            #Rule(Shared.viewed) { $0.donations.count >= 3 }
        }
    }
    """
    let diagnostics = check([("Events.swift", events), ("Tips.swift", tips)])
    #expect(diagnostics.isEmpty, "\(diagnostics.map(\.message))")
}

@Test func unsatisfiableAndUnusedPointIntoSwift() {
    let swift = """
    import TipKit
    struct NeverTip: Tip {
        static let opened = Tips.Event(id: "opened")
        @Parameter static var unusedFlag: Bool = false
        var title: Text { Text("Never") }
        var rules: [Rule] {
            #Rule(Self.opened) { $0.donations.count >= 3 }
            #Rule(Self.opened) { $0.donations.count < 2 }
        }
    }
    """
    let diagnostics = check([("Never.swift", swift)])
    let unused = diagnostics.first { $0.code == .unused }
    #expect(position(unused) == "Never.swift:4:27-4:37")
    let unsatisfiable = diagnostics.first { $0.code == .unsatisfiable }
    #expect(unsatisfiable?.range.file == "Never.swift")
    #expect((unsatisfiable?.range.start.line ?? 0) >= 2)
}

@Test func approximationsAreWarnedAtTheirPosition() {
    let swift = """
    import TipKit
    struct HelloTip: Tip {
        var name = "you"
        var title: Text { Text("Hello \\(name)") }
    }
    """
    let diagnostics = check([("Hello.swift", swift)])
    let warning = diagnostics.first { $0.code == .importApproximated }
    #expect(position(warning) == "Hello.swift:4:23-4:44")
    #expect(warning?.severity == .warning)
}

@Test func swiftWithoutTipsAddsNothing() {
    let diagnostics = check([("Plain.swift", "struct Point { var x = 0; var y = 0 }\nfunc f() -> Int { 1 }\n")])
    #expect(diagnostics.isEmpty)
}
