import Foundation
import Testing
@testable import TipcCLI
import TipcCompiler
import TipRuntime

/// `tipc compile` refuses, as checker errors, the programs whose packs the runtime would refuse:
/// the limits are the pack format's own constants, read by the checker and the loader alike.
@Suite struct PackLimitTests {
    @Test func anEventWithMorePayloadFieldsThanAPackHoldsIsALimitErrorAndNoPackIsWritten() throws {
        let folder = try TemporaryFolder()
        let fields = (0...PackFormat.maximumFields).map { "f\($0): int" }.joined(separator: ", ")
        let manifest = folder.path + "/fields.yaml"
        try "tipkit: 1\nevents:\n  e:\n    value: { \(fields) }\ntips:\n  t:\n    title: T\n    rules:\n      - e.count >= 1\n"
            .write(toFile: manifest, atomically: true, encoding: .utf8)
        let pack = folder.path + "/fields.tippack"
        let run = Invocation(["compile", manifest, "-o", pack])
        #expect(run.status == 1, "\(run.stderr.prefix(400))")
        #expect(run.stderr.contains("error[limit]: event 'e' has 1025 payload fields; a rule pack holds at most 1024"), "\(run.stderr.prefix(400))")
        #expect(!FileManager.default.fileExists(atPath: pack))

        // One field fewer is a pack the runtime loads.
        let fitting = (0..<PackFormat.maximumFields).map { "f\($0): int" }.joined(separator: ", ")
        try "tipkit: 1\nevents:\n  e:\n    value: { \(fitting) }\ntips:\n  t:\n    title: T\n    rules:\n      - e.count >= 1\n"
            .write(toFile: manifest, atomically: true, encoding: .utf8)
        #expect(Invocation(["compile", manifest, "-o", pack]).status == 0)
        let loaded = try RulePackLoader.decode(Array(try Data(contentsOf: URL(fileURLWithPath: pack))))
        #expect(loaded.pack.events[0].fields.count == PackFormat.maximumFields)
    }

    /// The program is built in memory: a file of a million events takes the front end longer
    /// than the limit needs to be shown.
    @Test func aProgramWithMoreEventsThanAPackHoldsIsALimitError() {
        let file = "many.tips"
        let at = SourceRange(file: file, at: SourceLocation(line: 1, column: 1))
        let events = (0...PackFormat.maximumEvents).map { index in
            EventDecl(name: Identifier("e\(index)", at: SourceRange(file: file, at: SourceLocation(line: index + 2, column: 7))), range: at)
        }
        let manifest = ManifestFile(path: file, format: .tips, version: Located(1, at: at), events: events, headRange: at)
        var diagnostics: [Diagnostic] = []
        let program = Checker.check([manifest], diagnostics: &diagnostics)
        #expect(program == nil)
        let limits = diagnostics.filter { $0.code == .limit }
        #expect(limits.map(\.message) == ["the program has 1048577 events; a rule pack holds at most 1048576"])
        #expect(limits.first?.range.start.line == PackFormat.maximumEvents + 2)
    }
}
