import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import TipcCompiler

/// Hostile input must be an error in bounded time, never a stack overflow.
@Suite struct RuleLanguageLimitTests {
    /// Parses `text`, measuring the CPU time of this thread (tests run in parallel, so the
    /// wall clock would also count other tests' work).
    private func timed(_ text: String) -> (expression: Expression, diagnostics: [Diagnostic], seconds: Double) {
        let before = threadCPUSeconds()
        let (expression, diagnostics) = parseRule(text)
        return (expression, diagnostics, threadCPUSeconds() - before)
    }

    private func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    private func nestingLimitDiagnostics(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.filter { $0.code == .limit && $0.message == "expression nests deeper than 256 levels" }
    }

    @Test func nestingUpToTheLimitParses() {
        let depth = RuleParser.maximumNestingDepth
        let (expression, diagnostics) = parseRule(String(repeating: "(", count: depth) + "a" + String(repeating: ")", count: depth))
        #expect(diagnostics.isEmpty)
        #expect(sexpr(expression) == "a")
        #expect(span(expression.range) == "1:1-1:\(2 * depth + 2)")
        let nots = parseRule(String(repeating: "not ", count: depth) + "a")
        #expect(nots.diagnostics.isEmpty)
    }

    @Test func oneLevelTooDeepIsALimitError() {
        let depth = RuleParser.maximumNestingDepth + 1
        let (_, diagnostics) = parseRule(String(repeating: "(", count: depth) + "a" + String(repeating: ")", count: depth) + " and b")
        #expect(diagnostics.count == 1)
        #expect(nestingLimitDiagnostics(diagnostics).count == 1)
        #expect(span(diagnostics[0].range) == "1:257-1:258")
    }

    @Test(arguments: [
        String(repeating: "(", count: 100_000) + "a" + String(repeating: ")", count: 100_000),
        String(repeating: "not ", count: 100_000) + "a",
        String(repeating: "!", count: 100_000) + "a",
        String(repeating: "-", count: 100_000) + "1 > 0",
        String(repeating: "e.where(", count: 100_000) + "x" + String(repeating: ")", count: 100_000),
        String(repeating: "f(", count: 100_000) + "x" + String(repeating: ")", count: 100_000),
        String(repeating: "x in [", count: 100_000) + "x" + String(repeating: "]", count: 100_000),
        String(repeating: "(not -", count: 50_000) + "a" + String(repeating: ")", count: 50_000),
        String(repeating: "(", count: 100_000) + "a",  // unbalanced as well
    ])
    func deepNestingIsOneLimitErrorInBoundedTime(_ text: String) {
        let (expression, diagnostics, seconds) = timed(text)
        #expect(nestingLimitDiagnostics(diagnostics).count == 1)
        #expect(diagnostics.allSatisfy { $0.code == .limit || $0.message.hasPrefix("expected") })
        #expect(seconds < 10)
        _ = ExpressionPrinter.print(expression)  // the tree is shallow enough to walk
    }

    @Test func longChainsAreCappedBySize() {
        let terms = 200_000
        let text = (0..<terms).map { "e\($0 % 10).count > 1" }.joined(separator: " and ")
        let (expression, diagnostics, seconds) = timed(text)
        #expect(diagnostics.map(\.code) == [.limit])
        #expect(diagnostics.first?.message == "rule has more than \(RuleParser.maximumOperatorCount) operators")
        #expect(sexpr(expression) == "<error>")
        #expect(span(expression.range).hasPrefix("1:1-1:"))
        #expect(seconds < 10)

        let members = "e" + String(repeating: ".count", count: 100_000)
        let (_, memberDiagnostics, memberSeconds) = timed(members)
        #expect(memberDiagnostics.map(\.code) == [.limit])
        #expect(memberSeconds < 1)

        let list = "$x in [" + (0..<50_000).map(String.init).joined(separator: ", ") + "]"
        let (_, listDiagnostics, listSeconds) = timed(list)
        #expect(listDiagnostics.map(\.message) == ["rule has more than \(RuleParser.maximumNodeCount) operators and operands"])
        #expect(listSeconds < 1)
    }

    @Test func operatorLimitIsExact() {
        let limit = RuleParser.maximumOperatorCount
        let atLimit = (0...limit).map { "a\($0)" }.joined(separator: " or ")
        #expect(parseRule(atLimit).diagnostics.isEmpty)
        let over = atLimit + " or b"
        let diagnostics = parseRule(over).diagnostics
        #expect(diagnostics.map(\.code) == [.limit])
        #expect(diagnostics.first.map { span($0.range) } == "1:\(over.count - 3)-1:\(over.count - 1)")
    }

    @Test func theDeepestTreesAreSafeToWalk() {
        // The most operators in one chain, inside the deepest nesting: the deepest tree the
        // parser can return.
        let operators = RuleParser.maximumOperatorCount
        let chain = (0..<operators / 2).map { "$p\($0 % 7)" }.joined(separator: " and ") + " and "
            + (0..<(operators - operators / 2)).map { "x\($0)" }.joined(separator: " or ")
        let nesting = RuleParser.maximumNestingDepth - 1
        let text = String(repeating: "not ", count: nesting) + "(" + chain + ")"
        let (expression, diagnostics) = parseRule(text)
        #expect(diagnostics.isEmpty)
        let printed = ExpressionPrinter.print(expression)
        #expect(printed == text)
        let reparsed = parseRule(printed).expression
        #expect(reparsed.strippingRanges() == expression.strippingRanges())
        #expect(reparsed == expression)
        var hasher = Hasher()
        hasher.combine(expression)
        _ = hasher.finalize()
    }
}
