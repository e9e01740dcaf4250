#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import TipcFuzzing

/// Replays every committed fuzz input through the fuzz bodies in an ordinary build: the seeds
/// (Fuzz/corpus/TARGET and the fixtures listed in Fuzz/seeds/TARGET.txt) and the inputs that
/// once crashed a fuzzer (Fixtures/fuzz/TARGET, each fixed since). A regression traps the test process.
@Suite struct FuzzRegressionTests {
    static let repository: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    static let bodies: [String: @Sendable ([UInt8]) -> Void] = [
        "FuzzManifest": CompilerFuzzing.manifest,
        "FuzzRuleLanguage": CompilerFuzzing.ruleLanguage,
        "FuzzSwiftImport": CompilerFuzzing.swiftImport,
        "FuzzPack": PackFuzzing.pack,
        "FuzzPackMutation": PackMutation.run,
    ]

    static func inputs(in folder: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { folder.appendingPathComponent($0) }
    }

    /// The repository's files listed as seeds in `Fuzz/seeds/TARGET.txt` (none when it is absent).
    static func listedSeeds(of target: String) throws -> [URL] {
        let list = repository.appendingPathComponent("Fuzz/seeds/\(target).txt")
        guard FileManager.default.fileExists(atPath: list.path) else { return [] }
        return try String(contentsOf: list, encoding: .utf8).split(whereSeparator: \.isNewline)
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
            .map { repository.appendingPathComponent(String($0)) }
    }

    @Test(arguments: ["FuzzManifest", "FuzzRuleLanguage", "FuzzSwiftImport", "FuzzPack", "FuzzPackMutation"])
    func committedInputsRunCleanly(target: String) throws {
        let body = try #require(Self.bodies[target])
        let corpus = Self.inputs(in: Self.repository.appendingPathComponent("Fuzz/corpus/\(target)"))
            + (try Self.listedSeeds(of: target))
        let crashes = Self.inputs(in: Self.repository.appendingPathComponent("Tests/TipRuntimeTests/Fixtures/fuzz/\(target)"))
        #expect(!corpus.isEmpty, "no seed corpus for \(target)")
        for file in corpus + crashes {
            body([UInt8](try Data(contentsOf: file)))
        }
    }
}
