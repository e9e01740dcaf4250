import Foundation
import Testing
@testable import TipcCompiler

/// The package's root folder (two levels above this file).
private let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Debian's own Python, which has the validator's packages (python3-jsonschema, python3-yaml)
/// once `scripts/setup.sh --tests` has run; a `python3` earlier on PATH (pyenv, say) may not.
private let systemPython = "/usr/bin/python3"

/// Runs `scripts/validate-schema.py` with `arguments` (exit status 0 valid, 1 invalid, 2 not
/// runnable); nil, and an issue recorded, when there is no system Python to run it.
private func runValidator(_ arguments: [String], sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> (status: Int32, output: String)? {
    guard FileManager.default.isExecutableFile(atPath: systemPython) else {
        Issue.record("\(systemPython) is missing, so the schema cannot be validated; run scripts/setup.sh --tests",
                     sourceLocation: sourceLocation)
        return nil
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: systemPython)
    process.arguments = [packageRoot.appendingPathComponent("scripts/validate-schema.py").path] + arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// A fresh temporary folder holding the schema (`schema.json`).
private func workspace() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tipc-schema-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try ManifestSchema.jsonSchema().write(to: folder.appendingPathComponent("schema.json"), atomically: true, encoding: .utf8)
    return folder
}

/// A manifest using every key the format has.
private let completeManifest = """
    tipkit: 1
    displayFrequency: 1d12h
    parameters:
      isLoggedIn: { type: bool, default: false }
      maskCount:  { type: int, default: 0 }
      plan:       { type: string, default: free, values: [free, pro, team] }
      rating:     { type: double, default: 0.5 }
      trialEnds:  { type: date, default: "2026-01-01T00:00:00Z" }
      cooldown:   { type: duration, default: 5m }
      sheetOpen:  { type: bool, default: false, transient: true }
    events:
      searchPerformed: {}
      appLaunched:
      itemViewed:
        donationLimit: { maximumCount: 5000, maximumAge: 90d }
        value: { itemID: int, category: string, seen.at: date }
    tips:
      advancedSearch:
        title: Try **Advanced** Search
        message: Use filters.
        image: magnifyingglass
        actions:
          - { id: learn-more, title: Learn More }
        maxDisplayCount: 3
        maxDisplayDuration: 2m
        ignoresDisplayFrequency: false
        rules:
          - $isLoggedIn
          - searchPerformed.count >= 3 within 3d
          - true
      purchase:
        title: Unlock
        image: { asset: subscription-badge }
    groups:
      onboarding: { priority: ordered, tips: [advancedSearch, purchase] }
      other: { tips: [purchase] }
    experiments:
      searchCopy:
        tip: advancedSearch
        arms:
          control: { weight: 45 }
          short:
            weight: 45
            title: Search **smarter**
            message: { en: Filters help. }
            image: { asset: search-badge }
            actions:
              - { id: learn-more, title: Tell me more }
          holdout: { weight: 10, hidden: true }
        goal: searchPerformed within 7d
        salt: searchCopy-2
    """

@Suite("Schema")
struct SchemaTests {
    @Test func outputIsDeterministicPrettyPrintedJSON() throws {
        let text = ManifestSchema.jsonSchema()
        #expect(text == ManifestSchema.jsonSchema())
        #expect(text.hasPrefix("{\n  \"$schema\": \"http://json-schema.org/draft-07/schema#\",\n"))
        #expect(!text.hasSuffix("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["required"] as? [String] == ["tipkit"])
        #expect(object["additionalProperties"] as? Bool == false)
    }

    @Test func everyKeyOfTheManifestIsDescribed() throws {
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(ManifestSchema.jsonSchema().utf8)) as? [String: Any])
        var undescribed: [String] = []
        func visit(_ node: Any, path: String) {
            if let object = node as? [String: Any] {
                if let properties = object["properties"] as? [String: Any] {
                    for (key, value) in properties {
                        let property = value as? [String: Any] ?? [:]
                        // A `{"const": …}` inside an `if` tests a key; it describes nothing.
                        if property["description"] == nil && property["const"] == nil { undescribed.append("\(path)/\(key)") }
                    }
                }
                for (key, value) in object { visit(value, path: "\(path)/\(key)") }
            } else if let array = node as? [Any] {
                for (index, value) in array.enumerated() { visit(value, path: "\(path)/\(index)") }
            }
        }
        visit(schema, path: "#")
        let definitions = try #require(schema["definitions"] as? [String: Any])
        for (name, definition) in definitions where (definition as? [String: Any])?["description"] == nil {
            undescribed.append("#/definitions/\(name)")
        }
        #expect(undescribed.isEmpty, "\(undescribed.sorted())")
    }

    @Test func schemaIsValidUnderTheDraft07Metaschema() throws {
        let folder = try workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        guard let result = try runValidator(["--metaschema", folder.appendingPathComponent("schema.json").path]) else { return }
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func exampleManifestsAndACompleteManifestValidate() throws {
        let folder = try workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let complete = folder.appendingPathComponent("complete.yaml")
        try completeManifest.write(to: complete, atomically: true, encoding: .utf8)
        var manifests = [complete.path]
        let examples = packageRoot.appendingPathComponent("Examples")
        let enumerator = try #require(FileManager.default.enumerator(at: examples, includingPropertiesForKeys: nil))
        for case let url as URL in enumerator
        where ["yaml", "yml"].contains(url.pathExtension) && !url.lastPathComponent.hasSuffix(".timeline.yaml") {
            manifests.append(url.path)
        }
        #expect(manifests.count > 1, "no example manifests found under \(examples.path)")
        guard let result = try runValidator([folder.appendingPathComponent("schema.json").path] + manifests.sorted()) else { return }
        #expect(result.status == 0, "\(result.output)")
    }

    /// Manifests the checker rejects: where the validator should complain, and a fragment of
    /// its complaint (in the words of Debian 12's python3-jsonschema, 4.10.3).
    static let invalidManifests: [(name: String, yaml: String, path: String, complaint: String)] = [
        ("unknown top-level key", "tipkit: 1\ntipz: {}\n", "$", "('tipz' was unexpected)"),
        ("missing format version", "tips: {}\n", "$", "'tipkit' is a required property"),
        ("unknown format version", "tipkit: 2\n", "$.tipkit", "2 is not one of [1]"),
        ("missing title", "tipkit: 1\ntips:\n  t: { message: Hi }\n", "$.tips.t", "'title' is a required property"),
        ("blank title", "tipkit: 1\ntips:\n  t: { title: '  ' }\n", "$.tips.t.title", "does not match"),
        ("unknown tip key", "tipkit: 1\ntips:\n  t: { title: T, maxDisplayCounts: 2 }\n", "$.tips.t", "'maxDisplayCounts' was unexpected"),
        ("negative maxDisplayCount", "tipkit: 1\ntips:\n  t: { title: T, maxDisplayCount: -1 }\n", "$.tips.t.maxDisplayCount",
         "-1 is less than the minimum of 1"),
        ("bad type name", "tipkit: 1\nparameters:\n  p: { type: integer, default: 0 }\n", "$.parameters.p.type", "'integer' is not one of"),
        ("missing default", "tipkit: 1\nparameters:\n  p: { type: int }\n", "$.parameters.p", "'default' is a required property"),
        ("default of the wrong type", "tipkit: 1\nparameters:\n  p: { type: bool, default: 1 }\n", "$.parameters.p.default",
         "1 is not of type 'boolean'"),
        ("values on an int", "tipkit: 1\nparameters:\n  p: { type: int, default: 0, values: [a] }\n", "$.parameters.p",
         "should not be valid under {'required': ['values']}"),
        ("duplicate values", "tipkit: 1\nparameters:\n  p: { type: string, default: a, values: [a, a] }\n", "$.parameters.p.values",
         "has non-unique elements"),
        ("duration in months", "tipkit: 1\ntips:\n  t: { title: T, maxDisplayDuration: 2mo }\n", "$.tips.t.maxDisplayDuration",
         "'2mo' does not match"),
        ("zero duration", "tipkit: 1\ndisplayFrequency: 0d\n", "$.displayFrequency", "'0d' is not valid under any of the given schemas"),
        ("bad frequency", "tipkit: 1\ndisplayFrequency: yearly\n", "$.displayFrequency", "'yearly' is not valid under any of the given schemas"),
        ("bad name", "tipkit: 1\nevents:\n  9lives: {}\n", "$.events", "'9lives' does not match"),
        ("bad field type", "tipkit: 1\nevents:\n  e:\n    value: { id: integer }\n", "$.events.e.value.id", "'integer' is not one of"),
        ("unknown donation limit key", "tipkit: 1\nevents:\n  e:\n    donationLimit: { maximumSize: 3 }\n", "$.events.e.donationLimit",
         "'maximumSize' was unexpected"),
        ("action without title", "tipkit: 1\ntips:\n  t:\n    title: T\n    actions: [{ id: a }]\n", "$.tips.t.actions[0]",
         "'title' is a required property"),
        ("rule read as a mapping", "tipkit: 1\ntips:\n  t:\n    title: T\n    rules:\n      - a: b\n", "$.tips.t.rules[0]",
         "is not of type 'string', 'boolean'"),
        ("bad group priority", "tipkit: 1\ngroups:\n  g: { priority: random, tips: [t] }\n", "$.groups.g.priority", "'random' is not one of"),
        ("empty group", "tipkit: 1\ngroups:\n  g: { tips: [] }\n", "$.groups.g.tips", "[] is too short"),
        ("file that is not a mapping", "- tipkit\n", "$", "is not of type 'object'"),
        ("experiment without a goal", "tipkit: 1\nexperiments:\n  x: { tip: t, arms: { a: { weight: 1 } } }\n", "$.experiments.x",
         "'goal' is a required property"),
        ("negative weight", "tipkit: 1\nexperiments:\n  x: { tip: t, arms: { a: { weight: -1 } }, goal: e within 1d }\n",
         "$.experiments.x.arms.a.weight", "-1 is less than the minimum of 0"),
        ("unknown arm key", "tipkit: 1\nexperiments:\n  x: { tip: t, arms: { a: { weight: 1, colour: red } }, goal: e within 1d }\n",
         "$.experiments.x.arms.a", "'colour' was unexpected"),
        ("experiment without arms", "tipkit: 1\nexperiments:\n  x: { tip: t, arms: {}, goal: e within 1d }\n", "$.experiments.x.arms",
         "does not have enough properties"),
        ("goal without a window", "tipkit: 1\nexperiments:\n  x: { tip: t, arms: { a: { weight: 1 } }, goal: e }\n", "$.experiments.x.goal",
         "does not match"),
    ]

    /// One validator run over all the invalid manifests (a process per file would be slow);
    /// each must fail where and as expected.
    @Test func invalidManifestsAreRejected() throws {
        struct Report: Decodable {
            struct Failure: Decodable { var filename: String; var path: String; var message: String }
            var errors: [Failure]
        }
        let folder = try workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        var files: [String] = []
        for (index, fixture) in Self.invalidManifests.enumerated() {
            let file = folder.appendingPathComponent("invalid-\(index).yaml")
            try fixture.yaml.write(to: file, atomically: true, encoding: .utf8)
            files.append(file.path)
        }
        guard let result = try runValidator([folder.appendingPathComponent("schema.json").path] + files)
        else { return }
        #expect(result.status == 1, "\(result.output)")
        let report = try JSONDecoder().decode(Report.self, from: Data(result.output.utf8))
        for (index, fixture) in Self.invalidManifests.enumerated() {
            let failures = report.errors.filter { $0.filename.hasSuffix("/invalid-\(index).yaml") }
            #expect(failures.contains { $0.path == fixture.path && $0.message.contains(fixture.complaint) },
                    "\(fixture.name): \(failures.map { "\($0.path): \($0.message)" })")
        }
    }

    /// Localized texts and placeholders: the valid forms validate, and a bad locale, a
    /// blank localized text and a duration placeholder do not.
    @Test func localizedTextsValidate() throws {
        let folder = try workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let valid = """
            tipkit: 1
            defaultLocale: en
            parameters:
              userName: { type: string, default: friend }
            tips:
              quickSearch:
                title: { en: Search faster, de: Schneller suchen, de-CH: Schnäller sueche, zh-Hans: 更快搜索 }
                message: "Press {shortcut}, {$userName}."
                placeholders: { shortcut: string, count: int, ratio: double, on: bool, at: date }
                actions:
                  - { id: learn-more, title: { en: Learn more, de: Mehr erfahren } }
                  - { id: later, title: Later }
            """
        let validFile = folder.appendingPathComponent("valid.yaml")
        try valid.write(to: validFile, atomically: true, encoding: .utf8)
        let invalid: [(yaml: String, complaint: String)] = [
            ("tipkit: 1\ndefaultLocale: en_US\n", "does not match"),
            ("tipkit: 1\ntips:\n  t: { title: { de_DE: Hallo } }\n", "does not match"),
            ("tipkit: 1\ntips:\n  t: { title: { en: '  ' } }\n", "does not match"),
            ("tipkit: 1\ntips:\n  t: { title: {} }\n", "does not have enough properties"),
            ("tipkit: 1\ntips:\n  t: { title: T, placeholders: { p: duration } }\n", "is not one of"),
        ]
        var files: [String] = []
        for (index, fixture) in invalid.enumerated() {
            let file = folder.appendingPathComponent("texts-\(index).yaml")
            try fixture.yaml.write(to: file, atomically: true, encoding: .utf8)
            files.append(file.path)
        }
        let schema = folder.appendingPathComponent("schema.json").path
        guard let good = try runValidator([schema, validFile.path]) else { return }
        #expect(good.status == 0, "\(good.output)")
        for (index, fixture) in invalid.enumerated() {
            guard let bad = try runValidator([schema, files[index]]) else { return }
            #expect(bad.status == 1 && bad.output.contains(fixture.complaint), "\(fixture.yaml): \(bad.output)")
        }
    }
}
