/// Every declaration of a program, by name, with duplicates reported. Names share one
/// namespace: a parameter and an event may not have the same name either. The names
/// of each kind are listed in declaration order, for did-you-mean suggestions (which are then
/// the same on every run: among equally close names, the first declared wins).
struct SymbolTable {
    enum Kind: String {
        case parameter, event, tip, group, experiment
    }

    struct Entry {
        var kind: Kind
        var index: Int
        var range: SourceRange
    }

    private var entries: [ByteName: Entry] = [:]
    /// The declared names, in declaration order, with their kinds.
    private var declared: [(name: String, kind: Kind)] = []

    /// The names of parameters, of events, of tips, in declaration order (for suggestions).
    var parameterNames: [String] { names(of: .parameter) }
    var eventNames: [String] { names(of: .event) }
    var tipNames: [String] { names(of: .tip) }

    private func names(of kind: Kind) -> [String] {
        declared.compactMap { $0.kind == kind ? $0.name : nil }
    }

    /// Makes room for `count` names, so that declaring them never grows the table.
    mutating func reserveCapacity(_ count: Int) {
        entries.reserveCapacity(count)
        declared.reserveCapacity(count)
    }

    /// Declares `name`; a second declaration of a name is a `duplicate-name` error pointing at it,
    /// with a note at the first.
    mutating func declare(_ name: borrowing Identifier, as kind: Kind, index: Int, diagnostics: inout [Diagnostic]) -> Bool {
        let key = ByteName(name.name)
        // One lookup for a new name (nearly all): inserted at once; a repeat puts the first back.
        guard let first = entries.updateValue(Entry(kind: kind, index: index, range: name.range), forKey: key) else {
            declared.append((name.name, kind))
            return true
        }
        entries[key] = first
        let message = first.kind == kind
            ? "duplicate \(kind.rawValue) '\(name.name)'"
            : "\(kind.rawValue) '\(name.name)' has the name of \(first.kind == .event || first.kind == .experiment ? "an" : "a") \(first.kind.rawValue)"
        diagnostics.append(Diagnostic(
            .duplicateName, message, at: name.range,
            help: "names of parameters, events, tips, groups and experiments are unique in the whole program",
            notes: [DiagnosticNote("'\(name.name)' is first declared here", at: first.range)]))
        return false
    }

    func kind(of name: String) -> Kind? { entries[ByteName(name)]?.kind }

    /// The index of the parameter named `name`, if there is one.
    func parameter(_ name: String) -> Int? { index(of: name, .parameter) }

    /// The index of the event named `name`, if there is one.
    func event(_ name: String) -> Int? { index(of: name, .event) }

    /// The index of the tip named `name`, if there is one.
    func tip(_ name: String) -> Int? { index(of: name, .tip) }

    private func index(of name: String, _ kind: Kind) -> Int? {
        guard let entry = entries[ByteName(name)], entry.kind == kind else { return nil }
        return entry.index
    }
}
