import CYAML

/// Reads a YAML file into a `YAMLNode` tree by driving libyaml's event parser.
///
/// Refused, each with a `yaml` diagnostic at its exact position: malformed YAML, invalid
/// UTF-8 and characters YAML forbids, tabs used for indentation, anchors, aliases and tags
/// (aliases are never expanded, so alias bombs cost nothing), and a second document. A
/// repeated mapping key is a `duplicate-key` error (YAML parsers accept it silently); collections
/// nested deeper than `maximumDepth` are a `limit` error, and reading stops there.
public enum YAMLReader {
    /// The deepest nesting of mappings and sequences read.
    public static let maximumDepth = 64

    /// The root node of the file's document, or nil when it has none (an empty file, or
    /// an error before the first node).
    public static func read(_ file: SourceFile, diagnostics: inout [Diagnostic]) -> YAMLNode? {
        read(file, diagnostics: &diagnostics, streaming: [], entry: { _, _, _ in })
    }

    /// Reads like `read(_:diagnostics:)`, but hands each entry of the top-level sections named
    /// in `streamedSections` to `entry` (section name, key, value) as soon as it is complete,
    /// each in a document of its own, instead of keeping it: only one entry's nodes are alive
    /// at a time.
    ///
    /// A section streams when the root is a mapping, its key is a name in `streamedSections`
    /// written for the first time, and its value is a mapping. The section stays in the tree
    /// as a mapping without pairs (its range unchanged); a repeated key inside it is still
    /// reported and left out. After a YAML error, the entry cut short arrives truncated.
    public static func read(_ file: SourceFile, diagnostics: inout [Diagnostic], streaming streamedSections: Set<String>,
                            entry: (_ section: String, _ key: YAMLNode, _ value: YAMLNode) -> Void) -> YAMLNode? {
        if let problem = YAMLInputCheck.firstProblem(in: file) {
            diagnostics.append(problem)
            return nil
        }
        var builder = YAMLDocumentBuilder(file: file, streamedSections: streamedSections)
        if !file.bytes.isEmpty { run(&builder, entry: entry) }
        diagnostics += builder.diagnostics
        return builder.root
    }

    /// Drives libyaml over the builder's file, handing on entries as they complete.
    private static func run(_ builder: inout YAMLDocumentBuilder, entry: (String, YAMLNode, YAMLNode) -> Void) {
        let file = builder.file
        file.bytes.withUnsafeBufferPointer { buffer in
            var parser = yaml_parser_t()
            guard yaml_parser_initialize(&parser) == 1 else {
                builder.fail(Diagnostic(.limit, "out of memory while reading YAML", at: builder.range(from: 0, to: 0)))
                return
            }
            defer { yaml_parser_delete(&parser) }
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            parse(&parser, into: &builder, entry: entry)
        }
        builder.finish()
        builder.handOnCompletedEntries(to: entry)
    }

    private static func parse(_ parser: inout yaml_parser_t, into builder: inout YAMLDocumentBuilder,
                              entry: (String, YAMLNode, YAMLNode) -> Void) {
        var event = yaml_event_t()
        while !builder.isFinished {
            guard yaml_parser_parse(&parser, &event) == 1 else {
                builder.failWithParserError(parser)
                break
            }
            builder.handle(event)
            yaml_event_delete(&event)
            builder.handOnCompletedEntries(to: entry)
        }
    }
}
