import Foundation
import Testing
@testable import TipcCLI
import TipcCompiler
import TipRuntime

/// Times and durations in a timeline never wrap: an offset or a time on screen that
/// does not fit in Int64 milliseconds is a diagnostic at its position, exit 1, never a trap.
/// Run as a separate process, so that a trap fails the test instead of ending the test run.
@Suite("timeline arithmetic")
struct TimelineArithmeticTests {
    static let manifest = "tipkit 1\nevent opened\ntip a {\n  title \"A\"\n}\n"

    func simulate(_ steps: String) throws -> (status: Int32, stdout: String, stderr: String) {
        let folder = try TemporaryFolder()
        let manifest = try folder.write("app.tips", Self.manifest)
        let timeline = try folder.write("t.timeline.yaml", "start: 2026-03-01T09:00:00Z\nsteps:\n" + steps)
        return try ExecutableTests.run(["simulate", manifest, "--timeline", timeline])
    }

    @Test(arguments: [
        // The seconds fit in Int, the milliseconds do not.
        ("  - { at: +106751991167300d, donate: opened }\n", "3:11: error[invalid-duration]: the offset '+106751991167300d' is too large"),
        // The milliseconds fit, start + offset does not.
        ("  - { at: +106751991167d, donate: opened }\n", "3:11: error[invalid-duration]: the offset '+106751991167d' from start is too large"),
        // The seconds do not fit either: the same message.
        ("  - { at: +99999999999999999d, donate: opened }\n", "3:11: error[invalid-duration]: the offset '+99999999999999999d' is too large"),
        // A time on screen whose milliseconds do not fit.
        ("  - { at: +0s, show: [{ tip: a, for: 106751991167300d }] }\n", "3:38: error[invalid-duration]: the duration '106751991167300d' is too large"),
    ])
    func anOverflowingTimeIsADiagnosticAtItsPosition(_ step: String, _ expected: String) throws {
        let run = try simulate(step)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("t.timeline.yaml:" + expected), "\(run.stderr)")
        #expect(!run.stderr.contains("needs 'at'"), "an 'at' that is there is not reported missing")
        #expect(run.stdout.isEmpty)
    }

    @Test func theLastRepresentableInstantsAreComputedAndWritesThereAreRefused() throws {
        // 106,751,970,000 days from 2026 is close to Int64.max milliseconds, and fits. Records
        // end with year 9999 (RecordBounds): a donation or a display there is refused at its
        // position, and nothing is recorded.
        let run = try simulate("""
          - { at: +106751970000d, donate: opened }
          - { at: +106751970000d, show: [a] }
          - { at: +106751970000d, expect: { a: { displayCount: 0 } } }

        """)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stdout.contains("+106751970000d  292278992-11-01T09:00:00Z"))
        #expect(run.stderr.contains("t.timeline.yaml:3:5: error: the donation of 'opened' is dated 9223371980355600000 ms, outside 0000-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z"), "\(run.stderr)")
        #expect(run.stderr.contains("t.timeline.yaml:4:5: error: the write cannot be stamped later than every write stored: the clock reads 9223371980355600000 ms, outside 0000-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z; nothing was written"), "\(run.stderr)")
        #expect(!run.stderr.contains("expected a displayCount"), "\(run.stderr)")
    }

    @Test func aTotalTimeOnScreenThatWouldOverflowIsRefusedAndSaysSo() throws {
        let run = try simulate("""
          - { at: +0s, show: [{ tip: a, for: 106751990000d }, { tip: a, for: 106751990000d }] }
          - { at: +1s, expect: { a: { displayCount: 1 } } }

        """)
        #expect(run.status == 1)
        #expect(run.stderr.contains("t.timeline.yaml:3:62: error: showing 'a' for 106751990000d would make its time on screen too large"),
                "\(run.stderr)")
        #expect(run.stdout.contains("expect a displayCount 1: ok"), "the refused display was not recorded")
    }

    @Test func aDisplayFrequencyTooLargeForMillisecondsIsAnError() throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write("app.tips", "tipkit 1\ndisplayFrequency 106751991167300d\ntip a {\n  title \"A\"\n}\n")
        let run = Invocation(["check", manifest])
        #expect(run.status == 1)
        #expect(run.stdout.contains("app.tips:2:18: error[invalid-duration]: display frequency is too large"), "\(run.stdout)")
    }

    @Test(arguments: [Int.min, Int.min + 1, -86_400_000 * 365 * 3000, -1, Int.max])
    func everyInstantPrints(_ milliseconds: Int) {
        let text = ISO8601.string(fromMilliseconds: milliseconds)
        #expect(text.hasSuffix("Z"))
        if milliseconds == -1 { #expect(text == "1969-12-31T23:59:59.999Z") }
        if milliseconds == Int.max { #expect(text == "292278994-08-17T07:12:55.807Z") }
        if milliseconds == Int.min { #expect(text == "-292275055-05-16T16:47:04.192Z") }
    }
}
