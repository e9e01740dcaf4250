import Foundation
import Testing
import TipRuntime
import TipRuntimeSQLite

/// A child process donates in a loop and is killed with SIGKILL at a random moment; every
/// donation it acknowledged (printed after the commit) must be in the store, and the file must
/// pass SQLite's integrity check.
@Suite("Crash durability")
struct CrashDurabilityTests {
    @Test func acknowledgedDonationsSurviveSIGKILL() throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write("app.tips", "tipkit 1\nevent opened { n: Int }\ntip t {\n  title \"T\"\n  rule opened.count > 0\n}\n")
        let db = folder.path + "/crash.sqlite"
        var generator = SystemRandomNumberGenerator()
        var acknowledged = Set<String>()
        for _ in 0..<3 {
            let killAfter = Int.random(in: 5...60, using: &generator)
            let process = Process()
            process.executableURL = try ExecutableTests.executable()
            process.arguments = ["store", "--db", db, "--manifest", manifest, "donate", "opened", "--value", "{\"n\": 1}", "--count", "100000"]
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            var received = Data()
            var lines = 0
            while lines < killAfter {
                let chunk = out.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                received.append(chunk)
                lines = received.filter { $0 == 0x0A }.count
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            received.append(out.fileHandleForReading.readDataToEndOfFile())
            #expect(process.terminationReason == .uncaughtSignal)
            // "donated opened at DATE id DEVICE:SEQ\n"; a line the kill cut short is not counted.
            var complete = String(decoding: received, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            complete.removeLast()
            for line in complete {
                guard let range = line.range(of: " id ") else { continue }
                acknowledged.insert(String(line[range.upperBound...]))
            }
        }
        #expect(acknowledged.count >= 3)
        let store = try SQLitePersistence(path: db)
        #expect(try store.integrityCheck())
        let stored = Set(try store.load().donations.keys)
        let lost = acknowledged.subtracting(stored)
        #expect(lost.isEmpty, "acknowledged but lost: \(lost.sorted())")
    }
}
