import Foundation
import Testing

/// What an app can reach in the runtime's products: every public symbol of `TipRuntime` and
/// `TipRuntimeSQLite`, listed from the built modules by the toolchain's symbol graph extractor
/// and compared with a list checked into the repository. A symbol that becomes public (or stops
/// being public) fails this test until the list is updated on purpose:
/// `TIPC_UPDATE_GOLDEN=1 swift test --filter PublicAPITests`, then review the diff. What the
/// compiler, the CLI and the service share with the runtime is `package`, not public.
@Suite struct PublicAPITests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/public-api")

    #if arch(arm64)
    static let target = "aarch64-unknown-linux-gnu"
    #else
    static let target = "x86_64-unknown-linux-gnu"
    #endif

    /// Every public symbol of `module` as the toolchain's symbol graph extractor describes it.
    static func symbolGraph(of module: String) throws -> [[String: Any]] {
        let modules = try ExecutableTests.executable().deletingLastPathComponent().appendingPathComponent("Modules")
        let output = try TemporaryFolder()
        let process = Process()
        // The extractor ships beside swiftc in every Swift toolchain.
        process.executableURL = URL(fileURLWithPath: try GenerateSwiftCommandTests.swiftc()).deletingLastPathComponent()
            .appendingPathComponent("swift-symbolgraph-extract")
        process.arguments = ["-module-name", module, "-I", modules.path,
                             "-I", URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                                .deletingLastPathComponent().appendingPathComponent("Sources/CSQLite").path,
                             "-target", Self.target, "-minimum-access-level", "public", "-output-dir", output.path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "swift-symbolgraph-extract: \(message)")
        // `module.symbols.json` holds the module's own types; `module@Swift.symbols.json` and the
        // like hold its public extensions of other modules' types, which an app sees as well.
        let files = try FileManager.default.contentsOfDirectory(atPath: output.path).filter { $0.hasSuffix(".symbols.json") }
        #expect(files.contains("\(module).symbols.json"), "no symbol graph of \(module): \(files)")
        var symbols: [[String: Any]] = []
        for file in files {
            let graph = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output.path).appendingPathComponent(file)))
            symbols += ((graph as? [String: Any])?["symbols"] as? [[String: Any]]) ?? []
        }
        return symbols.filter { $0["accessLevel"] as? String == "public" }
    }

    /// One line per public symbol: its kind, its path and its declaration
    /// (`method TipCenter.beginDisplay(of:key:): func beginDisplay(of tip: String, key: TipKey? = nil) throws(TipError) -> TipPresentation`).
    static func publicSymbols(of module: String) throws -> [String] {
        var lines = Set<String>()
        for symbol in try symbolGraph(of: module) {
            guard let kind = (symbol["kind"] as? [String: Any])?["identifier"] as? String,
                  let path = symbol["pathComponents"] as? [String] else { continue }
            // The declaration tells overloads apart (`content(of:locale:)` with a `String` or a `Locale`).
            let declaration = ((symbol["declarationFragments"] as? [[String: Any]]) ?? []).compactMap { $0["spelling"] as? String }.joined()
            lines.insert("\(kind.replacingOccurrences(of: "swift.", with: "")) \(path.joined(separator: ".")): \(declaration)")
        }
        return lines.sorted()
    }

    /// Every public declaration written in the sources carries a doc comment, so that what an
    /// app sees in completion and in generated documentation says what it is. What the compiler
    /// synthesises (`hashValue`, a conformance's default operators) has no place in the sources
    /// and is not asked for one.
    @Test(arguments: ["TipRuntime", "TipRuntimeSQLite"])
    func everyPublicDeclarationIsDocumented(_ module: String) throws {
        var undocumented: [String] = []
        for symbol in try Self.symbolGraph(of: module) {
            guard let location = symbol["location"] as? [String: Any], symbol["docComment"] == nil,
                  let path = symbol["pathComponents"] as? [String] else { continue }
            let file = (location["uri"] as? String).map { URL(string: $0)?.lastPathComponent ?? $0 } ?? "?"
            let line = ((location["position"] as? [String: Any])?["line"] as? Int).map { $0 + 1 } ?? 0
            undocumented.append("\(file):\(line) \(path.joined(separator: "."))")
        }
        #expect(undocumented.isEmpty, "public declarations without a doc comment:\n\(undocumented.sorted().joined(separator: "\n"))")
    }

    @Test(arguments: ["TipRuntime", "TipRuntimeSQLite"])
    func thePublicSymbolsAreTheListedOnes(_ module: String) throws {
        let actual = try Self.publicSymbols(of: module).joined(separator: "\n") + "\n"
        let file = Self.fixtures.appendingPathComponent("\(module).txt")
        if ProcessInfo.processInfo.environment["TIPC_UPDATE_GOLDEN"] == "1" {
            try actual.write(to: file, atomically: true, encoding: .utf8)
        }
        let expected = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        let added = Set(actual.split(separator: "\n")).subtracting(expected.split(separator: "\n")).sorted()
        let removed = Set(expected.split(separator: "\n")).subtracting(actual.split(separator: "\n")).sorted()
        #expect(added.isEmpty && removed.isEmpty,
                "\(module)'s public API changed; newly public: \(added); no longer public: \(removed). If meant, rerun with TIPC_UPDATE_GOLDEN=1 and review the list")
    }
}
