/// Every declaration of a program, by name, with duplicates reported. Names share one
/// namespace (SPEC §2): a parameter and an event may not have the same name either.
///
/// One dictionary holds every name, so declaring costs one hash and a lookup one more; the
/// names of each kind are also kept in declaration order, for did-you-mean suggestions (which
/// are then the same on every run: among equally close names, the first declared wins).
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
    private(set) var parameterNames: [String] = []
    private(set) var eventNames: [String] = []
    private(set) var tipNames: [String] = []

    /// Makes room for `count` names, so that declaring them never grows the table.
    mutating func reserveCapacity(_ count: Int) {
        entries.reserveCapacity(count)
    }

    /// Declares `name`; a second declaration of a name is a `duplicate-name` error pointing at it,
    /// with a note at the first.
    mutating func declare(_ name: Identifier, as kind: Kind, index: Int, diagnostics: inout [Diagnostic]) -> Bool {
        // One hash for the usual case (a new name); a duplicate puts the first entry back.
        if let first = entries.updateValue(Entry(kind: kind, index: index, range: name.range), forKey: name.name) {
            entries[name.name] = first
            let message = first.kind == kind
                ? "duplicate \(kind.rawValue) '\(name.name)'"
                : "\(kind.rawValue) '\(name.name)' has the name of a \(first.kind.rawValue)"
            diagnostics.append(Diagnostic(
                .duplicateName, message, at: name.range,
                help: "names of parameters, events, tips and groups are unique in the whole program",
                notes: [DiagnosticNote("'\(name.name)' is first declared here", at: first.range)]))
            return false
        }
        switch kind {
        case .parameter: parameterNames.append(name.name)
        case .event: eventNames.append(name.name)
        case .tip: tipNames.append(name.name)
        case .group: break
        }
        return true
    }

    func kind(of name: String) -> Kind? { entries[name]?.kind }

    /// The index of the parameter named `name`, if there is one.
    func parameter(_ name: String) -> Int? { index(of: name, .parameter) }

    /// The index of the event named `name`, if there is one.
    func event(_ name: String) -> Int? { index(of: name, .event) }

    /// The index of the tip named `name`, if there is one.
    func tip(_ name: String) -> Int? { index(of: name, .tip) }

    private func index(of name: String, _ kind: Kind) -> Int? {
        guard let entry = entries[name], entry.kind == kind else { return nil }
        return entry.index
    }
}
