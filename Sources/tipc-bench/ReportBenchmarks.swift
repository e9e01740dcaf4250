import Foundation
import TipRuntime
import TipService
import TipServicePostgres

/// `tipc-bench report-postgres [USERS…]`: `tipc report` (a whole process, which runs
/// `tipc-serve report`) over a PostgreSQL service store of USERS users in one experiment
/// (default 100,000 and 1,000,000), beside one hand-written SQL query giving the same counts on
/// a connection of the benchmark's own, in the same run; and the report process's peak memory
/// at each size, which must not grow with the users.
func runReportBenchmarks(users sizes: [Int], postgresURL: String) {
    guard let tipc = ProcessTiming.siblingExecutable("tipc"), ProcessTiming.siblingExecutable("tipc-serve") != nil else {
        print("report-postgres: build tipc and tipc-serve beside tipc-bench (swift build -c release)")
        return
    }
    for users in sizes.isEmpty ? [100_000, 1_000_000] : sizes {
        do {
            try ReportBench(users: users, tipc: tipc).run(postgresURL)
        } catch {
            print("report-postgres \(users): \(error)")
        }
    }
}

struct ReportBench {
    let users: Int
    let tipc: String

    static let manifest = """
        tipkit: 1
        events:
          used: {}
        tips:
          hint:
            title: Try it
            actions: [ { id: ok, title: OK }, { id: later, title: Later } ]
        experiments:
          copy:
            tip: hint
            arms:
              control: { weight: 45 }
              short: { weight: 45, title: Do it }
              holdout: { weight: 10, hidden: true }
            goal: used within 7d

        """

    /// The counts per arm in one statement, written by hand: each user's records of the tip
    /// folded with their assignment, then by arm, the conversion probe inline.
    static let handWritten = """
        WITH per_user AS (
            SELECT a.user_id, a.arm,
                   min(coalesce(r.date_ms, r.stamp_ms)) FILTER (WHERE r.arm = a.arm AND ((r.kind = 'display' AND r.count > 0) OR r.kind = 'exposure')) AS first_ms,
                   coalesce(sum(r.count) FILTER (WHERE r.kind = 'display' AND r.arm = a.arm), 0) AS displays,
                   count(*) FILTER (WHERE r.kind = 'invalidation' AND r.reason = 'tipClosed') AS closes,
                   count(*) FILTER (WHERE r.kind = 'action' AND r.action_id = 'ok'::bytea) AS ok,
                   count(*) FILTER (WHERE r.kind = 'action' AND r.action_id = 'later'::bytea) AS later
            FROM assignments a LEFT JOIN tip_records r ON r.user_id = a.user_id AND r.tip = 'hint'::bytea
            WHERE a.experiment = 'copy'::bytea AND a.salt = 'copy'::bytea
            GROUP BY a.user_id, a.arm
        )
        SELECT convert_from(arm, 'UTF8'), count(*), count(first_ms), sum(displays)::bigint, sum(closes)::bigint, sum(ok)::bigint, sum(later)::bigint,
               count(*) FILTER (WHERE first_ms IS NOT NULL AND EXISTS (
                   SELECT 1 FROM donations d WHERE d.user_id = per_user.user_id AND d.event = 'used'::bytea
                       AND d.date >= first_ms AND d.date - first_ms <= 604800000))
        FROM per_user GROUP BY arm ORDER BY 1
        """

    func run(_ url: String) throws {
        Report.header("tipc report on PostgreSQL: \(users) users in one experiment")
        let name = "tipc_bench_report_\(users)_\(RecordID.random().prefix(8))"
        try ServeBench.withThrowawayDatabase(on: url, named: name) { database in try run(database: database) }
    }

    private func run(database: String) throws {
        _ = try PostgresServiceStore(url: database)
        let connection = try PostgresConnection(url: database)
        let started = Measure.now()
        try populate(connection)
        Report.figure("setup (generate_series, ANALYZE)", Double(Measure.now() - started) / 1e9, unit: "s")

        guard let folder = ProcessTiming.temporaryFolder() else { throw ServeBenchError("cannot make a temporary folder") }
        let manifestPath = folder + "/app.yaml"
        defer {
            unlink(manifestPath)
            rmdir(folder)
        }
        guard ProcessTiming.write(Array(Self.manifest.utf8), to: manifestPath) else { throw ServeBenchError("cannot write \(manifestPath)") }
        let arguments = ["report", "--manifest", manifestPath, "--store", database, "--format", "json"]

        // Both give the same counts (checked once), then in turns, 3 times each: medians.
        guard let first = ProcessTiming.outputAndRun(of: tipc, arguments), first.run.exitStatus == 0 else {
            throw ServeBenchError("tipc report failed")
        }
        let expected = try Self.handCounts(connection)
        let reported = try Self.reportCounts(first.output)
        guard reported == expected else { throw ServeBenchError("the report's counts \(reported) are not the hand-written query's \(expected)") }
        var reportWalls: [Double] = [], queryWalls: [Double] = [], peaks: [Int] = [first.run.peakResidentBytes]
        for _ in 0..<3 {
            guard let timed = ProcessTiming.outputAndRun(of: tipc, arguments), timed.run.exitStatus == 0 else { throw ServeBenchError("tipc report failed") }
            reportWalls.append(timed.run.wall)
            peaks.append(timed.run.peakResidentBytes)
            let start = Measure.now()
            _ = try connection.query(Self.handWritten)
            queryWalls.append(Double(Measure.now() - start))
        }
        Report.ratio("tipc report --store postgres:// (whole process, wall)", value: Measure.median(of: reportWalls) / 1e6,
                     floor: Measure.median(of: queryWalls) / 1e6, floorLabel: "one hand-written query", unit: "ms", target: 2)
        Report.figure("tipc report's peak resident memory", Double(peaks.max() ?? 0) / 1_048_576, unit: "MiB",
                      note: "(arms: \(expected.map { "\($0.arm) \($0.assigned)" }.joined(separator: ", ")))")
    }

    /// Per arm: assigned, exposed, displays, closes, ok, later, converted.
    struct ArmCounts: Equatable, CustomStringConvertible {
        var arm: String
        var assigned, exposed, displays, closes, ok, later, converted: Int64
        var description: String { "\(arm): \(assigned)/\(exposed)/\(displays)/\(closes)/\(ok)/\(later)/\(converted)" }
    }

    static func handCounts(_ connection: PostgresConnection) throws -> [ArmCounts] {
        let rows = try connection.query(handWritten)
        return (0..<rows.count).map { row in
            ArmCounts(arm: rows.string(row, 0) ?? "", assigned: rows.int64(row, 1) ?? -1, exposed: rows.int64(row, 2) ?? -1, displays: rows.int64(row, 3) ?? -1,
                      closes: rows.int64(row, 4) ?? -1, ok: rows.int64(row, 5) ?? -1, later: rows.int64(row, 6) ?? -1, converted: rows.int64(row, 7) ?? -1)
        }
    }

    static func reportCounts(_ json: String) throws -> [ArmCounts] {
        guard let document = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
              let experiments = document["experiments"] as? [[String: Any]], let arms = experiments.first?["arms"] as? [[String: Any]] else {
            throw ServeBenchError("the report is not the expected JSON")
        }
        func int(_ value: Any?) -> Int64 { (value as? NSNumber)?.int64Value ?? -1 }
        return arms.map { arm in
            let actions = arm["actions"] as? [String: Any] ?? [:]
            return ArmCounts(arm: arm["name"] as? String ?? "", assigned: int(arm["assigned"]), exposed: int(arm["exposed"]), displays: int(arm["displays"]),
                             closes: int(arm["closes"]), ok: actions["ok"] == nil ? 0 : int(actions["ok"]),
                             later: actions["later"] == nil ? 0 : int(actions["later"]), converted: int(arm["converted"]))
        }.sorted { $0.arm < $1.arm }
    }

    /// Users `u0…`, assigned in proportion 45/45/10 by their number; 60% of each arm exposed
    /// (a display carrying the arm, a second for some; an exposure record in the holdout);
    /// taps, closes and the goal's donations (some within the week, some after it) for some.
    /// Written with generate_series in one transaction, in the store's encoding.
    private func populate(_ connection: PostgresConnection) throws {
        let start: Int64 = 1_780_000_000_000
        let day: Int64 = 86_400_000
        let arm = "CASE WHEN g % 20 < 9 THEN 'control' WHEN g % 20 < 18 THEN 'short' ELSE 'holdout' END"
        try connection.execute("BEGIN")
        try connection.query("INSERT INTO users(user_id) SELECT convert_to('u' || g, 'UTF8') FROM generate_series(0, $1 - 1) g", [.bigint(Int64(users))])
        try connection.query("""
            INSERT INTO assignments(user_id, experiment, salt, id, arm, date_ms)
            SELECT convert_to('u' || g, 'UTF8'), 'copy'::bytea, 'copy'::bytea, convert_to('a' || g, 'UTF8'), convert_to(\(arm), 'UTF8'), $2
            FROM generate_series(0, $1 - 1) g
            """, [.bigint(Int64(users)), .bigint(start)])
        // The first display (or exposure) at start + (g % 1000) s; a second display an hour later for a third of them.
        try connection.query("""
            INSERT INTO tip_records(user_id, id, tip, kind, stamp_ms, stamp_device, count, duration_ms, date_ms, experiment, arm)
            SELECT convert_to('u' || g, 'UTF8'), convert_to('r' || g || '-' || n, 'UTF8'), 'hint'::bytea,
                   CASE WHEN g % 20 >= 18 THEN 'exposure' ELSE 'display' END,
                   $2 + (g % 1000) * 1000 + n * 3600000, 'bench'::bytea, CASE WHEN g % 20 >= 18 THEN 0 ELSE 1 END, 0,
                   $2 + (g % 1000) * 1000 + n * 3600000, CASE WHEN g % 20 >= 18 THEN 'copy'::bytea END, convert_to(\(arm), 'UTF8')
            FROM generate_series(0, $1 - 1) g, generate_series(0, 1) n
            WHERE g % 10 < 6 AND (n = 0 OR (g % 3 = 0 AND g % 20 < 18))
            """, [.bigint(Int64(users)), .bigint(start)])
        try connection.query("""
            INSERT INTO tip_records(user_id, id, tip, kind, stamp_ms, stamp_device, count, duration_ms, reason, action_id, date_ms)
            SELECT convert_to('u' || g, 'UTF8'), convert_to('t' || g, 'UTF8'), 'hint'::bytea, CASE WHEN g % 10 = 2 THEN 'invalidation' ELSE 'action' END,
                   $2 + (g % 1000) * 1000 + 60000, 'bench'::bytea, 0, 0, CASE WHEN g % 10 = 2 THEN 'tipClosed' END,
                   CASE WHEN g % 10 = 0 THEN 'ok'::bytea WHEN g % 10 = 1 THEN 'later'::bytea END, $2 + (g % 1000) * 1000 + 60000
            FROM generate_series(0, $1 - 1) g WHERE g % 10 < 3 AND g % 20 < 18
            """, [.bigint(Int64(users)), .bigint(start)])
        // The goal: 0, 5 or 10 days after the first display (10 is past the week).
        try connection.query("""
            INSERT INTO donations(user_id, id, event, date, value)
            SELECT convert_to('u' || g, 'UTF8'), convert_to('d' || g, 'UTF8'), 'used'::bytea, $2 + (g % 1000) * 1000 + (g % 3) * 5 * $3, ''::bytea
            FROM generate_series(0, $1 - 1) g WHERE g % 7 < 3
            """, [.bigint(Int64(users)), .bigint(start), .bigint(day)])
        try connection.execute("COMMIT")
        try connection.execute("ANALYZE")
    }

}
