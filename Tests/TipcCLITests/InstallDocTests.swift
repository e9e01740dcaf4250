import Foundation
import Testing

/// The CI examples of docs/install.md and the README name what exists: hooks that
/// `.pre-commit-hooks.yaml` defines, inputs that `action.yml` declares, and pins that are commits
/// of this repository (never a tag that was not made).
@Suite("install page")
struct InstallDocTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The value after `key` on each line that has it, up to a space or a `#` comment.
    static func values(after key: String, in text: String) -> [String] {
        text.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: key) else { return nil }
            return line[range.upperBound...].split(separator: " ").first.map(String.init)
        }
    }

    /// Whether `pin` names a commit of this repository (its history must be at hand).
    static func isCommit(_ pin: String) throws -> Bool {
        guard pin.count == 40, pin.allSatisfy(\.isHexDigit) else { return false }
        let git = Process()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        git.arguments = ["git", "-C", root.path, "cat-file", "-e", pin + "^{commit}"]
        git.standardError = FileHandle.nullDevice
        try git.run()
        git.waitUntilExit()
        return git.terminationStatus == 0
    }

    @Test(arguments: [("docs/install.md", 3), ("README.md", 1)])
    func theExamplesNameHooksInputsAndCommitsThatExist(path: String, pinCount: Int) throws {
        let page = try Self.text(path)
        let hooks = try Self.text(".pre-commit-hooks.yaml")
        let ids = Self.values(after: "- id: ", in: page)
        #expect(!ids.isEmpty && Set(ids).isSubset(of: ["tipc-check", "tipc-check-system"]))
        for id in ids { #expect(hooks.contains("\n- id: \(id)\n"), "no hook '\(id)'") }

        let pins = Self.values(after: "rev: ", in: page) + Self.values(after: "OWNER/tipc@", in: page)
        #expect(pins.count == pinCount)
        for pin in pins {
            #expect(try Self.isCommit(pin), "'\(pin)' is not a commit of this repository")
        }

        // The Action's inputs, where the page holds a workflow that uses it.
        guard page.contains("OWNER/tipc@") else { return }
        let action = try Self.text("action.yml")
        let inputs = "\n" + action.components(separatedBy: "\ninputs:\n")[1].components(separatedBy: "\nruns:")[0]
        for input in ["paths", "strict", "sarif"] {
            #expect(page.contains("          \(input): ") && inputs.contains("\n  \(input):\n"), "input '\(input)'")
        }
    }
}
