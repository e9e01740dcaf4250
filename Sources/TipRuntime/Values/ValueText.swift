/// The text form of values, as people type them (`--value`, `tipc store set`, timelines, a
/// placeholder's value) and as every text shows them (tips' texts, reports, previews):
/// `true`/`false`; integers (`_` may separate digits); finite decimals; a String's own text;
/// ISO-8601 instants for dates (`2026-03-01T09:00:00Z`); durations as `DurationText` writes
/// them (`1d12h`, `1500ms`). `parse(display(v))` is `v` for every value `parse` can give: a
/// person never writes a negative duration (as in a manifest), though a computed one displays
/// as `-2h`.
package enum ValueText {
    /// Why a text is not a value of the type asked for.
    package struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        package var text: String
        package var type: ValueType
        /// What is wrong, when more can be said than the type.
        package var reason: String?

        /// `'90x' is not a Duration: unknown duration unit 'x'; units are ms, s, m, h, d and w`.
        package var description: String { message(for: nil) }

        /// The message with what the value was for: `'yes' is not an Int (parameter 'n'): …`.
        package func message(for what: String?) -> String {
            "'\(text)' is not \(EnglishText.withArticle(type.description))" + (what.map { " (\($0))" } ?? "") + (reason.map { ": " + $0 } ?? "")
        }
    }

    /// `text` as a value of `type`.
    package static func parse(_ text: String, as type: ValueType) -> Result<RuntimeValue, ParseError> {
        func failure(_ reason: String?) -> Result<RuntimeValue, ParseError> { .failure(ParseError(text: text, type: type, reason: reason)) }
        switch type {
        case .bool:
            guard let flag = Bool(text) else { return failure(nil) }
            return .success(.bool(flag))
        case .int:
            guard let number = Int64(text.filter { $0 != "_" }) else { return failure(nil) }
            return .success(.int(number))
        case .double:
            guard let number = Double(text), number.isFinite else { return failure(nil) }
            return .success(.double(number))
        case .string:
            return .success(.string(text))
        case .date:
            guard let milliseconds = ISO8601.milliseconds(from: text) else {
                return failure("write an ISO-8601 instant such as 2026-03-01T09:00:00Z or 2026-03-01")
            }
            return .success(.date(milliseconds: Int64(milliseconds)))
        case .duration:
            switch DurationText.milliseconds(of: text, allowsNegative: false) {
            case .success(let milliseconds): return .success(.duration(milliseconds: milliseconds))
            case .failure(let problem): return failure(problem.message + (problem.help.map { "; \($0)" } ?? ""))
            }
        }
    }

    /// The value as text: a String as it is, a Double in its shortest exact form, a date in
    /// ISO 8601, a duration as `DurationText` spells it.
    package static func display(_ value: RuntimeValue) -> String {
        switch value {
        case .bool(let flag): return flag ? "true" : "false"
        case .int(let number): return String(number)
        case .double(let number): return number.description
        case .string(let text): return text
        case .date(let milliseconds): return ISO8601.string(fromMilliseconds: Int(milliseconds))
        case .duration(let milliseconds): return DurationText.string(milliseconds: milliseconds)
        }
    }
}
