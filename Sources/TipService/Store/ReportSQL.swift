/// The report's counts as SQL aggregation, one text for the service's SQLite and PostgreSQL
/// stores (they differ in table names and in how parameters are written): each statement
/// groups in the database and returns a row per arm, action or reason, never a row per user.
/// `tallies(_:run:)` runs the statements through a store and assembles `ReportTallies`; the
/// counts are `ReportPlan`'s, as `ReportPlan.tallies(users:)` computes them in Swift.
public struct ReportSQL: Sendable {
    /// A statement parameter.
    public enum Parameter: Sendable, Hashable {
        case text(String)
        case integer(Int64)
        case null
    }

    /// A result column's type.
    public enum Column: Sendable, Hashable { case text, integer }

    /// A result value: `.text(nil)` is SQL NULL.
    public enum Value: Sendable, Hashable {
        case text(String?)
        case integer(Int64)

        var string: String? { if case .text(let text) = self { return text } else { return nil } }
        var int: Int { if case .integer(let value) = self { return Int(value) } else { return 0 } }
    }

    public struct Statement: Sendable, Hashable {
        public var sql: String
        public var parameters: [Parameter]
        public var columns: [Column]
    }

    let assignments: String
    let tipRecords: String
    let donations: String
    /// `?` (SQLite) or `$` (PostgreSQL), before a parameter's number.
    let parameterSign: String

    /// The service's SQLite store.
    public static let sqlite = ReportSQL(assignments: "service_assignments", tipRecords: "service_tip_records", donations: "service_donations",
                                         parameterSign: "?")
    /// The service's PostgreSQL store.
    public static let postgres = ReportSQL(assignments: "assignments", tipRecords: "tip_records", donations: "donations", parameterSign: "$")

    /// Runs the plan's statements through `run` (which returns every row of a statement, each
    /// value of its declared column type) and gathers the counts.
    public func tallies(_ plan: ReportPlan, run: (Statement) throws -> [[Value]]) rethrows -> ReportTallies {
        var tallies = ReportTallies()
        for experiment in plan.experiments {
            var arms: [String: ArmTally] = [:]
            for row in try run(armCounts(experiment, at: plan.at)) {
                guard let arm = row[0].string else { continue }
                arms[arm, default: ArmTally()].assigned += row[1].int
                arms[arm, default: ArmTally()].exposed += row[2].int
                arms[arm, default: ArmTally()].displays += row[3].int
                arms[arm, default: ArmTally()].closes += row[4].int
                arms[arm, default: ArmTally()].converted += row[5].int
            }
            for row in try run(armActions(experiment, at: plan.at)) {
                guard let arm = row[0].string, let action = row[1].string else { continue }
                arms[arm, default: ArmTally()].actions[action, default: 0] += row[2].int
            }
            tallies.experiments[experiment.name] = arms
        }
        for tip in plan.tips {
            var tally = TipTally()
            if let row = try run(tipCounts(tip, at: plan.at)).first {
                tally.usersShown = row[0].int
                tally.displays = row[1].int
                tally.converted = row[2].int
            }
            for row in try run(tipRecordsByKind(tip, at: plan.at)) {
                if row[0].string == "action", let action = row[2].string {
                    tally.actions[action, default: 0] += row[3].int
                } else if let reason = row[1].string {
                    tally.invalidations[reason, default: 0] += row[3].int
                }
            }
            tallies.tips[tip.id] = tally
        }
        return tallies
    }

    private func p(_ number: Int) -> String { parameterSign + String(number) }

    /// A record's date: records stored before dates were kept have their stamp's instant.
    private static let recordDate = "coalesce(r.date_ms, r.stamp_ms)"

    /// Per arm: assigned, exposed, displays, closes, converted. The users assigned under the
    /// current salt, each user's records of the tip folded to one row (first exposure,
    /// displays, closes), then folded by arm; a user converts when a donation of the goal is in
    /// the window after the first exposure (one index probe per exposed user).
    func armCounts(_ experiment: ReportPlan.Experiment, at: Int64) -> Statement {
        let sql = """
            WITH assigned AS (
                SELECT user_id, arm FROM \(assignments) WHERE experiment = \(p(1)) AND salt = \(p(2)) AND date_ms <= \(p(6))
            ), per_user AS (
                SELECT r.user_id,
                       min(CASE WHEN r.arm = a.arm AND ((r.kind = 'display' AND r.count > 0) OR (r.kind = 'exposure' AND r.experiment = \(p(1))))
                           THEN \(Self.recordDate) END) AS first_ms,
                       sum(CASE WHEN r.kind = 'display' AND r.arm = a.arm THEN r.count ELSE 0 END) AS displays,
                       sum(CASE WHEN r.kind = 'invalidation' AND r.reason = 'tipClosed' THEN 1 ELSE 0 END) AS closes
                FROM \(tipRecords) r JOIN assigned a ON a.user_id = r.user_id
                WHERE r.tip = \(p(3)) AND \(Self.recordDate) <= \(p(6))
                GROUP BY r.user_id
            )
            SELECT a.arm, count(*), count(u.first_ms), CAST(coalesce(sum(u.displays), 0) AS BIGINT), CAST(coalesce(sum(u.closes), 0) AS BIGINT),
                   CAST(coalesce(sum(CASE WHEN u.first_ms IS NOT NULL AND EXISTS (
                       SELECT 1 FROM \(donations) d WHERE d.user_id = a.user_id AND d.event = \(p(4))
                           AND d.date >= u.first_ms AND d.date - u.first_ms <= \(p(5)) AND d.date <= \(p(6))) THEN 1 ELSE 0 END), 0) AS BIGINT)
            FROM assigned a LEFT JOIN per_user u ON u.user_id = a.user_id
            GROUP BY a.arm
            """
        return Statement(sql: sql, parameters: [.text(experiment.name), .text(experiment.salt), .text(experiment.tip), .text(experiment.goalEvent),
                                                .integer(experiment.goalWindowMilliseconds), .integer(at)],
                         columns: [.text, .integer, .integer, .integer, .integer, .integer])
    }

    /// Per arm and action id: taps of the tip's actions by users assigned to the arm.
    func armActions(_ experiment: ReportPlan.Experiment, at: Int64) -> Statement {
        let sql = """
            SELECT a.arm, r.action_id, count(*)
            FROM \(tipRecords) r JOIN \(assignments) a
                ON a.user_id = r.user_id AND a.experiment = \(p(1)) AND a.salt = \(p(2)) AND a.date_ms <= \(p(4))
            WHERE r.tip = \(p(3)) AND r.kind = 'action' AND \(Self.recordDate) <= \(p(4))
            GROUP BY a.arm, r.action_id
            """
        return Statement(sql: sql, parameters: [.text(experiment.name), .text(experiment.salt), .text(experiment.tip), .integer(at)],
                         columns: [.text, .text, .integer])
    }

    /// One row: users shown, displays, converted (0 when the tip has no goal).
    func tipCounts(_ tip: ReportPlan.Tip, at: Int64) -> Statement {
        let sql = """
            WITH per_user AS (
                SELECT r.user_id, min(CASE WHEN r.kind = 'display' AND r.count > 0 THEN \(Self.recordDate) END) AS first_ms,
                       sum(CASE WHEN r.kind = 'display' THEN r.count ELSE 0 END) AS displays
                FROM \(tipRecords) r WHERE r.tip = \(p(1)) AND \(Self.recordDate) <= \(p(4))
                GROUP BY r.user_id
            )
            SELECT count(u.first_ms), CAST(coalesce(sum(u.displays), 0) AS BIGINT),
                   CAST(coalesce(sum(CASE WHEN u.first_ms IS NOT NULL AND \(p(3)) >= 0 AND EXISTS (
                       SELECT 1 FROM \(donations) d WHERE d.user_id = u.user_id AND d.event = \(p(2))
                           AND d.date >= u.first_ms AND d.date - u.first_ms <= \(p(3)) AND d.date <= \(p(4))) THEN 1 ELSE 0 END), 0) AS BIGINT)
            FROM per_user u
            """
        // A tip without a goal: a negative window, so that no user is probed.
        return Statement(sql: sql, parameters: [.text(tip.id), .text(tip.goal?.event ?? ""), .integer(tip.goal?.windowMilliseconds ?? -1), .integer(at)],
                         columns: [.integer, .integer, .integer])
    }

    /// Per kind, reason and action id: the tip's invalidations and action taps.
    func tipRecordsByKind(_ tip: ReportPlan.Tip, at: Int64) -> Statement {
        let sql = """
            SELECT r.kind, r.reason, r.action_id, count(*) FROM \(tipRecords) r
            WHERE r.tip = \(p(1)) AND r.kind IN ('invalidation', 'action') AND \(Self.recordDate) <= \(p(2))
            GROUP BY r.kind, r.reason, r.action_id
            """
        return Statement(sql: sql, parameters: [.text(tip.id), .integer(at)], columns: [.text, .text, .text, .integer])
    }
}
