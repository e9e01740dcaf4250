import Foundation
import Testing

/// A fenced block of a page of the repository, with the prose around it.
struct FencedBlock: Sendable, CustomTestStringConvertible {
    /// The page, relative to the repository's root (`docs/runtime.md`).
    var page: String
    /// What follows the opening fence (`swift`, `yaml`, nothing).
    var info: String
    var text: String
    /// The line of the opening fence (1-based); the text starts on the next.
    var line: Int
    /// The prose between the previous block and this one, and between this one and the next.
    var before: String
    var after: String
    /// The text of the next block on the page (the output an example shows), if any.
    var following: String?

    var testDescription: String { "\(page):\(line)" }

    /// The blocks of `page` (a path relative to the repository's root), in page order.
    static func all(in page: String) throws -> [FencedBlock] {
        let text = try String(contentsOf: DocsSwiftSnippetTests.root.appendingPathComponent(page), encoding: .utf8)
        var blocks: [FencedBlock] = []
        var prose: [Substring] = []
        var open: FencedBlock?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("```") {
                if let block = open {
                    blocks.append(block)
                    open = nil
                } else {
                    if !blocks.isEmpty { blocks[blocks.count - 1].after = prose.joined(separator: "\n") }
                    open = FencedBlock(page: page, info: String(line.dropFirst(3)), text: "", line: index + 1,
                                       before: prose.joined(separator: "\n"), after: "")
                }
                prose = []
            } else if open != nil {
                open?.text += line + "\n"
            } else {
                prose.append(line)
            }
        }
        if !blocks.isEmpty { blocks[blocks.count - 1].after = prose.joined(separator: "\n") }
        for index in blocks.indices.dropLast() { blocks[index].following = blocks[index + 1].text }
        return blocks
    }
}

/// Every fenced Swift block of the README and of docs/*.md is checked, each one way, chosen by
/// what it is (`Check`); a block that no way takes fails with its page and line.
@Suite("Swift in the README and docs")
struct DocsSwiftSnippetTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The ways a Swift block is checked.
    enum Check: Sendable {
        /// Code over the runtime: typechecked against the built `TipRuntime` and
        /// `TipRuntimeSQLite`, statements as the body of a function given the free names the
        /// examples use (`bytes`, `storePath`, `center`); where it uses `AppTips`, with the
        /// accessors `tipc generate swift` writes for the manifest its prose names.
        case runtime
        /// `Package.swift` or a fragment of one (`.package(…)`, `.target(…)`, `platforms: …`):
        /// made into a package whose dependencies are this checkout, and its graph loaded by
        /// SwiftPM (so product and plugin names are checked too).
        case packageManifest
        /// TipKit's Swift (`import TipKit`), which cannot compile here: `tipc import` reads it
        /// without errors, and a `tipc` command the prose after it runs on it prints the next block.
        case tipKit
        /// A SwiftUI or UIKit wrapper the prose before it says is not compiled here: its calls
        /// into the runtime (each `try?`) are typechecked with its stored properties.
        case interface
    }

    static func check(of block: FencedBlock) -> Check? {
        let lines = block.text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let first = lines.first { !$0.isEmpty && !$0.hasPrefix("//") } ?? ""
        if lines.contains("import TipKit") { return .tipKit }
        if lines.contains("import PackageDescription") || [".package(", ".target(", ".executableTarget(", "platforms:"].contains(where: first.hasPrefix) {
            return .packageManifest
        }
        let userInterface = [": View {", "UIViewController", "NSViewController", "import SwiftUI", "import UIKit", "import AppKit"].contains(where: block.text.contains)
        let notCompiled = block.before.contains("not compiled here")
        switch (userInterface, notCompiled) {
        case (false, false): return .runtime
        case (true, true): return .interface
        default: return nil
        }
    }

    /// The Swift blocks of README.md and docs/*.md.
    static func swiftBlocks() throws -> [FencedBlock] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        return try (["README.md"] + docs).flatMap { try FencedBlock.all(in: $0) }.filter { $0.info == "swift" }
    }

    static func swiftBlocks(checked check: Check) -> [FencedBlock] {
        ((try? swiftBlocks()) ?? []).filter { Self.check(of: $0) == check }
    }

    @Test func everySwiftBlockIsCheckedOneWay() throws {
        let blocks = try Self.swiftBlocks()
        #expect(blocks.count >= 12)
        for block in blocks where Self.check(of: block) == nil {
            Issue.record("""
                \(block.page):\(block.line): a Swift block that is not checked: make it typecheck against the runtime, \
                or, for a SwiftUI/UIKit wrapper, say in the text just before it that it is "not compiled here"
                """)
        }
    }

    // MARK: The runtime

    /// The runtime's blocks and the wrappers' calls, typechecked in one run of the compiler.
    /// Positions in its messages are the pages' (`docs/runtime.md:12:5: error: …`).
    @Test func theRuntimeBlocksTypecheck() throws {
        let blocks = Self.swiftBlocks(checked: .runtime) + Self.swiftBlocks(checked: .interface)
        #expect(blocks.count >= 6)
        let folder = try TemporaryFolder()
        // What SwiftPM generates for a target with resources (the build plugin's pack is one).
        try folder.write("Bundle.swift", "import Foundation\n\nextension Bundle {\n    static var module: Bundle { .main }\n}\n")
        var files = ["Bundle.swift"]
        var accessors: [String: String] = [:]  // manifest path → type name
        for (number, block) in blocks.enumerated() {
            var text: String
            if Self.check(of: block) == .interface {
                text = try Self.interfaceCalls(of: block, number: number)
            } else {
                var type: String?
                if block.text.contains("AppTips") {
                    let manifest = try #require(try Self.manifestNamed(before: block, in: folder), "\(block.page):\(block.line): uses AppTips, but the text before it names no manifest")
                    if accessors[manifest] == nil {
                        accessors[manifest] = "AppTips\(accessors.count)"
                        GenerateSwiftCommandTests.generate([manifest], type: accessors[manifest]!, to: accessors[manifest]! + ".swift", in: folder)
                        files.append(accessors[manifest]! + ".swift")
                    }
                    type = accessors[manifest]
                }
                text = Self.runtimeCode(of: block, number: number, accessorType: type)
            }
            files.append("Block\(number).swift")
            try folder.write(files.last!, text)
        }
        // TipRuntimeSQLite's interface imports the SQLite module map.
        // One frontend job for all the files, so that every block's errors are reported.
        let run = try GenerateSwiftCommandTests.swiftc(["-I", Self.root.appendingPathComponent("Sources/CSQLite").path, "-typecheck", "-wmo"] + files, in: folder.path)
        #expect(run.status == 0, "\(run.output)")
        // An example shows values it does not go on to use; anything else is a real warning.
        let warnings = run.output.split(separator: "\n").filter { $0.contains(": warning: ") && !$0.contains("never used") && !$0.contains("is unused") }
        #expect(warnings.isEmpty, "\(run.output)")
    }

    /// `#sourceLocation` for line `offset` of `block`'s text (0: its first).
    static func location(_ block: FencedBlock, _ offset: Int) -> String {
        "#sourceLocation(file: \"\(block.page)\", line: \(block.line + 1 + offset))\n"
    }

    static let declarationStarts = ["func ", "public func ", "struct ", "public struct ", "final class ", "class ", "enum ", "extension "]

    /// A runtime block as a file: its imports; then its declarations as they are, or its
    /// statements as the body of an `async throws` function given `bytes`, `storePath` and
    /// `center`. A body left out (`{ … }`) is empty; `AppTips` is `accessorType`.
    static func runtimeCode(of block: FencedBlock, number: Int, accessorType: String?) -> String {
        let lines = block.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            .map { $0.replacingOccurrences(of: "{ … }", with: "{}") }
        let imports = lines.prefix { $0.hasPrefix("import ") || $0.trimmingCharacters(in: .whitespaces).isEmpty }
        let code = lines.dropFirst(imports.count)
        var file = "import TipRuntime\n" + location(block, 0) + imports.map { $0 + "\n" }.joined() + "#sourceLocation()\n"
        if declarationStarts.contains(where: (code.first ?? "").hasPrefix) {
            return file + location(block, imports.count) + code.map { $0 + "\n" }.joined() + "#sourceLocation()\n"
        }
        file += "func block\(number)(bytes: [UInt8], storePath: String, center: TipCenter) async throws {\n"
        if let accessorType { file += "    typealias AppTips = \(accessorType)\n" }
        return file + location(block, imports.count) + code.map { $0 + "\n" }.joined() + "#sourceLocation()\n}\n"
    }

    /// The manifest whose accessors `block` uses: a file of the repository the text before it
    /// names in backticks, or the README's first manifest when it says so.
    static func manifestNamed(before block: FencedBlock, in folder: TemporaryFolder) throws -> String? {
        let named = block.before.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 && ($0.element.hasSuffix(".yaml") || $0.element.hasSuffix(".tips")) }.map { String($0.element) }
        if let path = named.first(where: { FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path) }) {
            return root.appendingPathComponent(path).path
        }
        guard block.before.contains("README's first manifest") else { return nil }
        return try folder.write("app.yaml", ReadmeTests.manifest())
    }

    /// A wrapper's calls into the runtime as a type of its own: its stored properties (without
    /// their attributes), and in a method each `try?` expression as written (assigned as the
    /// block assigns it, or discarded).
    static func interfaceCalls(of block: FencedBlock, number: Int) throws -> String {
        var properties = "", calls = ""
        for (offset, line) in block.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var declaration = line.trimmingCharacters(in: .whitespaces)
            while declaration.hasPrefix("@") || declaration.hasPrefix("private ") || declaration.hasPrefix("fileprivate ") {
                declaration = String(declaration.drop { $0 != " " }.dropFirst())
            }
            if (declaration.hasPrefix("let ") || declaration.hasPrefix("var ")) && declaration.contains(":")
                && !declaration.contains("=") && !declaration.contains("{") {
                properties += location(block, offset) + "    " + declaration + "\n"
            }
            for expression in tryExpressions(in: String(line)) {
                calls += location(block, offset) + "        " + expression + "\n"
            }
        }
        try #require(!calls.isEmpty, "\(block.page):\(block.line): a wrapper with no calls into the runtime (`try? …`) to check")
        return "import Foundation\nimport TipRuntime\n\nstruct Interface\(number) {\n" + properties + "#sourceLocation()\n"
            + "    mutating func calls() {\n" + calls + "#sourceLocation()\n    }\n}\n"
    }

    /// Each `try? …` statement of `line`: to the end of its statement (a `;`, a bracket it did
    /// not open, or the line's end), after `x =` or `let x =` when the statement assigns it,
    /// and after `_ =` otherwise.
    static func tryExpressions(in line: String) -> [String] {
        var found: [String] = []
        var rest = Substring(line)
        while let marker = rest.range(of: "try? ") {
            let statementStart = rest[..<marker.lowerBound].lastIndex { $0 == "{" || $0 == ";" }.map { rest.index(after: $0) } ?? rest.startIndex
            let prefix = rest[statementStart..<marker.lowerBound].trimmingCharacters(in: .whitespaces)
            var depth = 0
            var end = marker.upperBound
            while end < rest.endIndex {
                let character = rest[end]
                if "([{".contains(character) { depth += 1 }
                if ")]}".contains(character) { if depth == 0 { break }; depth -= 1 }
                if character == ";" && depth == 0 { break }
                end = rest.index(after: end)
            }
            let words = prefix.split(separator: " ")
            let assigns = prefix.hasSuffix(" =") && (words.count == 2 || (words.count == 3 && ["let", "var"].contains(words[0])))
            found.append((assigns ? prefix + " " : "_ = ") + "try? " + rest[marker.upperBound..<end].trimmingCharacters(in: .whitespaces))
            rest = rest[end...]
        }
        return found
    }

    // MARK: Package manifests

    /// A block made into a package in `folder/app` beside `folder/tipc` (this checkout, under
    /// the name its dependents give it), with a source file for each target it declares.
    @Test(arguments: DocsSwiftSnippetTests.swiftBlocks(checked: .packageManifest))
    func thePackageManifestsLoad(_ block: FencedBlock) throws {
        let swift = try #require(BuildPluginTests.swift, "swift is not on PATH")
        let folder = try TemporaryFolder()
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/tipc", withDestinationPath: Self.root.path)
        let manifest = Self.packageManifest(of: block)
        try folder.write("app/Package.swift", manifest)
        for target in Self.targetNames(in: manifest) {
            try folder.write("app/Sources/\(target)/\(target).swift", "let placeholder = 0\n")
        }
        let run = try BuildPluginTests.run(swift, ["package", "show-dependencies"], in: folder.path + "/app", seconds: 300)
        #expect(run.status == 0 && !run.output.contains("error:") && !run.output.contains("warning:"),
                "\(block.page):\(block.line), as the package:\n\(manifest)\n\(run.output)")
    }

    /// `block` as a whole `Package.swift`: itself, or, for a fragment, the package around it
    /// (`platforms:` as the package's, `.package(…)` lines as its dependencies, the other lines
    /// as its targets). Every `.package(…)` is this checkout's `.package(path: "../tipc")`.
    static func packageManifest(of block: FencedBlock) -> String {
        let lines = block.text.split(separator: "\n").map { line -> String in
            guard let start = line.range(of: ".package(") else { return String(line) }
            var depth = 0
            var end = start.upperBound
            while end < line.endIndex {
                if line[end] == "(" { depth += 1 }
                if line[end] == ")" { if depth == 0 { break }; depth -= 1 }
                end = line.index(after: end)
            }
            return line[..<start.lowerBound] + ".package(path: \"../tipc\")" + (end < line.endIndex ? line[line.index(after: end)...] : "")
        }
        if lines.contains("import PackageDescription") { return lines.map { $0 + "\n" }.joined() }
        var platforms: [String] = [], dependencies: [String] = [], targets: [String] = []
        var group = 2
        for line in lines {
            if line.hasPrefix("platforms:") { group = 0 } else if line.hasPrefix(".package(") { group = 1 } else if !line.hasPrefix(" ") { group = 2 }
            switch group {
            case 0: platforms.append(line)
            case 1: dependencies.append(line)
            default: targets.append(line)
            }
        }
        var platformsArgument = platforms.joined(separator: "\n")
        if !platformsArgument.isEmpty, !platformsArgument.hasSuffix(",") { platformsArgument += "," }
        return """
            // swift-tools-version: 6.0
            import PackageDescription

            let package = Package(
                name: "App",
            \(platformsArgument)
                dependencies: [
            \(dependencies.joined(separator: "\n"))
                ],
                targets: [
            \(targets.joined(separator: "\n"))
                ]
            )

            """
    }

    /// The names of the targets a manifest declares (`.target(name: "X"`, `.executableTarget(…`).
    static func targetNames(in manifest: String) -> [String] {
        manifest.components(separatedBy: "arget(").dropFirst().compactMap { rest in
            let arguments = rest.drop { $0 == " " || $0 == "\n" }
            guard arguments.hasPrefix("name: \"") else { return nil }
            return String(arguments.dropFirst(7).prefix { $0 != "\"" })
        }
    }

    // MARK: TipKit

    /// Written to the file the text before it names (`Tips.swift`), the block is imported
    /// without errors; where the text after it runs `tipc` on that file, the output is the
    /// block that follows.
    @Test(arguments: DocsSwiftSnippetTests.swiftBlocks(checked: .tipKit))
    func theTipKitBlocksAreRead(_ block: FencedBlock) throws {
        func spans(_ prose: String) -> [String] {
            prose.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
        }
        let name = spans(block.before).last { $0.hasSuffix(".swift") } ?? "Tips.swift"
        let folder = try TemporaryFolder()
        let path = try folder.write(name, block.text)
        let imported = Invocation(["import", path])
        #expect(imported.status == 0 && !imported.stderr.contains("error"), "\(block.page):\(block.line): \(imported.stderr)")
        if let command = spans(block.after).first(where: { $0.hasPrefix("tipc ") && $0.hasSuffix(" " + name) }) {
            let shown = try #require(block.following, "\(block.page):\(block.line): no output shown after '\(command)'")
            let run = Invocation(command.split(separator: " ").dropFirst().map { $0 == name ? path : String($0) })
            #expect((run.stdout + run.stderr).replacingOccurrences(of: folder.path + "/", with: "") == shown, "\(block.page):\(block.line)")
        }
    }

    /// The checks' own parts: fences and the prose around them, fragments made into packages,
    /// and the calls taken from a wrapper.
    @Test func thePartsOfTheChecks() throws {
        let blocks = try FencedBlock.all(in: "docs/diagnostics.md").filter { $0.text.hasPrefix("import TipKit") }
        let tipKit = try #require(blocks.first)
        #expect(tipKit.before.hasSuffix("For example, `Tips.swift`:\n"))
        #expect(tipKit.after == "\n`tipc check Tips.swift` reports:\n")
        #expect(tipKit.following?.hasPrefix("Tips.swift:5:23: warning[import-approximated]") == true)

        let fragment = FencedBlock(page: "p", info: "swift", text: """
            platforms: [.iOS(.v15)]
            .package(url: "https://example.com/tipc.git", from: "1.0.0"),   // or .package(path: "../tipc")
            .target(name: "MyApp", dependencies: [.product(name: "TipRuntime", package: "tipc")],
                    plugins: [.plugin(name: "TipcPlugin", package: "tipc")]),

            """, line: 1, before: "", after: "")
        #expect(Self.check(of: fragment) == .packageManifest)
        let manifest = Self.packageManifest(of: fragment)
        #expect(manifest.contains("\nplatforms: [.iOS(.v15)],\n    dependencies: [\n.package(path: \"../tipc\"),   // or .package(path: \"../tipc\")\n    ],\n"))
        #expect(manifest.contains("targets: [\n.target(name: \"MyApp\", dependencies: [.product(name: \"TipRuntime\", package: \"tipc\")],\n"
                                  + "        plugins: [.plugin(name: \"TipcPlugin\", package: \"tipc\")]),\n    ]\n)\n"))
        #expect(Self.targetNames(in: manifest + ".executableTarget(\n name: \"Tool\")") == ["MyApp", "Tool"])

        #expect(Self.tryExpressions(in: "        .onAppear { shown = try? center.beginDisplay(of: tip) }") == ["shown = try? center.beginDisplay(of: tip)"])
        #expect(Self.tryExpressions(in: "    let content = try? center.content(of: tip, locale: Locale.current.identifier)")
                    == ["let content = try? center.content(of: tip, locale: Locale.current.identifier)"])
        #expect(Self.tryExpressions(in: "    @objc func closeTapped() { try? shown?.close(); dismiss(animated: true) }") == ["_ = try? shown?.close()"])
        #expect(Self.tryExpressions(in: "Button(\"Close\") { try? a(b(c)) } + { try? d() }") == ["_ = try? a(b(c))", "_ = try? d()"])

        let wrapper = FencedBlock(page: "p", info: "swift", text: "struct V: View {\n    @State private var shown: TipPresentation?\n}\n", line: 1,
                                  before: "A wrapper, not compiled here:\n", after: "")
        #expect(Self.check(of: wrapper) == .interface)
        var unmarked = wrapper
        unmarked.before = "A wrapper:\n"
        #expect(Self.check(of: unmarked) == nil)
    }
}
