/// Every declaration of a program, by name, with duplicates reported. Names share one
/// namespace (SPEC §2): a parameter and an event may not have the same name either.
struct SymbolTable {
    enum Kind: String {
        case parameter, event, tip, group
    }

    struct Entry {
        var kind: Kind
        var index: Int
        var range: SourceRange
    }

    private(set) var entries: [String: Entry] = [:]
    var parameters: [String: Int] = [:]
    var events: [String: Int] = [:]
    var tips: [String: Int] = [:]

    /// Declares `name`; a second declaration of a name is a `duplicate-name` error pointing at it,
    /// with a note at the first.
    mutating func declare(_ name: Identifier, as kind: Kind, index: Int, diagnostics: inout [Diagnostic]) -> Bool {
        if let first = entries[name.name] {
            let message = first.kind == kind
                ? "duplicate \(kind.rawValue) '\(name.name)'"
                : "\(kind.rawValue) '\(name.name)' has the name of a \(first.kind.rawValue)"
            diagnostics.append(Diagnostic(
                .duplicateName, message, at: name.range,
                help: "names of parameters, events, tips and groups are unique in the whole program",
                notes: [DiagnosticNote("'\(name.name)' is first declared here", at: first.range)]))
            return false
        }
        entries[name.name] = Entry(kind: kind, index: index, range: name.range)
        switch kind {
        case .parameter: parameters[name.name] = index
        case .event: events[name.name] = index
        case .tip: tips[name.name] = index
        case .group: break
        }
        return true
    }

    func kind(of name: String) -> Kind? { entries[name]?.kind }
}
