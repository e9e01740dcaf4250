/// The stored form of every record kind and the SQL of every rule that picks a winner, derived
/// from the record kinds in one place for each SQL store: the device's SQLite file
/// (`SQLitePersistence`), the service's SQLite file and its PostgreSQL database. A store gives
/// its dialect, its table names and its scope (the service's `user_id`, bound before a
/// statement's own values); the column lists, the statements and the order that decides a
/// last writer are the same for all. The conformance suite holds the rest of each store's SQL
/// (reads, trims, deletions) to `StoreOperation.applied(to:)`.
///
/// Statements number their placeholders (`?1` in SQLite, `$1` in PostgreSQL): the scope's
/// values first, then the record's, in the order of the kind's columns.
package struct StoreSQL: Sendable {
    package enum Dialect: Sendable {
        case sqlite
        case postgres
    }

    /// A table's name for each record kind.
    package struct Tables: Sendable {
        package var donations: String
        package var parameters: String
        package var tipRecords: String
        package var donationDeletions: String
        package var assignments: String

        package init(donations: String, parameters: String, tipRecords: String, donationDeletions: String, assignments: String) {
            self.donations = donations
            self.parameters = parameters
            self.tipRecords = tipRecords
            self.donationDeletions = donationDeletions
            self.assignments = assignments
        }
    }

    /// A donation's columns (the key first).
    package static let donationColumns = ["id", "event", "date", "value"]
    /// A parameter's columns (the key first).
    package static let parameterColumns = ["name", "value", "stamp_ms", "stamp_device"]
    /// A tip record's columns (the key first); `TipEventRecord.Kind.columns` fills `kind`,
    /// `count`, `duration_ms`, `reason`, `action_id` and `experiment`; `date_ms` is NULL when
    /// the record is dated by its stamp; `arm` is NULL but on displays and exposures in an experiment.
    package static let tipRecordColumns = ["id", "tip", "kind", "stamp_ms", "stamp_device", "count", "duration_ms", "reason", "instance_key", "date_ms",
                                          "action_id", "experiment", "arm"]
    /// A donation deletion's columns (the key first).
    package static let donationDeletionColumns = ["event", "instant"]
    /// An assignment's columns (the key, experiment and salt, first).
    package static let assignmentColumns = ["experiment", "salt", "id", "arm", "date_ms"]

    package let dialect: Dialect
    package let tables: Tables
    /// The columns before every table's own key (`["user_id"]` in the service's stores).
    package let scope: [String]

    package init(dialect: Dialect, tables: Tables, scope: [String] = []) {
        self.dialect = dialect
        self.tables = tables
        self.scope = scope
    }

    // MARK: - Writes

    /// Adds a donation unless one is stored under its id (the caller compares it with
    /// `selectDonation`: the same is fine, another one a collision).
    package var insertDonation: String {
        insert(into: tables.donations, Self.donationColumns) + " ON CONFLICT(\(key("id"))) DO NOTHING"
    }

    /// Adds a tip record; under an id already stored, two copies of one version-1 display
    /// counter merge to the larger figures and the earlier stamp (`TipEventRecord.mergingCopies`),
    /// and nothing changes for any other record (the caller compares it with `selectTipRecord`).
    package var insertTipRecord: String {
        let table = tables.tipRecords
        let prefix = TipEventRecord.versionOneDisplayPrefix
        let prefixLiteral = dialect == .postgres ? "'\(prefix)'::bytea" : "'\(prefix)'"
        return insert(into: table, Self.tipRecordColumns) + """
             ON CONFLICT(\(key("id"))) DO UPDATE SET count = \(greatest)(\(table).count, excluded.count),
                duration_ms = \(greatest)(\(table).duration_ms, excluded.duration_ms),
                stamp_ms = \(least)(\(table).stamp_ms, excluded.stamp_ms)
            WHERE substr(\(table).id, 1, \(prefix.utf8.count)) = \(prefixLiteral) AND \(table).tip = excluded.tip
              AND \(table).kind = 'display' AND excluded.kind = 'display' AND \(table).stamp_device = excluded.stamp_device
              AND \(table).instance_key IS NULL AND excluded.instance_key IS NULL
              AND \(table).date_ms IS NULL AND excluded.date_ms IS NULL
              AND \(table).arm IS NULL AND excluded.arm IS NULL
            """
    }

    /// Stores an assignment unless the stored one of its experiment and salt comes first by
    /// `AssignmentRecord.precedes` (date, then the id's bytes), compared as one row value. The
    /// caller first compares it with `selectAssignment`: another assignment under its id is a
    /// collision.
    package var keepEarlierAssignment: String {
        let table = tables.assignments
        func row(_ source: String) -> String { "(\(source).date_ms, \(bytes("\(source).id")))" }
        return insert(into: table, Self.assignmentColumns) + """
             ON CONFLICT(\(key("experiment")), salt) DO UPDATE SET id = excluded.id, arm = excluded.arm, date_ms = excluded.date_ms
            WHERE \(row("excluded")) < \(row(table))
            """
    }

    /// Stores a parameter unless the stored one is the later write: last writer wins by the
    /// order of `ParameterRecord.later` (stamp time, stamp device, then the stored value's
    /// bytes), compared as one row value.
    package var writeParameter: String {
        let table = tables.parameters
        let order = ["stamp_ms", "stamp_device", "value"]
        func row(_ source: String) -> String {
            "(" + order.map { column in column == "value" ? bytes("\(source).\(column)") : "\(source).\(column)" }.joined(separator: ", ") + ")"
        }
        return insert(into: table, Self.parameterColumns) + """
             ON CONFLICT(\(key("name"))) DO UPDATE SET \(Self.parameterColumns.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
            WHERE \(row("excluded")) > \(row(table))
            """
    }

    /// Records a deletion of an event's donations through an instant; a later one stays.
    package var raiseDonationDeletion: String {
        let table = tables.donationDeletions
        return insert(into: table, Self.donationDeletionColumns)
            + " ON CONFLICT(\(key("event"))) DO UPDATE SET instant = excluded.instant WHERE excluded.instant > \(table).instant"
    }

    /// Removes an event's (the first value after the scope's) donations that its recorded
    /// deletion covers.
    package var deleteCoveredDonations: String {
        let event = placeholder(scope.count + 1)
        return """
            DELETE FROM \(tables.donations) WHERE \(scoped) event = \(event)
              AND date <= (SELECT instant FROM \(tables.donationDeletions) WHERE \(scoped) event = \(event))
            """
    }

    /// Removes an event's donations (the first value after the scope's) dated before a cutoff
    /// (the second): `donationLimit`'s `maximumAge` (`DonationLimit.cutoff`).
    package var trimByAge: String {
        "DELETE FROM \(tables.donations) WHERE \(scoped) event = \(placeholder(scope.count + 1)) AND date < \(placeholder(scope.count + 2))"
    }

    /// Removes an event's donations (the first value after the scope's) beyond the newest so
    /// many (the second), same-instant ones by id: `donationLimit`'s `maximumCount`, in the order
    /// of `DonationRecord.precedes`.
    package var trimByCount: String {
        let table = tables.donations
        let offset = dialect == .sqlite ? "LIMIT -1 OFFSET" : "OFFSET"
        return """
            DELETE FROM \(table) WHERE \(scoped) id IN (
              SELECT id FROM \(table) WHERE \(scoped) event = \(placeholder(scope.count + 1))
              ORDER BY date DESC, id DESC \(offset) \(placeholder(scope.count + 2)))
            """
    }

    // MARK: - Reads

    /// A donation by id (the first value after the scope's), its columns in order.
    package var selectDonation: String { select(Self.donationColumns, from: tables.donations, by: "id") }

    /// A tip record by id (the first value after the scope's), its columns in order.
    package var selectTipRecord: String { select(Self.tipRecordColumns, from: tables.tipRecords, by: "id") }

    /// The assignment of an experiment and salt (the first two values after the scope's), its columns in order.
    package var selectAssignment: String {
        select(Self.assignmentColumns, from: tables.assignments, by: "experiment") + " AND salt = \(placeholder(scope.count + 2))"
    }

    // MARK: - Pieces

    /// `?n` or `$n`.
    package func placeholder(_ number: Int) -> String { (dialect == .sqlite ? "?" : "$") + String(number) }

    /// The conditions on the scope's columns, each followed by AND.
    private var scoped: String {
        scope.enumerated().map { "\($0.element) = \(placeholder($0.offset + 1)) AND " }.joined()
    }

    private func key(_ column: String) -> String { (scope + [column]).joined(separator: ", ") }

    private func insert(into table: String, _ columns: [String]) -> String {
        let all = scope + columns
        return "INSERT INTO \(table)(\(all.joined(separator: ", "))) VALUES (\((1...all.count).map(placeholder).joined(separator: ", ")))"
    }

    private func select(_ columns: [String], from table: String, by column: String) -> String {
        "SELECT \(columns.joined(separator: ", ")) FROM \(table) WHERE \(scoped)\(column) = \(placeholder(scope.count + 1))"
    }

    /// The larger and the smaller of two values.
    private var greatest: String { dialect == .sqlite ? "max" : "greatest" }
    private var least: String { dialect == .sqlite ? "min" : "least" }

    /// A text column as its bytes, compared byte by byte (PostgreSQL's columns are `bytea`).
    private func bytes(_ column: String) -> String { dialect == .sqlite ? "CAST(\(column) AS BLOB)" : column }
}

extension TipEventRecord.Kind {
    /// The stored form: the `kind`, `count`, `duration_ms`, `reason`, `action_id` and
    /// `experiment` columns.
    package var columns: (kind: String, count: Int64, durationMilliseconds: Int64, reason: String?, action: String?, experiment: String?) {
        switch self {
        case .display(let count, let milliseconds): return ("display", count, milliseconds, nil, nil, nil)
        case .invalidation(let reason): return ("invalidation", 0, 0, reason.rawValue, nil, nil)
        case .reset: return ("reset", 0, 0, nil, nil, nil)
        case .action(let action): return ("action", 0, 0, nil, action, nil)
        case .exposure(let experiment): return ("exposure", 0, 0, nil, nil, experiment)
        }
    }

    /// The kind stored as `columns`; nil for a kind or reason this version does not know, or
    /// an action or exposure without its name (such a record is kept, unused).
    package init?(kind: String, count: Int64, durationMilliseconds: Int64, reason: String?, action: String?, experiment: String?) {
        switch kind {
        case "display": self = .display(count: count, milliseconds: durationMilliseconds)
        case "invalidation":
            guard let reason = reason.flatMap(InvalidationReason.init(rawValue:)) else { return nil }
            self = .invalidation(reason)
        case "reset": self = .reset
        case "action":
            guard let action else { return nil }
            self = .action(action)
        case "exposure":
            guard let experiment else { return nil }
            self = .exposure(experiment: experiment)
        default: return nil
        }
    }
}

extension TipEventRecord {
    /// The stored `date_ms`: NULL (nil) when the record is dated by its stamp, as records stored
    /// before format 2 are.
    package var storedDate: Int64? { date == stamp.milliseconds ? nil : date }
}
