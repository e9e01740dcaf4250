/// A position in a source file: 1-based line and 1-based column counted in Unicode scalars.
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    // Stored in 32 bits each (source files are at most 64 MiB): every syntax-tree node, checked
    // expression and YAML node carries two of these, and the smaller range keeps the trees lean.
    private var storedLine: Int32
    private var storedColumn: Int32

    public var line: Int {
        get { Int(storedLine) }
        set { storedLine = Int32(clamping: newValue) }
    }

    public var column: Int {
        get { Int(storedColumn) }
        set { storedColumn = Int32(clamping: newValue) }
    }

    public init(line: Int, column: Int) {
        self.storedLine = Int32(clamping: line)
        self.storedColumn = Int32(clamping: column)
    }

    private init(storedLine: Int32, storedColumn: Int32) {
        self.storedLine = storedLine
        self.storedColumn = storedColumn
    }

    /// This location `count` columns further on the same line, in 32-bit arithmetic without
    /// clamping: the caller makes sure that the column stays below `Int32.max` (the rule lexer,
    /// which places every token so, does this only for texts whose end column is below it).
    @inline(__always)
    func movedRight(by count: Int) -> SourceLocation {
        SourceLocation(storedLine: storedLine, storedColumn: storedColumn &+ Int32(truncatingIfNeeded: count))
    }

    public static func < (a: SourceLocation, b: SourceLocation) -> Bool {
        (a.storedLine, a.storedColumn) < (b.storedLine, b.storedColumn)
    }

    public var description: String { "\(line):\(column)" }
}

/// A span of text in one file. `end` is exclusive: the position just after the last character
/// (the convention of SARIF regions and rustc's JSON).
public struct SourceRange: Sendable, Hashable, CustomStringConvertible {
    /// The file, by its number in `SourcePaths` (see there for why).
    let fileNumber: UInt32
    public var start: SourceLocation
    public var end: SourceLocation

    /// The path of the file, as the user gave it.
    public var file: String { SourcePaths.path(fileNumber) }

    public init(file: String, start: SourceLocation, end: SourceLocation) {
        self.init(fileNumber: SourcePaths.number(of: file), start: start, end: end)
    }

    /// A range in the file registered as `fileNumber` (hot paths keep the number at hand).
    init(fileNumber: UInt32, start: SourceLocation, end: SourceLocation) {
        self.fileNumber = fileNumber
        self.start = start
        self.end = max(start, end)
    }

    /// A zero-width range at `location`.
    public init(file: String, at location: SourceLocation) {
        self.init(file: file, start: location, end: location)
    }

    init(fileNumber: UInt32, at location: SourceLocation) {
        self.init(fileNumber: fileNumber, start: location, end: location)
    }

    /// The smallest range covering both (they must be in the same file).
    @inline(__always)
    public func union(_ other: SourceRange) -> SourceRange {
        SourceRange(fileNumber: fileNumber, start: min(start, other.start), end: max(end, other.end))
    }

    public var description: String { "\(file):\(start)" }
}

/// A value together with the source range it was written at.
public struct Located<Value: Sendable>: Sendable {
    public var value: Value
    public var range: SourceRange

    public init(_ value: Value, at range: SourceRange) {
        self.value = value
        self.range = range
    }
}

extension Located: Equatable where Value: Equatable {}
extension Located: Hashable where Value: Hashable {}
