import Foundation
import Testing
import TipAnalytics
import TipRuntime
import TipRuntimeSQLite
import TipService
import TipServicePostgres
import TipcTestSupport
@testable import TipcCLI

/// `tipc report` over device stores and service stores, and `GET /v1/report` of a real
/// `tipc serve` on SQLite and PostgreSQL: the same JSON as the command's.
@Suite("tipc report")
struct ReportCommandTests {
    /// The pack `RandomReportData`'s users are made for.
    static let manifest = """
        tipkit: 1
        events:
          used: {}
          opened: {}
        tips:
          hint:
            title: Try it
            actions: [ { id: ok, title: OK }, { id: later, title: Later } ]
          hint2: { title: Another }
          plain:
            title: Plain
            goal: used within 1s
          bare: { title: Bare }
        experiments:
          copy:
            tip: hint
            salt: copy-2
            arms:
              control: { weight: 2 }
              short: { weight: 2, title: Do it }
              holdout: { weight: 1, hidden: true }
            goal: used within 2s
          other:
            tip: hint2
            arms:
              a: { weight: 1 }
              b: { weight: 1 }
            goal: used within 2s

        """

    static func plan(_ manifest: String, experiment: String? = nil, at: Int64? = nil) throws -> ReportPlan {
        let input = try PackInput.load(pack: nil, manifests: [manifest], context: CommandContext(environment: [:], standardOutput: CapturedOutput(),
                                                                                                 standardError: CapturedOutput()))
        return try ReportPlan(pack: input.pack.pack, experiment: experiment, at: at)
    }

    /// Device stores, one per user, of `RandomReportData`'s users.
    static func deviceStores(_ users: [(id: String, snapshot: StoreSnapshot)], in folder: TemporaryFolder) throws -> [String] {
        try users.map { user in
            let path = folder.path + "/\(user.id).sqlite"
            try SQLitePersistence(path: path, deviceID: "device-\(user.id)").merge(user.snapshot)
            return path
        }
    }

    @Test func deviceStoresReportWhatTheDefinitionCounts() throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write("app/app.yaml", Self.manifest)
        var g = SeededGenerator(seed: 11)
        let users = RandomReportData.users(40, &g)
        let stores = try Self.deviceStores(users, in: folder)
        let plan = try Self.plan(manifest)
        #expect(plan.experiments.map(\.name) == ["copy", "other"] && plan.tips.map(\.id) == ["plain", "bare"])
        let expected = try plan.report(plan.tallies(users: users.map(\.snapshot)))
        let json = Invocation(["report", "--manifest", manifest, "--format", "json"] + stores.flatMap { ["--db", $0] })
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stdout == (try expected.json()) + "\n")
        #expect(expected.experiments[0].arms.map(\.assigned).reduce(0, +) > 0)
        let text = Invocation(["report", "--manifest", manifest] + stores.flatMap { ["--db", $0] })
        #expect(text.stdout == expected.text())
        let csv = Invocation(["report", "--manifest", manifest, "--format", "csv", "--experiment", "other", "--at", "2026-05-28T20:26:46Z"]
                             + stores.flatMap { ["--db", $0] })
        let other = try Self.plan(manifest, experiment: "other", at: 1_780_000_006_000)
        #expect(csv.stdout == (try other.report(other.tallies(users: users.map(\.snapshot)))).csv())
    }

    /// Copies of one device's store (a backup beside the original) are one user, not two.
    @Test func storesOfOneDeviceAreOneUser() throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write("app/app.yaml", Self.manifest)
        var snapshot = StoreSnapshot()
        let assignment = AssignmentRecord(experiment: "copy", salt: "copy-2", arm: "short", date: RandomReportData.start)
        snapshot.assignments[assignment.key] = assignment
        let display = TipEventRecord(tip: "hint", stamp: Stamp(milliseconds: RandomReportData.start, device: "phone"), kind: .display(count: 1, milliseconds: 0),
                                     arm: "short")
        snapshot.tipRecords[display.id] = display
        let phone = folder.path + "/phone.sqlite", backup = folder.path + "/backup.sqlite", tablet = folder.path + "/tablet.sqlite"
        try SQLitePersistence(path: phone, deviceID: "phone").merge(snapshot)
        try SQLitePersistence(path: backup, deviceID: "phone").merge(snapshot)
        try SQLitePersistence(path: tablet, deviceID: "tablet").merge(snapshot)
        let result = Invocation(["report", "--manifest", manifest, "--experiment", "copy", "--format", "json", "--db", phone, "--db", backup, "--db", tablet])
        let report = try JSONDecoder().decode(AnalyticsReport.self, from: Data(result.stdout.utf8))
        #expect(report.experiments[0].arms.map(\.assigned) == [0, 2, 0])
        #expect(report.experiments[0].arms.map(\.displays) == [0, 2, 0])
    }

    @Test func badArgumentsAndStoresAreClearErrors() throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write("app/app.yaml", Self.manifest)
        let notAStore = try folder.write("notes.sqlite", "not a database at all, just text that is long enough to be read as a header")
        let cases: [([String], Int32, String)] = [
            (["report", "--manifest", manifest], 2, "missing '--db <file>' or '--store <store>'"),
            (["report", "--manifest", manifest, "--db", "a", "--store", "sqlite:b"], 2, "not both"),
            (["report", "--db", "a"], 2, "missing '--pack <file>' or '--manifest <path>'"),
            (["report", "--manifest", manifest, "--db", folder.path + "/missing.sqlite"], 2, "no store at"),
            (["report", "--manifest", manifest, "--store", "sqlite:" + folder.path + "/missing.sqlite"], 2, "no service store at"),
            (["report", "--manifest", manifest, "--db", notAStore], 1, "notes.sqlite"),
            (["report", "--manifest", manifest, "--db", notAStore, "--experiment", "copyy"], 2, "no experiment 'copyy' in the pack; its experiments: copy, other"),
            (["report", "--manifest", manifest, "--db", notAStore, "--at", "yesterday"], 2, "'yesterday' is not an ISO-8601 instant"),
            (["report", "--manifest", manifest, "--db", notAStore, "--format", "xml"], 2, "xml"),
            // In-process there is no tipc-serve beside tipc to hand a PostgreSQL store to.
            (["report", "--manifest", manifest, "--store", "postgres://nowhere/tips"], 2, "'tipc report' runs 'tipc-serve', which is not installed beside tipc"),
        ]
        for (arguments, status, message) in cases {
            let result = Invocation(arguments)
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
    }

    /// `GET /v1/report` of a real `tipc serve` and `tipc report --store` (a real `tipc`, which
    /// runs `tipc-serve report` for PostgreSQL) print the same JSON for the same store.
    @Test(arguments: ["sqlite", "postgres"])
    func theServiceRouteAndTheCommandGiveTheSameJSON(engine: String) throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write("app/app.yaml", Self.manifest)
        let location: String, writer: any ServiceStore
        if engine == "sqlite" {
            location = folder.path + "/serve.sqlite"
            writer = try SQLiteServiceStore(path: location)
        } else {
            location = try ServePostgresTests.freshDatabase()
            writer = try PostgresServiceStore(url: location)
        }
        var g = SeededGenerator(seed: 5)
        let users = RandomReportData.users(60, &g)
        for (id, snapshot) in users {
            try writer.transaction(user: id) { persistence in try persistence.merge(snapshot) }
        }
        let server = try ServerProcess(pack: (manifest as NSString).deletingLastPathComponent, store: location)
        let storeOption = engine == "sqlite" ? "sqlite:" + location : location
        for (query, options) in [("", [String]()), ("?experiment=copy&at=2026-05-28T20:26:46Z", ["--experiment", "copy", "--at", "2026-05-28T20:26:46Z"])] {
            let reply = try server.request("GET", "/v1/report" + query)
            #expect(reply.status == 200, "\(reply.text)")
            let command = try ExecutableTests.run(["report", "--manifest", manifest, "--store", storeOption, "--format", "json"] + options)
            #expect(command.status == 0, "\(command.stderr)")
            #expect(reply.text == command.stdout)
            let plan = try Self.plan(manifest, experiment: options.isEmpty ? nil : "copy", at: options.isEmpty ? nil : 1_780_000_006_000)
            #expect(command.stdout == (try plan.report(plan.tallies(users: users.map(\.snapshot))).json()) + "\n")
        }
        let unknown = try server.request("GET", "/v1/report?experiment=copyy")
        #expect(unknown.status == 404 && unknown.text.contains("did you mean 'copy'?"), "\(unknown.text)")
        let badDate = try server.request("GET", "/v1/report?at=soon")
        #expect(badDate.status == 400 && badDate.text.contains("bad-query"), "\(badDate.text)")
    }
}
