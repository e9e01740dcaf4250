import Foundation

/// The whole report: every experiment's arms, and every tip's figures, written as text for a
/// person, JSON for programs, or CSV (one row per arm) for a spreadsheet.
public struct AnalyticsReport: Sendable, Hashable, Codable {
    public let experiments: [ExperimentReport]
    public let tips: [TipReport]

    public init(experiments: [ExperimentReport], tips: [TipReport]) {
        self.experiments = experiments
        self.tips = tips
    }

    /// The report as JSON, keys sorted; rates and intervals as fractions.
    public func json(pretty: Bool = false) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// One row per arm of every experiment, the columns named as the JSON's fields (nested
    /// ones with dots: `sampleRatio.pValue`, `actions.ID`, `interval.low`); an empty cell
    /// where the JSON has `null` or nothing. Lines end with CRLF, as CSV's definition has it.
    public func csv() -> String {
        let actionIDs = Set(experiments.flatMap { $0.arms.flatMap(\.actions.keys) }).sorted()
        var header = ["experiment", "tip", "goal", "sampleRatio.pValue", "sampleRatio.mismatch", "arm", "weight", "assigned",
                      "exposed", "displays"]
        header += actionIDs.map { "actions.\($0)" }
        header += ["closes", "converted", "conversionRate", "interval.low", "interval.high", "difference.value",
                   "difference.interval.low", "difference.interval.high", "difference.pValue", "tooFewUsers", "verdict"]
        var rows = [header]
        for experiment in experiments {
            for arm in experiment.arms {
                var row = [experiment.name, experiment.tip, experiment.goal ?? "", Self.number(experiment.sampleRatio.pValue),
                           String(experiment.sampleRatio.mismatch), arm.name, String(arm.weight), String(arm.assigned),
                           String(arm.exposed), String(arm.displays)]
                row += actionIDs.map { String(arm.actions[$0] ?? 0) }
                row += [String(arm.closes), String(arm.converted), Self.number(arm.conversionRate), Self.number(arm.interval?.low),
                        Self.number(arm.interval?.high), Self.number(arm.difference?.value),
                        Self.number(arm.difference?.interval.low), Self.number(arm.difference?.interval.high),
                        Self.number(arm.difference?.pValue), String(arm.tooFewUsers), arm.verdict?.rawValue ?? ""]
                rows.append(row)
            }
        }
        return rows.map { $0.map(Self.csvField).joined(separator: ",") + "\r\n" }.joined()
    }

    /// The report for a person: per experiment a table of its arms, then the tips.
    public func text() -> String {
        var out = ""
        for experiment in experiments {
            out += "experiment \(experiment.name) (tip \(experiment.tip)"
            if let goal = experiment.goal { out += ", goal: \(goal)" }
            out += ")\n"
            switch (experiment.sampleRatio.pValue, experiment.sampleRatio.mismatch) {
            case (let p?, true):
                out += "  SAMPLE RATIO MISMATCH (p = \(Self.pValue(p))): the arms do not hold the users their weights give them; no verdict\n"
            case (let p?, false): out += "  sample ratio: as the weights give (p = \(Self.pValue(p)))\n"
            case (nil, _): out += "  sample ratio: nothing to test\n"
            }
            let baseline = experiment.arms.first?.name ?? ""
            var table = [["arm", "weight", "assigned", "exposed", "displays", "closes", "converted", "rate", "95% interval",
                          "vs \(baseline)", "95% interval", "p", "verdict"]]
            for (index, arm) in experiment.arms.enumerated() {
                table.append([arm.name, String(arm.weight), String(arm.assigned), String(arm.exposed), String(arm.displays),
                              String(arm.closes), String(arm.converted), Self.percent(arm.conversionRate),
                              arm.interval.map { "\(Self.percent($0.low)) – \(Self.percent($0.high))" } ?? "–",
                              arm.difference.map { Self.points($0.value) } ?? "–",
                              arm.difference.map { "\(Self.points($0.interval.low)) – \(Self.points($0.interval.high))" } ?? "–",
                              arm.difference.map { Self.pValue($0.pValue) } ?? "–",
                              Self.verdictText(arm, isBaseline: index == 0)])
            }
            out += Self.align(table).map { "  " + $0 + "\n" }.joined()
            for arm in experiment.arms where !arm.actions.isEmpty {
                out += "  \(arm.name) actions: " + arm.actions.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + "\n"
            }
            out += "\n"
        }
        if !tips.isEmpty {
            var table = [["tip", "users shown", "displays", "closes", "converted", "actions", "invalidations"]]
            for tip in tips {
                table.append([tip.id, String(tip.usersShown), String(tip.displays), String(tip.closes),
                              tip.converted.map { String($0) } ?? "–",
                              tip.actions.isEmpty ? "–" : tip.actions.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "),
                              tip.invalidations.isEmpty ? "–" : tip.invalidations.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")])
            }
            out += Self.align(table).map { $0 + "\n" }.joined()
        }
        return out
    }

    private static func verdictText(_ arm: ExperimentReport.Arm, isBaseline: Bool) -> String {
        if isBaseline { return arm.tooFewUsers ? "baseline, too few users" : "baseline" }
        switch arm.verdict {
        case .better: return "better"
        case .worse: return "worse"
        case .inconclusive: return "no significant difference"
        case .tooFewUsers: return "too few users"
        case nil: return "–"
        }
    }

    /// Columns padded to their widest cell (counting characters, not bytes).
    private static func align(_ rows: [[String]]) -> [String] {
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ")
        }
    }

    private static func percent(_ fraction: Double?) -> String {
        guard let fraction else { return "–" }
        return String(format: "%.2f%%", fraction * 100)
    }

    /// A difference of rates in percentage points, signed.
    private static func points(_ fraction: Double) -> String {
        String(format: "%+.2f pts", fraction * 100)
    }

    private static func pValue(_ value: Double) -> String {
        value < 0.0001 ? "< 0.0001" : String(format: "%.4f", value)
    }

    /// A fraction at full precision (the shortest text that reads back as the same number).
    private static func number(_ value: Double?) -> String {
        value.map { "\($0)" } ?? ""
    }

    private static func csvField(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
