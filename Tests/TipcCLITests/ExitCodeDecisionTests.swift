import Testing
import TipcCompiler
@testable import TipcCLI

@Suite struct ExitCodeDecisionTests {
    typealias F = ReporterFixtures

    @Test func decisions() {
        #expect(ExitCode.forCheck([], strict: true, inputUnreadable: false) == .success)
        #expect(ExitCode.forCheck([F.unusedEvent], strict: false, inputUnreadable: false) == .success)
        #expect(ExitCode.forCheck([F.unusedEvent], strict: true, inputUnreadable: false) == .inputHasErrors)
        #expect(ExitCode.forCheck([F.unknownEvent], strict: false, inputUnreadable: false) == .inputHasErrors)
        #expect(ExitCode.forCheck([F.unknownEvent], strict: false, inputUnreadable: true) == .usageOrIOError)
        let note = Diagnostic(.unused, "fyi", at: F.range("a", 1, 1, 1, 1), severity: .note)
        #expect(ExitCode.forCheck([note], strict: true, inputUnreadable: false) == .success)
        #expect([ExitCode.success, .inputHasErrors, .usageOrIOError, .internalError].map(\.rawValue) == [0, 1, 2, 3])
    }
}
