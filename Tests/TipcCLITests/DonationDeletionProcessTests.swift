import Foundation
import Testing
import TipRuntime
import TipRuntimeSQLite

/// Real `tipc` processes: a `delete-donations` while others donate to the same store. Every
/// acknowledged donation dated after the deletion instant is kept and counts; none dated at or
/// before it counts.
@Suite("Store: deleting donations while other processes donate")
struct DonationDeletionProcessTests {
    /// `donated EVENT at DATE id ID` lines: id → date.
    static func acknowledged(_ stdout: String) -> [String: Int64] {
        var result: [String: Int64] = [:]
        for line in stdout.split(separator: "\n") {
            let words = line.split(separator: " ")
            guard words.count == 6, words[0] == "donated", let date = ISO8601.milliseconds(from: String(words[3])) else { continue }
            result[String(words[5])] = Int64(date)
        }
        return result
    }

    @Test func aDeletionAmongDonorsLosesNothingDatedAfterIt() throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write("app.tips", StoreProcessTests.manifest)
        let db = folder.path + "/shared.sqlite"
        var acknowledged = Self.acknowledged(try StoreProcessTests.donate(db, manifest, count: 20, in: folder).finish().stdout)
        let donors = [try StoreProcessTests.donate(db, manifest, count: 80, in: folder),
                      try StoreProcessTests.donate(db, manifest, count: 80, in: folder)]
        let deletion = try StoreProcessTests.start(["store", "--db", db, "--manifest", manifest, "delete-donations", "opened"], in: folder)
        for process in donors + [deletion] {
            let (status, stdout) = try process.finish()
            #expect(status == 0, "\((try? String(contentsOfFile: process.output + ".err", encoding: .utf8)) ?? "")")
            acknowledged.merge(Self.acknowledged(stdout)) { first, _ in first }
        }
        #expect(acknowledged.count == 180)
        let snapshot = try SQLitePersistence(path: db).load()
        let instant = try #require(snapshot.donationDeletions["opened"])
        let counted = Set(snapshot.donations.values.filter { $0.date > instant }.map(\.id))
        let expected = Set(acknowledged.filter { $0.value > instant }.keys)
        #expect(counted == expected, "kept after the deletion: every acknowledged one, nothing else")
        #expect(acknowledged.values.contains { $0 <= instant }, "the first donor's donations predate the deletion")
    }
}
