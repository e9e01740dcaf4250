import Foundation
import RegexBuilder

struct Parser {
    let quoted = /a"b/
    let extended = #/"(?<name>[^"]*)"/#
    let multiline = #/
        \d+ " # a quote in a comment of the regex
        [a-z]+
    /#
    let builder = Regex {
        "x"
        OneOrMore(.digit)
    }
    let raw = #"a "quoted" \(not interpolated) string"#
    let interpolated = "total: \(items.map { "\($0)" }.joined(separator: ", "))"
    var items: [Int] = []

    func half(_ total: Int) -> Int { total / 2 }
    func ratio(_ a: Double, _ b: Double) -> Double { (a + b)/2 / b }

    func matches(_ text: String) -> Bool {
        if text.contains(/[)}\]"]+/) { return true }
        switch text {
        case /^"start/: return true
        default: return text.firstMatch(of: /end"$/) != nil
        }
    }
}

@Observable
@MainActor
final class Model {
    #if DEBUG
    var mode = "debug {"
    #else
    var mode = "release {"
    #endif
    @ObservationIgnored private var cache: [String: Int] = [:]
}
