import Foundation
import Testing
import TipcCompiler

/// The pre-commit hook as pre-commit runs it: the `tipc-check` hook's entry and args from
/// `.pre-commit-hooks.yaml`, from the root of the repository being committed. The built `tipc`
/// stands in for the script's build step (a copy of the hook's checkout holds it where the
/// script looks, `.build/release/tipc`).
@Suite("pre-commit hook")
struct PreCommitHookTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    struct Hook {
        var entry: String
        var args: [String]
        var language: String
        var passFilenames: Bool
        /// The `files:` pattern: which changed files run the hook.
        var files: String
    }

    /// The `tipc-check` hook, read with tipc's own YAML reader.
    static func hook() throws -> Hook {
        let path = packageRoot.appendingPathComponent(".pre-commit-hooks.yaml").path
        let source = try Frontend.read(path: path).get()
        var diagnostics: [Diagnostic] = []
        let root = try #require(YAMLReader.read(source, diagnostics: &diagnostics))
        #expect(diagnostics.isEmpty)
        let hooks = try #require(root.items)
        for item in hooks {
            let pairs = try #require(item.pairs)
            var fields: [String: YAMLNode] = [:]
            for pair in pairs { if let key = pair.key.scalarValue { fields[key] = pair.value } }
            guard fields["id"]?.scalarValue == "tipc-check" else { continue }
            return Hook(entry: try #require(fields["entry"]?.scalarValue),
                        args: fields["args"]?.items.map { $0.compactMap(\.scalarValue) } ?? [],
                        language: try #require(fields["language"]?.scalarValue),
                        passFilenames: fields["pass_filenames"]?.scalarValue != "false",
                        files: try #require(fields["files"]?.scalarValue))
        }
        throw HookMissing()
    }

    struct HookMissing: Error {}

    /// Runs the hook in `repository` as pre-commit would; the hook's checkout is a scratch copy
    /// of the script with the built tipc in place.
    static func runHook(in repository: String, checkout: String) throws -> (status: Int32, stdout: String) {
        let hook = try hook()
        #expect(hook.language == "script" && !hook.passFilenames)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: checkout + "/" + hook.entry)
        process.arguments = hook.args
        process.currentDirectoryURL = URL(fileURLWithPath: repository)
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "GITHUB_ACTIONS")
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self))
    }

    /// Manifests, rule files and Swift (where TipKit tips live) run the hook; nothing else does.
    @Test func swiftFilesRunTheHook() throws {
        let pattern = try NSRegularExpression(pattern: try Self.hook().files)
        func runs(_ path: String) -> Bool { pattern.firstMatch(in: path, range: NSRange(path.startIndex..., in: path)) != nil }
        for path in ["app/tips.yaml", "tips.yml", "rules/onboarding.tips", "App/Tips/SearchTip.swift"] { #expect(runs(path), "\(path)") }
        for path in ["README.md", "Package.resolved", "App/Assets.xcassets/Contents.json", "swift.txt"] { #expect(!runs(path), "\(path)") }
    }

    @Test func cleanRepositoryPassesAndABadManifestFails() throws {
        let hook = try Self.hook()
        let checkout = try TemporaryFolder()
        let script = try String(contentsOf: Self.packageRoot.appendingPathComponent(hook.entry), encoding: .utf8)
        try checkout.write(hook.entry, script)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: checkout.path + "/" + hook.entry)
        try FileManager.default.createDirectory(atPath: checkout.path + "/.build/release", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: checkout.path + "/.build/release/tipc",
                                                   withDestinationPath: try ExecutableTests.executable().path)

        let repository = try TemporaryFolder()
        try repository.write("app/tips.yaml", "tipkit: 1\nevents:\n  opened: {}\ntips:\n  t:\n    title: T\n    rules: [opened.count > 0]\n")
        try repository.write("docker-compose.yml", "services:\n  web:\n    image: nginx\n")
        let clean = try Self.runHook(in: repository.path, checkout: checkout.path)
        #expect(clean.status == 0, "\(clean.stdout)")
        #expect(clean.stdout.isEmpty)

        try repository.write("app/tips.yaml", "tipkit: 1\nevents:\n  opened: {}\ntips:\n  t:\n    title: T\n    rules: [opend.count > 0]\n")
        let bad = try Self.runHook(in: repository.path, checkout: checkout.path)
        #expect(bad.status == 1)
        #expect(bad.stdout.contains("app/tips.yaml:7:13: error[unknown-event]: no event named 'opend'"))
        #expect(!bad.stdout.contains("docker-compose"))

        // TipKit tips in the app's Swift are checked too.
        try repository.write("app/tips.yaml", "tipkit: 1\nevents:\n  opened: {}\ntips:\n  t:\n    title: T\n    rules: [opened.count > 0]\n")
        try repository.write("App/BadgeTip.swift", "import TipKit\nstruct BadgeTip: Tip {\n    @Parameter static var badge: Int = \"zero\"\n    var title: Text { Text(\"Badge\") }\n    var rules: [Rule] { #Rule(Self.$badge) { $0 > 0 } }\n}\n")
        let swift = try Self.runHook(in: repository.path, checkout: checkout.path)
        #expect(swift.status == 1)
        #expect(swift.stdout.contains("App/BadgeTip.swift:3:40: error[type-mismatch]: the default of 'badge' is a string literal"))
    }
}

/// The `tipc-check-system` hook as pre-commit runs it: its entry found on PATH (the built tipc's
/// folder first), with its args, from the root of the repository being committed; and both hooks
/// run for manifests, rule files and Swift files.
@Suite("pre-commit hook of an installed tipc")
struct SystemPreCommitHookTests {
    /// The fields of the hook `id`, as text (`args` as its items).
    static func hook(_ id: String) throws -> [String: [String]] {
        let path = PreCommitHookTests.packageRoot.appendingPathComponent(".pre-commit-hooks.yaml").path
        let source = try Frontend.read(path: path).get()
        var diagnostics: [Diagnostic] = []
        let root = try #require(YAMLReader.read(source, diagnostics: &diagnostics))
        for item in try #require(root.items) {
            var fields: [String: [String]] = [:]
            for pair in try #require(item.pairs) {
                guard let key = pair.key.scalarValue else { continue }
                fields[key] = pair.value.scalarValue.map { [$0] } ?? pair.value.items?.compactMap(\.scalarValue) ?? []
            }
            if fields["id"] == [id] { return fields }
        }
        throw PreCommitHookTests.HookMissing()
    }

    @Test func bothHooksRunForManifestsRuleFilesAndSwift() throws {
        for id in ["tipc-check", "tipc-check-system"] {
            let pattern = try #require(try Self.hook(id)["files"]?.first)
            let files = try NSRegularExpression(pattern: pattern)
            func runs(_ name: String) -> Bool { files.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)) != nil }
            for name in ["app/tips.yaml", "app/tips.yml", "app/tips.tips", "App/Tips.swift"] {
                #expect(runs(name), "\(id) skips \(name)")
            }
            #expect(!runs("README.md"))
        }
    }

    @Test func theInstalledTipcChecksTheRepository() throws {
        let hook = try Self.hook("tipc-check-system")
        #expect(hook["language"] == ["system"] && hook["pass_filenames"] == ["false"])
        let command = try #require(hook["entry"]?.first).split(separator: " ").map(String.init) + (hook["args"] ?? [])
        let repository = try TemporaryFolder()
        try repository.write("App/Tips.swift", """
            import TipKit

            struct FavoriteTip: Tip {
                var title: Text { Text("Favorite") }
                var rules: [Rule] { [#Rule(Self.$isSignedIn) { $0 == true }] }
                @Parameter static var isSignedIn: Bool = false
            }

            """)
        func run() throws -> (status: Int32, stdout: String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = command
            process.currentDirectoryURL = URL(fileURLWithPath: repository.path)
            var environment = ProcessInfo.processInfo.environment
            environment.removeValue(forKey: "GITHUB_ACTIONS")
            environment["PATH"] = try ExecutableTests.executable().deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            process.environment = environment
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            let stdout = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: stdout, as: UTF8.self))
        }
        let clean = try run()
        #expect(clean.status == 0, "\(clean.stdout)")
        try repository.write("App/Tips.swift", """
            import TipKit

            struct FavoriteTip: Tip {
                var title: Text { Text("Favorite") }
                var rules: [Rule] { [#Rule(Self.$isSignedIn) { $0 == 3 }] }
                @Parameter static var isSignedIn: Bool = false
            }

            """)
        let bad = try run()
        #expect(bad.status == 1, "\(bad.stdout)")
        #expect(bad.stdout.contains("App/Tips.swift:5:"), "\(bad.stdout)")
    }
}
