/// A text as the runtime fills it: literal pieces, a parameter's current value (`{$p}`) and a
/// placeholder the app passes (`{name}`). The compiler parses the braces; the pack stores the
/// pieces, so the runtime never parses a text.
package struct TextTemplate: Sendable, Hashable {
    package enum Segment: Sendable, Hashable {
        /// Text as it reads (`{{` and `}}` already turned into single braces).
        case literal(String)
        /// The current value of parameter N of the pack.
        case parameter(Int)
        /// Placeholder N of the tip's declared placeholders.
        case placeholder(Int)
    }

    package var segments: [Segment]

    package init(_ segments: [Segment]) {
        self.segments = segments
    }

    /// The parameters and placeholders the text reads (for the "same placeholders in every
    /// locale" check).
    package var references: Set<Segment> {
        Set(segments.filter { if case .literal = $0 { return false } else { return true } })
    }

    /// The template written back with braces (`{$name}`, `{name}`, `{{`), for inspection.
    package func source(parameterNames: [String], placeholderNames: [String]) -> String {
        var text = ""
        for segment in segments {
            switch segment {
            case .literal(let literal):
                text += literal.replacingBraces()
            case .parameter(let index):
                text += "{$" + (index < parameterNames.count ? parameterNames[index] : "#\(index)") + "}"
            case .placeholder(let index):
                text += "{" + (index < placeholderNames.count ? placeholderNames[index] : "#\(index)") + "}"
            }
        }
        return text
    }
}

private extension String {
    func replacingBraces() -> String {
        var text = ""
        for character in self {
            text.append(character)
            if character == "{" || character == "}" { text.append(character) }
        }
        return text
    }
}
