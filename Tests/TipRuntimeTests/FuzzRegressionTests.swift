#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import TipcFuzzing

/// Replays every committed fuzz input through the fuzz bodies in an ordinary build: the seed
/// corpora (Fuzz/corpus/TARGET) and the inputs that once crashed a fuzzer
/// (Fixtures/fuzz/TARGET, each fixed since). A regression traps the test process.
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

    @Test(arguments: ["FuzzManifest", "FuzzRuleLanguage", "FuzzSwiftImport", "FuzzPack", "FuzzPackMutation"])
    func committedInputsRunCleanly(target: String) throws {
        let body = try #require(Self.bodies[target])
        let corpus = Self.inputs(in: Self.repository.appendingPathComponent("Fuzz/corpus/\(target)"))
        let crashes = Self.inputs(in: Self.repository.appendingPathComponent("Tests/TipRuntimeTests/Fixtures/fuzz/\(target)"))
        #expect(!corpus.isEmpty, "no seed corpus for \(target)")
        for file in corpus + crashes {
            body([UInt8](try Data(contentsOf: file)))
        }
    }
}
