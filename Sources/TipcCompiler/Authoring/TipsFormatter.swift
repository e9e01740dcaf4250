/// Formats a `.tips` file: the declarations printed by `TipsPrinter` in canonical layout,
/// with every comment of the file kept. A comment on its own line goes with the item below it
/// (a declaration, a tip attribute or a tip's closing brace; comments at the top of the file
/// followed by a blank line stay a header, comments at the end a footer); a comment at the end
/// of a line stays at the end of that item's line.
public enum TipsFormatter {
    /// The canonical text of `source`, parsed as `file` without errors.
    public static func format(_ source: SourceFile, parsed file: ManifestFile) -> String {
        TipsPrinter.print(file, comments: comments(of: source, file: file))
    }

    /// Where each comment of `source` goes in the canonical layout of `file`.
    public static func comments(of source: SourceFile, file: ManifestFile) -> TipsComments {
        let lexed = RuleLexer.lex(RuleText(file: source)).comments
        let items = positionedItems(of: file)
        var placement = TipsComments()
        var firstItemComments: [(line: Int, text: String)] = []
        for comment in lexed {
            let location = source.location(atUTF8Offset: comment.start)
            if comment.isOnOwnLine {
                guard let next = items.first(where: { $0.start > location }) else {
                    placement.footer.append(comment.text)
                    continue
                }
                if next.item == items.first?.item {
                    firstItemComments.append((location.line, comment.text))
                } else {
                    placement.leading[next.item, default: []].append(comment.text)
                }
            } else if let owner = items.last(where: { $0.start < location }) {
                if let previous = placement.trailing[owner.item] {
                    placement.leading[owner.item, default: []].append(previous)
                }
                placement.trailing[owner.item] = comment.text
            } else {
                placement.header.append(comment.text)
            }
        }
        if let first = items.first {
            // Comments above the first item that a blank line separates from it form the header.
            var lastHeader = -1
            for (index, comment) in firstItemComments.enumerated() {
                let nextLine = index + 1 < firstItemComments.count ? firstItemComments[index + 1].line : first.start.line
                if ((comment.line + 1)..<nextLine).contains(where: { isBlank(line: $0, in: source) }) { lastHeader = index }
            }
            placement.header += firstItemComments.prefix(lastHeader + 1).map(\.text)
            let rest = firstItemComments.dropFirst(lastHeader + 1).map(\.text)
            if !rest.isEmpty { placement.leading[first.item, default: []].insert(contentsOf: rest, at: 0) }
        }
        return placement
    }

    private static func isBlank(line: Int, in source: SourceFile) -> Bool {
        source.lineText(line).allSatisfy { $0 == " " || $0 == "\t" || $0 == "\r" }
    }

    /// Every item with where it starts in the source, in source order.
    private static func positionedItems(of file: ManifestFile) -> [(item: TipsItem, start: SourceLocation)] {
        var items: [(TipsItem, SourceLocation)] = []
        if let version = file.version { items.append((.version, version.range.start)) }
        if let frequency = file.displayFrequency { items.append((.displayFrequency, frequency.range.start)) }
        if let locale = file.defaultLocale { items.append((.defaultLocale, locale.range.start)) }
        for (index, parameter) in file.parameters.enumerated() { items.append((.parameter(index), parameter.range.start)) }
        for (index, event) in file.events.enumerated() { items.append((.event(index), event.range.start)) }
        for (index, group) in file.groups.enumerated() { items.append((.group(index), group.range.start)) }
        for (index, experiment) in file.experiments.enumerated() {
            items.append((.experiment(index), experiment.range.start))
            for row in ExperimentAttributes.all {
                let range: SourceRange?
                switch row.value {
                case .tip: range = nil  // in the head line
                case .eventWindow(let path): range = experiment[keyPath: path]?.range
                case .string(let path): range = experiment[keyPath: path]?.range
                case .arms: range = nil  // a line per arm, below
                }
                if let range { items.append((.experimentAttribute(experiment: index, row.key), range.start)) }
            }
            for (offset, arm) in experiment.arms.enumerated() { items.append((.arm(experiment: index, offset), arm.range.start)) }
            let end = experiment.range.end
            items.append((.experimentEnd(index), SourceLocation(line: end.line, column: max(1, end.column - 1))))
        }
        for (index, tip) in file.tips.enumerated() {
            items.append((.tip(index), tip.range.start))
            func add(_ attribute: TipsItem.TipAttribute, _ range: SourceRange?) {
                if let range { items.append((.tipAttribute(tip: index, attribute), range.start)) }
            }
            // The locales of a text written over several lines, so that comments between them stay.
            func addLocales(_ text: TextDecl?, _ slot: TipsItem.TextSlot) {
                guard let text, text.isLocalized else { return }
                for (offset, variant) in text.variants.enumerated() {
                    if let locale = variant.locale, locale.range.start.line > text.range.start.line {
                        add(.textLocale(slot, offset), locale.range)
                    }
                }
            }
            for attribute in TipAttributes.all where attribute.tipsWord != nil {
                add(.attribute(attribute.key), attribute.range(in: tip))
                if case .text(let path) = attribute.value { addLocales(tip[keyPath: path], .attribute(attribute.key)) }
            }
            for (offset, action) in tip.actions.enumerated() {
                add(.action(offset), action.id.range)
                addLocales(action.title, .action(offset))
            }
            for (offset, rule) in tip.rules.enumerated() { add(.rule(offset), rule.range) }
            let end = tip.range.end
            items.append((.tipEnd(index), SourceLocation(line: end.line, column: max(1, end.column - 1))))
        }
        return items.sorted { $0.1 < $1.1 }
    }
}
