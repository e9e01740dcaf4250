#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import TipRuntime
import TipcCompiler
import TipcCLI

/// Determinism, golden disassembly, constant folding and its diagnostics.
@Suite struct CompilerOutputTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/disassembly")

    static func compile(_ program: CheckedProgram) -> (RulePack?, [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        return (RulePackCompiler.compile(program, diagnostics: &diagnostics), diagnostics)
    }

    static func singleRule(_ rule: CheckedExpression) -> CheckedProgram {
        var program = ExampleProgram.program
        program.tips = [CheckedTip(name: "t", title: "T", rules: [rule], range: E.at(1))]
        program.groups = []
        return program
    }

    @Test func twoCompilesGiveIdenticalBytes() throws {
        let first = RulePackWriter.encode(try ExampleProgram.compiled())
        let second = RulePackWriter.encode(try ExampleProgram.compiled())
        #expect(first == second)
        #expect(RulePackInspector(pack: try ExampleProgram.compiled()).json() == RulePackInspector(pack: try ExampleProgram.compiled()).json())
    }

    static let goldenPrograms: [String: CheckedProgram] = [
        "signed-in-and-searches": singleRule(E.and(E.parameter(0, .bool), E.compare(.greaterOrEqual, E.count(E.within(E.event(0), 3 * day)), E.int(3)))),
        "largest-subset": singleRule(E.compare(.greaterOrEqual, E.count(E.within(E.largest(E.event(1), 0), 5 * day)), E.int(3))),
        "example-pack": ExampleProgram.program,
    ]

    @Test(arguments: goldenPrograms.keys.sorted()) func goldenDisassembly(name: String) throws {
        let (pack, diagnostics) = Self.compile(Self.goldenPrograms[name]!)
        #expect(diagnostics.isEmpty)
        let text = RulePackInspector(pack: try #require(pack)).text()
        let url = Self.fixtures.appendingPathComponent(name + ".txt")
        if ProcessInfo.processInfo.environment["TIPC_RECORD_FIXTURES"] != nil {
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(text == expected)
    }

    @Test func constantsFoldAndUseImmediates() throws {
        // (2 + 3) * 4 < $maskCount  →  LOAD_PARAM; CMP_INT_K > 20
        let rule = E.compare(.less, E.arithmetic(.multiply, E.arithmetic(.add, E.int(2), E.int(3), .int), E.int(4), .int), E.parameter(1, .int))
        let (pack, _) = Self.compile(Self.singleRule(rule))
        let code = try #require(pack).tips[0].rules[0].code
        #expect(Disassembler(pack: pack!).lines(code).map { String($0.dropFirst(6)) } == ["LOAD_PARAM $maskCount", "CMP_INT_K > 20", "RETURN"])
        // false and X folds to false without X; true and X to X.
        let (shortCircuit, _) = Self.compile(Self.singleRule(E.or(E.and(E.bool(false), E.parameter(0, .bool)), E.and(E.bool(true), E.parameter(5, .bool)))))
        #expect(Disassembler(pack: shortCircuit!).lines(shortCircuit!.tips[0].rules[0].code).map { String($0.dropFirst(6)) } == ["LOAD_PARAM $sheetOpen", "RETURN"])
    }

    @Test func constantOverflowAndDivisionByZeroAreCompileErrors() {
        let overflow = E.compare(.greater, E.parameter(1, .int), E.arithmetic(.add, E.int(Int.max), E.int(1), .int))
        let division = CheckedExpression(.compare(.equal, E.parameter(1, .int),
                                                  CheckedExpression(.arithmetic(.divide, E.int(1), E.int(0)), type: .value(.int), range: E.at(17))),
                                         type: .value(.bool), range: E.at(1))
        let (pack, diagnostics) = Self.compile(CheckedProgram(parameters: ExampleProgram.program.parameters, events: ExampleProgram.program.events,
                                                              tips: [CheckedTip(name: "t", title: "T", rules: [overflow, division], range: E.at(1))]))
        #expect(pack == nil)
        #expect(diagnostics.count == 2)
        #expect(diagnostics.allSatisfy { $0.code == .invalidValue && $0.severity == .error })
        #expect(diagnostics[0].message.contains("overflows"))
        #expect(diagnostics[1].message.contains("divides by zero"))
        #expect(diagnostics[1].range.start.column == 17)
        // Double division by zero as a constant is refused too; a short-circuited one is not evaluated.
        let (_, doubles) = Self.compile(Self.singleRule(E.compare(.less, E.parameter(2, .double), E.arithmetic(.divide, E.double(1), E.double(0), .double))))
        #expect(doubles.map(\.code) == [.invalidValue])
        let (skipped, none) = Self.compile(Self.singleRule(E.and(E.bool(false), E.compare(.less, E.int(1), E.arithmetic(.divide, E.int(1), E.int(0), .int)))))
        #expect(skipped != nil && none.isEmpty)
    }
}
