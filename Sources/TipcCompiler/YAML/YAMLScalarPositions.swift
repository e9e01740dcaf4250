extension YAMLScalar {
    /// The scalar's decoded value as rule text, with the file position of each of its UTF-8
    /// bytes: exact for plain, quoted and block scalars alike. Should the re-scan ever disagree
    /// with libyaml's value, every byte maps to the scalar's start (positions stay in the file,
    /// the text stays libyaml's).
    public func ruleText(in file: SourceFile) -> RuleText {
        var cursor = SourceLocationCursor(file: file)
        guard let output = YAMLScalarScanner.scan(self, in: file.bytes), output.bytes.elementsEqual(value.utf8) else {
            let start = cursor.location(atUTF8Offset: contentStart)
            let end = cursor.location(atUTF8Offset: contentEnd)
            let table = Array(repeating: start, count: value.utf8.count) + [end]
            return RuleText(text: value, path: file.path, mapping: .table(table))
        }
        let origins = output.origins
        if let first = origins.first {
            let contiguous = origins.indices.allSatisfy { origins[$0] == first + $0 }
            if contiguous, file.line(containing: first) == file.line(containing: output.end),
               output.end == first + origins.count {
                return RuleText(text: value, path: file.path, mapping: .singleLine(start: cursor.location(atUTF8Offset: first)))
            }
        } else {
            return RuleText(text: value, path: file.path, mapping: .singleLine(start: cursor.location(atUTF8Offset: output.end)))
        }
        var table: [SourceLocation] = []
        table.reserveCapacity(origins.count + 1)
        for origin in origins { table.append(cursor.location(atUTF8Offset: origin)) }
        table.append(cursor.location(atUTF8Offset: output.end))
        return RuleText(text: value, path: file.path, mapping: .table(table))
    }
}
