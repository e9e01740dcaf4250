import TipcCompiler

/// Renaming a program name that a module of Swift files declares (what the language server's
/// rename asks of the TipKit bridge).
///
/// Only text that is certainly the name is rewritten:
/// - an event, by the characters of its `id:` string literal (the Swift property that holds the
///   event keeps its name: rules read the event through it);
/// - a tip with a literal `id`, by that literal's characters;
/// - a `@Parameter` static, by its property name: the declaration, and every `name`/`$name`
///   written after `Self.` inside its type or after its type's name. A `name` written anywhere
///   else is refused, since it may or may not be the parameter; `x.name` on a lowercase `x`
///   (an instance: a static is never reached that way) and `T.name` on another type of the
///   module are other names and left alone;
/// - a `Tips.Parameter(…)` value, by its id string literal.
///
/// Anything else — an id taken from a constant, a tip named by its Swift type, a group, a
/// payload field — is refused with the reason: renaming it is a Swift refactoring.
public enum SwiftRename {
    /// Which kind of name to rename.
    public enum Kind: Sendable {
        case parameter, event, tip
        /// Any other kind, by the name messages give it (`group`, `payload field`): refused.
        case other(String)
    }

    /// Why a rename cannot be done, said so that the user knows what to do instead.
    public struct Refusal: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// The exact ranges in `sources` (the module's Swift files) that spell `name` and must read
    /// `newName` after the rename; a refusal when some spelling cannot be rewritten safely.
    public static func edits(renaming kind: Kind, _ name: String, to newName: String, in sources: [SourceFile]) -> Result<[SourceRange], Refusal> {
        var files: [TipKitModuleBuilder.File] = []
        for source in sources {
            let (tokens, problems) = SwiftLexer.tokenize(source.bytes)
            guard problems.isEmpty else {
                return .failure(Refusal(description: "\(source.path) cannot be read as Swift; rename in Swift files once they can be read"))
            }
            files.append(TipKitModuleBuilder.File(source: source, outline: SwiftDeclarationReader.read(tokens)))
        }
        var builder = TipKitModuleBuilder(files: files)
        _ = builder.build()
        let finder = SiteFinder(builder: builder)
        let sites: Result<[SourceRange], Refusal>
        switch kind {
        case .event: sites = finder.eventSites(name)
        case .tip: sites = finder.tipSites(name)
        case .parameter: sites = finder.parameterSites(name, newName: newName)
        case .other(let what):
            sites = .failure(Refusal(description: "a \(what) declared in Swift is a Swift property or type: rename it with a Swift refactoring tool"))
        }
        return sites.map { Array(Set($0)).sorted { ($0.file, $0.start) < ($1.file, $1.start) } }
    }
}

/// Finds the spellings of one name in a module the builder has read.
private struct SiteFinder {
    let builder: TipKitModuleBuilder

    private func refusal(_ message: String) -> Result<[SourceRange], SwiftRename.Refusal> {
        .failure(SwiftRename.Refusal(description: message))
    }

    private func place(_ file: Int, _ token: Int) -> String {
        let range = builder.range(file, tokens: token, token + 1)
        return "\(range.file):\(range.start.line):\(range.start.column)"
    }

    /// The characters between the quotes of `expression` when it is one plain string literal
    /// whose text is exactly `name` (no escapes, raw delimiters or interpolation).
    private func literalSite(_ file: Int, _ expression: SwiftExpression, spelling name: String) -> SourceRange? {
        guard case .string(let text, interpolated: false) = expression.kind, text == name, expression.end == expression.start + 1 else { return nil }
        let token = builder.files[file].outline.tokens[expression.start]
        let bytes = builder.files[file].source.bytes
        let inner = Array(name.utf8)
        guard token.end - token.start == inner.count + 2, bytes[token.start] == UInt8(ascii: "\""),
              bytes[(token.start + 1)..<(token.end - 1)].elementsEqual(inner) else { return nil }
        return builder.files[file].source.range(fromUTF8: token.start + 1, to: token.end - 1)
    }

    func eventSites(_ name: String) -> Result<[SourceRange], SwiftRename.Refusal> {
        var sites: [SourceRange] = []
        for (fileIndex, file) in builder.files.enumerated() {
            for property in file.outline.properties {
                guard builder.events[TipKitModuleBuilder.key(property.owner, property.name)]?.name == name,
                      let initializer = property.initializer, let (_, arguments) = builder.eventCall(initializer, of: property),
                      let id = arguments.first(where: { $0.label == "id" })?.value else { continue }
                guard let site = literalSite(fileIndex, id, spelling: name) else {
                    return refusal("the event '\(name)' takes its id from '\(builder.text(fileIndex, id))' at \(place(fileIndex, id.start)), not from a string literal; rename it there by hand")
                }
                sites.append(site)
            }
        }
        return sites.isEmpty ? refusal("no Swift declaration of the event '\(name)' was found") : .success(sites)
    }

    func tipSites(_ name: String) -> Result<[SourceRange], SwiftRename.Refusal> {
        var sites: [SourceRange] = []
        for path in builder.tipPaths where builder.tipNames[path.joined(separator: ".")] == name {
            guard let id = builder.members(of: path).first(where: { $0.property.name == "id" && !$0.property.isStatic }),
                  let value = builder.singleValue(id.property) else {
                return refusal("the tip '\(name)' is named by its Swift type: rename the type with a Swift refactoring tool")
            }
            guard let site = literalSite(id.file, value, spelling: name) else {
                return refusal("the tip '\(name)' takes its id from '\(builder.text(id.file, value))' at \(place(id.file, value.start)), not from a string literal; rename it there by hand")
            }
            sites.append(site)
        }
        return sites.isEmpty ? refusal("no Swift declaration of the tip '\(name)' was found") : .success(sites)
    }

    func parameterSites(_ name: String, newName: String) -> Result<[SourceRange], SwiftRename.Refusal> {
        var sites: [SourceRange] = []
        for (fileIndex, file) in builder.files.enumerated() {
            for property in file.outline.properties {
                guard builder.parameters[TipKitModuleBuilder.key(property.owner, property.name)]?.name == name else { continue }
                if property.attributes["Parameter"] != nil {
                    guard property.name == name else {
                        return refusal("the parameter '\(name)' is the Swift property '\(property.name)' of \(property.owner.joined(separator: ".")): rename the property with a Swift refactoring tool")
                    }
                    if SwiftIdentifiers.keywords.contains(newName) {
                        return refusal("'\(newName)' is a Swift keyword: a parameter declared in Swift cannot be named so")
                    }
                    if let clash = builder.members(of: property.owner).first(where: { $0.property.name == newName }) {
                        return refusal("\(property.owner.joined(separator: ".")) already has a member '\(newName)' (\(place(clash.file, clash.property.nameToken)))")
                    }
                    switch propertySites(of: property, in: fileIndex) {
                    case .success(let found): sites += found
                    case .failure(let refusal): return .failure(refusal)
                    }
                } else if let initializer = property.initializer, let (_, arguments) = TipKitModuleBuilder.parameterCall(initializer) {
                    guard let site = literalSite(fileIndex, arguments[1].value, spelling: name) else {
                        return refusal("the parameter '\(name)' takes its id from '\(builder.text(fileIndex, arguments[1].value))', not from a string literal; rename it there by hand")
                    }
                    sites.append(site)
                }
            }
        }
        return sites.isEmpty ? refusal("no Swift declaration of the parameter '\(name)' was found") : .success(sites)
    }

    private struct Declaration: Hashable {
        var file: Int
        var token: Int
    }

    /// Where each property of the module is declared.
    private func allDeclarations() -> Set<Declaration> {
        Set(builder.files.enumerated().flatMap { index, file in file.outline.properties.map { Declaration(file: index, token: $0.nameToken) } })
    }

    /// Whether a bare `name` looked up from inside `scope` finds the member of `owner`: `scope`
    /// is `owner` or nested in it, and no type in between declares a member of that name.
    private func isLookup(of name: String, from scope: [String], reaching owner: [String]) -> Bool {
        guard scope.starts(with: owner) else { return false }
        var inner = scope
        while inner.count > owner.count {
            if builder.members(of: inner).contains(where: { $0.property.name == name }) { return false }
            inner.removeLast()
        }
        return true
    }

    /// The innermost type whose body holds token `index` of `file`.
    private func scope(of index: Int, in file: Int) -> [String]? {
        builder.files[file].outline.types.filter { $0.body.contains(index) }.max { $0.path.count < $1.path.count }?.path
    }

    /// The `@Parameter` property's name token and every token that certainly reads it; a
    /// refusal naming the first token spelled like it that may or may not be it.
    private func propertySites(of property: SwiftOutline.Property, in declaringFile: Int) -> Result<[SourceRange], SwiftRename.Refusal> {
        var sites = [builder.range(declaringFile, tokens: property.nameToken, property.nameToken + 1)]
        let owner = property.owner
        let declarations = allDeclarations()
        for (fileIndex, file) in builder.files.enumerated() {
            let tokens = file.outline.tokens
            for (index, token) in tokens.enumerated() where token.text == property.name {
                if fileIndex == declaringFile, index == property.nameToken { continue }
                let prefix: Int
                switch token.kind {
                case .identifier: prefix = 0
                case .dollarIdentifier: prefix = 1
                default: continue
                }
                // Backticked or otherwise spelled differently: not rewritten by position.
                guard token.end - token.start == property.name.utf8.count + prefix else {
                    return refusal("'\(property.name)' is written in a form rename cannot rewrite at \(place(fileIndex, index)); rename it with a Swift refactoring tool")
                }
                guard index >= 2, tokens[index - 1].isPunctuation(".") else {
                    // Another property's declaration is another name.
                    if declarations.contains(Declaration(file: fileIndex, token: index)) { continue }
                    // `$name` in the type or a type nested in it that declares no such member.
                    if token.kind == .dollarIdentifier, let scope = scope(of: index, in: fileIndex), isLookup(of: property.name, from: scope, reaching: owner) {
                        sites.append(file.source.range(fromUTF8: token.start + 1, to: token.end))
                        continue
                    }
                    return refusal("'\(token.kind == .dollarIdentifier ? "$" : "")\(property.name)' at \(place(fileIndex, index)) may or may not be the parameter of \(owner.joined(separator: ".")); rename it with a Swift refactoring tool")
                }
                // `base.name`: which type `base` is decides.
                var start = index - 2
                while start >= 2, tokens[start - 1].isPunctuation("."), tokens[start - 2].kind == .identifier { start -= 2 }
                let base = tokens[start...(index - 2)].filter { $0.kind == .identifier }.map(\.text)
                guard tokens[index - 2].kind == .identifier else { continue }
                let resolved: [String]?
                if base == ["Self"] {
                    resolved = scope(of: index, in: fileIndex)
                } else {
                    resolved = builder.resolveType(base, from: scope(of: index, in: fileIndex) ?? [])
                }
                if resolved == owner {
                    sites.append(file.source.range(fromUTF8: token.start + prefix, to: token.end))
                } else if resolved == nil, base.count == 1, let first = base[0].first, first.isUppercase || base[0] == "self" {
                    return refusal("'\(base[0]).\(property.name)' at \(place(fileIndex, index)): '\(base[0])' is no type of these Swift files, so it may or may not be the parameter of \(owner.joined(separator: ".")); rename it with a Swift refactoring tool")
                }
            }
        }
        return .success(sites)
    }
}
