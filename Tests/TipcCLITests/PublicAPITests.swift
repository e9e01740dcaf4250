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

    /// One line per public symbol: its kind, its path and its declaration
    /// (`method TipCenter.beginDisplay(of:key:): func beginDisplay(of tip: String, key: TipKey? = nil) throws(TipError) -> TipPresentation`).
    static func publicSymbols(of module: String) throws -> [String] {
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
        let graph = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output.path).appendingPathComponent("\(module).symbols.json")))
        let symbols = ((graph as? [String: Any])?["symbols"] as? [[String: Any]]) ?? []
        var lines = Set<String>()
        for symbol in symbols {
            guard symbol["accessLevel"] as? String == "public",
                  let kind = (symbol["kind"] as? [String: Any])?["identifier"] as? String,
                  let path = symbol["pathComponents"] as? [String] else { continue }
            // The declaration tells overloads apart (`content(of:locale:)` with a `String` or a `Locale`).
            let declaration = ((symbol["declarationFragments"] as? [[String: Any]]) ?? []).compactMap { $0["spelling"] as? String }.joined()
            lines.insert("\(kind.replacingOccurrences(of: "swift.", with: "")) \(path.joined(separator: ".")): \(declaration)")
        }
        return lines.sorted()
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
