import Foundation
import Testing
@testable import TipcCLI
import TipcCompiler
import TipcDriver

/// One hostile source file and what `tipc check` must answer.
struct HostileInput: Sendable, CustomTestStringConvertible {
    var name: String
    /// The file name (its extension picks the front end).
    var file: String
    var bytes: @Sendable () -> [UInt8]
    /// The code of a diagnostic that must be reported.
    var code: DiagnosticCode

    var testDescription: String { name }

    init(_ name: String, _ file: String, _ code: DiagnosticCode, _ bytes: @escaping @Sendable () -> [UInt8]) {
        self.name = name
        self.file = file
        self.code = code
        self.bytes = bytes
    }

    init(_ name: String, _ file: String, _ code: DiagnosticCode, text: @escaping @Sendable () -> String) {
        self.init(name, file, code) { Array(text().utf8) }
    }
}

/// Builders of hostile inputs.
enum Hostile {
    static let tipsHead = "tipkit 1\nparam a: Bool = true\nparam n: Int = 1\nparam s: String = \"x\"\ntip t {\n  title \"x\"\n"
    static let yamlHead = """
        tipkit: 1
        parameters:
          a: { type: bool, default: true }
          n: { type: int, default: 1 }
          s: { type: string, default: x }
        tips:
          t:
            title: x
            rules:

        """

    static func tipsRule(_ rule: String) -> String { tipsHead + "  rule " + rule + "\n}\n" }
    static func yamlRule(_ rule: String) -> String { yamlHead + "      - " + rule + "\n" }
    static func quoted(_ rule: String) -> String { "'" + rule.replacingOccurrences(of: "'", with: "''") + "'" }

    /// Deterministic pseudo-random bytes.
    static func garbage(count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
    }

    static func billionLaughs() -> String {
        var text = "tipkit: 1\nlol0: &lol0 [\"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\"]\n"
        for level in 1...9 {
            text += "lol\(level): &lol\(level) [" + Array(repeating: "*lol\(level - 1)", count: 9).joined(separator: ", ") + "]\n"
        }
        return text
    }

    static let parens = String(repeating: "(", count: 100_000) + "$a" + String(repeating: ")", count: 100_000)
    static let nots = String(repeating: "not ", count: 100_000) + "$a"
    static let bangs = String(repeating: "!", count: 100_000) + "$a"
    static let andChain = Array(repeating: "$a", count: 200_000).joined(separator: " and ")
    static let hugeInteger = String(repeating: "9", count: 100_000)

    static let inputs: [HostileInput] = [
        HostileInput("100,000 nested parentheses (.tips)", "parens.tips", .limit) { tipsRule(parens) },
        HostileInput("100,000 nested parentheses (YAML, quoted)", "parens.yaml", .limit) { yamlRule(quoted(parens)) },
        HostileInput("100,000 nots (.tips)", "nots.tips", .limit) { tipsRule(nots) },
        HostileInput("100,000 nots (YAML)", "nots.yaml", .limit) { yamlRule(nots) },
        HostileInput("100,000 bangs (.tips)", "bangs.tips", .limit) { tipsRule(bangs) },
        HostileInput("200,000-term and chain (.tips)", "and.tips", .limit) { tipsRule(andChain) },
        HostileInput("200,000-term and chain (YAML)", "and.yaml", .limit) { yamlRule(andChain) },
        HostileInput("100,000 nested flow sequences", "flow-sequences.yaml", .limit) {
            "tipkit: 1\ntips: " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "\n"
        },
        HostileInput("100,000 nested flow mappings", "flow-mappings.yaml", .limit) {
            "tipkit: 1\ntips: " + String(repeating: "{a: ", count: 100_000) + "1" + String(repeating: "}", count: 100_000) + "\n"
        },
        HostileInput("65 nested block mappings", "block-depth.yaml", .limit) {
            "tipkit: 1\n" + (0..<65).map { String(repeating: "  ", count: $0) + "k\($0):\n" }.joined() + String(repeating: "  ", count: 65) + "v: 1\n"
        },
        HostileInput("billion laughs", "laughs.yaml", .yaml, text: billionLaughs),
        HostileInput("NUL bytes (YAML)", "nul.yaml", .yaml) { Array("tipkit: 1\ntips:\n  t:\n    title: \"a".utf8) + [0] + Array("b\"\n".utf8) + [0] },
        HostileInput("NUL bytes (.tips)", "nul.tips", .syntax) { Array("tipkit 1\ntip t {\n  title \"x\"\n}\n".utf8) + [0, 0, 0] },
        HostileInput("invalid UTF-8 (YAML)", "utf8.yaml", .yaml) { Array("tipkit: 1\ntips:\n  t:\n    title: ".utf8) + [0xFF, 0xFE, 0xC3, 0x28, 0x0A] },
        HostileInput("invalid UTF-8 (.tips)", "utf8.tips", .syntax) { Array("tipkit 1\ntip t {\n  title \"".utf8) + [0xFF, 0xC3, 0x28] + Array("\"\n}\n".utf8) },
        HostileInput("binary garbage (YAML)", "garbage.yaml", .yaml) { garbage(count: 1 << 20, seed: 1) },
        HostileInput("binary garbage (.tips)", "garbage.tips", .limit) { garbage(count: 1 << 20, seed: 2) },
        HostileInput("empty file (YAML)", "empty.yaml", .invalidValue) { [] },
        HostileInput("empty file (.tips)", "empty.tips", .missingKey) { [] },
        HostileInput("a list instead of a mapping", "list.yaml", .invalidValue, text: { "- tipkit\n- 1\n" }),
        HostileInput("a scalar instead of a mapping", "scalar.yaml", .invalidValue, text: { "tipkit 1\n" }),
        HostileInput("100,000-digit integer in a rule (.tips)", "huge.tips", .invalidValue) { tipsRule("$n > " + hugeInteger) },
        HostileInput("100,000-digit integer in a YAML rule", "huge.yaml", .invalidValue) { yamlRule("$n > " + hugeInteger) },
        HostileInput("overflowing integer in a quoted YAML rule", "overflow-rule.yaml", .invalidValue) { yamlRule("\"$n > 9223372036854775808\"") },
        HostileInput("overflowing integer default (YAML)", "overflow-default.yaml", .invalidValue) {
            "tipkit: 1\nparameters:\n  n: { type: int, default: 99999999999999999999 }\n"
        },
        HostileInput("overflowing maxDisplayCount (.tips)", "overflow-count.tips", .invalidValue) {
            "tipkit 1\ntip t {\n  title \"x\"\n  maxDisplayCount 99999999999999999999\n}\n"
        },
        HostileInput("overflowing maxDisplayCount (YAML)", "overflow-count.yaml", .invalidValue) {
            "tipkit: 1\ntips:\n  t:\n    title: x\n    maxDisplayCount: 99999999999999999999999\n"
        },
        HostileInput("overflowing duration", "overflow-duration.tips", .invalidDuration) { tipsRule("now - 99999999999999999d < now") },
        HostileInput("200,000-character string literal (.tips)", "string.tips", .limit) {
            tipsRule("$s == \"" + String(repeating: "x", count: 200_000) + "\"")
        },
        HostileInput("1,001-character string literal (YAML)", "string.yaml", .limit) {
            yamlRule(quoted("$s == \"" + String(repeating: "é", count: 1_001) + "\""))
        },
        HostileInput("rule longer than 10,000 characters", "long-rule.yaml", .limit) {
            yamlRule("$n" + String(repeating: " ", count: RuleParser.maximumRuleLength) + "== 1")
        },
        HostileInput("100 escaped rules longer than 10,000 characters", "long-escaped-rules.yaml", .limit) {
            // Each rule's text maps into the file a position per byte: read for `check`, it must
            // not wait whole for the checker (see `UnparsedRule`).
            let rule = "\"\\t" + String(repeating: "a", count: RuleParser.maximumRuleLength + 6) + "\""
            return "tipkit: 1\ntips:\n" + (0..<100).map { "  t\($0):\n    title: T\n    rules:\n      - \(rule)\n" }.joined()
        },
        HostileInput("1,001 rules in one tip", "rules.tips", .limit) {
            tipsHead + String(repeating: "  rule $a\n", count: Checker.maximumRulesPerTip + 1) + "}\n"
        },
        HostileInput("100,001 tips", "tips.tips", .limit) {
            "tipkit 1\n" + (0...Checker.maximumTipsPerProgram).map { "tip t\($0) { title \"x\" }\n" }.joined()
        },
    ]
}

/// Hostile sources through `tipc check`: each is exit code 1 with a diagnostic of the expected
/// code, in bounded CPU time and with bounded output; none crashes or hangs.
@Suite struct HostileInputTests {
    /// CPU seconds one check may take (a debug build; the inputs are up to a few megabytes).
    static let cpuBudget = 10.0

    @Test(arguments: Hostile.inputs)
    func hostileInputIsAnErrorInBoundedTime(_ input: HostileInput) throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/" + input.file
        try Data(input.bytes()).write(to: URL(fileURLWithPath: path))
        let (run, seconds) = ThreadCPUTime.measure { Invocation(["check", "--format", "json", path]) }
        #expect(run.status == 1, "\(run.stderr.prefix(500))")
        let report = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        let diagnostics = report?["diagnostics"] as? [[String: Any]] ?? []
        let codes = diagnostics.compactMap { $0["code"] as? String }
        #expect(codes.contains(input.code.rawValue), "codes: \(codes.prefix(10))")
        #expect(seconds < Self.cpuBudget, "took \(seconds) s of CPU time")
        // Bounded output: garbage must not cost a diagnostic per byte.
        #expect(diagnostics.count <= 2 * RuleParser.maximumErrorCount + 10)
    }

    /// Every hostile input checked in memory, in a child process whose data segment is capped
    /// at 512 MiB (`RLIMIT_DATA`; they pass under 256 MiB): a blow-up fails an allocation and
    /// with it the child.
    @Test func hostileInputsFitInBoundedMemory() async {
        await #expect(processExitsWith: .success) {
            var limit = rlimit(rlim_cur: 1 << 29, rlim_max: 1 << 29)
            guard setrlimit(Int32(RLIMIT_DATA.rawValue), &limit) == 0 else { exit(3) }
            for input in Hostile.inputs {
                let result = Frontend.check(sources: [SourceFile(path: input.file, bytes: input.bytes())])
                guard result.diagnostics.contains(where: { $0.code == input.code }) else { exit(4) }
            }
            exit(0)
        }
    }

    @Test(arguments: ["nul.yaml", "utf8.yaml", "garbage.yaml"])
    func yamlThatDoesNotReadIsOneError(file: String) throws {
        let input = try #require(Hostile.inputs.first { $0.file == file })
        var diagnostics: [Diagnostic] = []
        _ = ManifestDecoder.decode(SourceFile(path: file, bytes: input.bytes()), diagnostics: &diagnostics)
        #expect(diagnostics.map(\.code) == [.yaml], "\(diagnostics.map(\.message))")
    }

    @Test func byteOrderMarkAndCRLFKeepPositionsExact() throws {
        let folder = try TemporaryFolder()
        let yaml = folder.path + "/bom.yaml"
        try Data([0xEF, 0xBB, 0xBF] + Array("tipkit: 1\r\ntips:\r\n  t:\r\n    title: x\r\n    rules:\r\n      - $nope\r\n      - $s != \"é\" or $other\r\n".utf8))
            .write(to: URL(fileURLWithPath: yaml))
        let tips = folder.path + "/bom.tips"
        try Data([0xEF, 0xBB, 0xBF] + Array("tipkit 1\r\ntip t {\r\n  title \"x\"\r\n  rule $nope\r\n}\r\n".utf8))
            .write(to: URL(fileURLWithPath: tips))
        let yamlRun = Invocation(["check", yaml])
        #expect(yamlRun.status == 1)
        #expect(yamlRun.stdout.contains("bom.yaml:6:9: error[unknown-parameter]: no parameter named 'nope'"), "\(yamlRun.stdout)")
        #expect(!yamlRun.stdout.contains("error[syntax]"), "\(yamlRun.stdout)")
        #expect(yamlRun.stdout.contains("bom.yaml:7:22: error[unknown-parameter]: no parameter named 'other'"), "\(yamlRun.stdout)")
        let tipsRun = Invocation(["check", tips])
        #expect(tipsRun.status == 1)
        #expect(tipsRun.stdout.contains("bom.tips:4:8: error[unknown-parameter]: no parameter named 'nope'"), "\(tipsRun.stdout)")
    }

    @Test func fileLargerThanTheLimitIsRefusedUnread() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/large.yaml"
        // A sparse file: nothing is written, and the checker must not read it.
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(Frontend.maximumFileSize + 1))
        try handle.close()
        let (run, seconds) = ThreadCPUTime.measure { Invocation(["check", path]) }
        // Input that cannot be read at all is exit code 2, as for a missing file.
        #expect(run.status == 2)
        #expect(run.stdout.contains("error[limit]: '\(path)' is larger than 64 MiB"), "\(run.stdout.prefix(300))")
        #expect(seconds < 1)
    }
}

/// The CPU time of the calling thread: unlike wall time, it does not grow when tests run in
/// parallel on a busy machine.
enum ThreadCPUTime {
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    static func measure<T>(_ body: () throws -> T) rethrows -> (T, Double) {
        let start = now()
        let result = try body()
        return (result, now() - start)
    }
}
