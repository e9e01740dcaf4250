import Foundation
import Testing
import TipService
import TipcJSON

/// `tipc lsp` through real pipes: a scripted client drives the built executable.
@Suite struct LanguageServerTests {
    static let manifest = """
        tipkit: 1
        parameters:
          isPro: { type: bool, default: false }
        events:
          trailViewed:
            value: { trailID: int }
          hikeStarted: {}
        tips:
          offlineMaps:
            title: Hike without signal
            rules:
              - not $isPro
              - trailViewed.count >= 2 within 7d

        """

    static let rules = """
        tipkit 1

        tip logbook {
          title "Keep a logbook"
          rule hikeStarted.count >= 3
          rule trailViewed.where(trailID == 7).count >= 1
        }

        """

    /// A folder holding one program: a manifest and a `.tips` file.
    static func program(manifest: String = manifest, rules: String = rules) throws -> (folder: TemporaryFolder, yaml: String, tips: String) {
        let folder = try TemporaryFolder()
        let yaml = try folder.write("app.yaml", manifest)
        let tips = try folder.write("more.tips", rules)
        return (folder, yaml, tips)
    }

    static func codes(_ diagnostics: [JSON]) -> [String] {
        diagnostics.compactMap { LSP.string($0["code"]) }
    }

    // MARK: - Lifecycle and protocol errors

    @Test func initializeAdvertisesWhatIsImplementedAndShutdownExitsZero() throws {
        let client = try LanguageServerClient()
        let result = try client.initialize()
        let capabilities = try #require(result["capabilities"])
        #expect(capabilities["positionEncoding"] == .string("utf-16"))
        #expect(capabilities["textDocumentSync"]?["change"] == .integer(2))
        #expect(capabilities["textDocumentSync"]?["openClose"] == .bool(true))
        guard case .object(let members) = capabilities else { Issue.record("capabilities are not an object"); return }
        #expect(Set(members.map(\.0)) == ["positionEncoding", "textDocumentSync", "completionProvider", "hoverProvider", "definitionProvider",
                                          "referencesProvider", "renameProvider", "codeActionProvider", "documentFormattingProvider",
                                          "documentSymbolProvider"])
        #expect(result["serverInfo"]?["name"] == .string("tipc"))
        #expect(try client.shutdown() == 0)
    }

    @Test func requestsBeforeInitializeAndUnknownMethodsGetErrors() throws {
        let client = try LanguageServerClient()
        let early = try client.requestResponse("textDocument/hover", LSP.at("file:///x.yaml", 0, 0))
        #expect(LSP.int(early["error"]?["code"]) == -32002)
        try client.initialize()
        let unknown = try client.requestResponse("textDocument/semanticTokens/full", .object([]))
        #expect(LSP.int(unknown["error"]?["code"]) == -32601)
        // Unknown notifications are ignored; the server still answers.
        client.notify("$/somethingNew", .object([]))
        let bad = try client.requestResponse("textDocument/hover", .object([]))
        #expect(LSP.int(bad["error"]?["code"]) == -32602)
        #expect(try client.shutdown() == 0)
    }

    @Test func malformedMessagesGetErrorsAndTheServerCarriesOn() throws {
        let client = try LanguageServerClient()
        try client.initialize()
        // Not JSON.
        client.writeRaw(Array("Content-Length: 9\r\n\r\n{\"jsonrpc".utf8))
        let parseError = try client.next()
        #expect(LSP.int(parseError["error"]?["code"]) == -32700)
        #expect(parseError["id"] == .null)
        // JSON, but no method.
        client.send(.object([("jsonrpc", .string("2.0")), ("id", .integer(5))]))
        #expect(LSP.int(try client.next()["error"]?["code"]) == -32600)
        // A header without Content-Length.
        client.writeRaw(Array("Content-Type: x\r\n\r\n".utf8))
        #expect(LSP.int(try client.next()["error"]?["code"]) == -32700)
        // A message over the size limit is skipped whole.
        let size = 130 * 1024 * 1024 + 1
        client.writeRaw(Array("Content-Length: \(size)\r\n\r\n".utf8))
        let chunk = [UInt8](repeating: UInt8(ascii: " "), count: 1 << 20)
        for _ in 0..<(size / chunk.count) { client.writeRaw(chunk) }
        client.writeRaw([UInt8](repeating: UInt8(ascii: " "), count: size % chunk.count))
        let tooLarge = try client.next()
        #expect(LSP.int(tooLarge["error"]?["code"]) == -32600)
        #expect(LSP.string(tooLarge["error"]?["message"])?.contains("larger than the limit") == true)
        #expect(try client.shutdown() == 0)
    }

    @Test func exitWithoutShutdownExitsOneAndTheEndOfInputEndsTheServer() throws {
        let client = try LanguageServerClient()
        try client.initialize()
        client.notify("exit", .null)
        #expect(client.waitForExit() == 1)
        let closed = try LanguageServerClient()
        try closed.initialize()
        #expect(closed.waitForExit() == 1)
    }

    // MARK: - Diagnostics

    @Test func diagnosticsArePublishedForEveryFileOfTheProgramAndFollowChanges() throws {
        let (folder, yaml, tips) = try Self.program()
        _ = folder
        let client = try LanguageServerClient()
        try client.initialize()
        let broken = Self.manifest.replacingOccurrences(of: "trailViewed.count", with: "trailVewed.count")
        LSP.open(client, yaml, broken)
        let diagnostics = try client.diagnostics(for: LSP.uri(yaml))
        #expect(Self.codes(diagnostics) == ["unknown-event"])
        let first = try #require(diagnostics.first)
        let (line, character) = LSP.find("trailVewed", in: broken)
        #expect(first["range"] == LSP.range(line, character, line, character + 10))
        #expect(LSP.string(first["message"])?.contains("did you mean 'trailViewed'?") == true)
        #expect(first["severity"] == .integer(1))
        // The other file of the program is published too (nothing wrong in it).
        #expect(try client.diagnostics(for: LSP.uri(tips)).isEmpty)

        // An incremental change that fixes the typo: the diagnostics go.
        LSP.change(client, yaml, version: 2, [LSP.edit(LSP.range(line, character + 6, line, character + 6), "i")])
        #expect(try client.publications([LSP.uri(yaml), LSP.uri(tips)]).values.allSatisfy(\.isEmpty))
        // A full change that breaks the .tips file's use of the event: published on the .tips file.
        LSP.change(client, yaml, version: 3, [.object([("text", .string(Self.manifest.replacingOccurrences(of: "  hikeStarted: {}\n", with: "")))])])
        let onTips = try client.publications([LSP.uri(yaml), LSP.uri(tips)])[LSP.uri(tips)] ?? []
        #expect(Self.codes(onTips) == ["unknown-event"])
        #expect(try client.shutdown() == 0)
    }

    @Test func notesBecomeRelatedInformationAndCodesLinkWhereTheClientSays() throws {
        let (folder, yaml, tips) = try Self.program(rules: Self.rules + "event hikeStarted\n")
        _ = folder
        let client = try LanguageServerClient()
        try client.initialize(initializationOptions: .object([("codeExplanationURL", .string("https://example.com/codes#"))]))
        LSP.open(client, tips, Self.rules + "event hikeStarted\n")
        let published = try client.publications([LSP.uri(yaml), LSP.uri(tips)])
        let duplicate = try #require(published[LSP.uri(tips)]?.first { $0["code"] == .string("duplicate-name") })
        #expect(duplicate["codeDescription"]?["href"] == .string("https://example.com/codes#duplicate-name"))
        let related = LSP.array(duplicate["relatedInformation"])
        let (line, character) = LSP.find("hikeStarted", in: Self.manifest)
        #expect(related == [.object([
            ("location", .object([("uri", .string(LSP.uri(yaml))), ("range", LSP.range(line, character, line, character + 11))])),
            ("message", .string("'hikeStarted' is first declared here")),
        ])])
        #expect(try client.shutdown() == 0)
    }

    @Test func codesLinkToTheReferenceThisExecutableWritesUnlessTheClientSaysOtherwise() throws {
        let (folder, yaml, _) = try Self.program()
        let typo = Self.manifest.replacingOccurrences(of: "$isPro", with: "$isPr")
        let cache = folder.path + "/cache"
        let client = try LanguageServerClient(cacheFolder: cache)
        let version = LSP.string(try client.initialize()["serverInfo"]?["version"]) ?? ""
        LSP.open(client, yaml, typo)
        let unknown = try #require(try client.diagnostics(for: LSP.uri(yaml)).first { $0["code"] == .string("unknown-parameter") })
        let reference = cache + "/tipc/codes-\(version).md"
        #expect(unknown["codeDescription"]?["href"] == .string(LSP.uri(reference) + "#unknown-parameter"))
        #expect(try String(contentsOfFile: reference, encoding: .utf8).contains("\n## unknown-parameter\n"))
        #expect(try client.shutdown() == 0)
        // An empty `codeExplanationURL` turns the links off.
        let quiet = try LanguageServerClient(cacheFolder: cache)
        try quiet.initialize(initializationOptions: .object([("codeExplanationURL", .string(""))]))
        LSP.open(quiet, yaml, typo)
        #expect(try quiet.diagnostics(for: LSP.uri(yaml)).allSatisfy { $0["codeDescription"] == nil })
        #expect(try quiet.shutdown() == 0)
    }

    @Test func unsavedTextWinsOverTheFileOnDiskAndCloseGoesBackToIt() throws {
        let (folder, yaml, tips) = try Self.program(manifest: Self.manifest.replacingOccurrences(of: "$isPro", with: "$isPr"))
        _ = folder
        let client = try LanguageServerClient()
        try client.initialize()
        let both = [LSP.uri(yaml), LSP.uri(tips)]
        LSP.open(client, tips, Self.rules)
        #expect(Self.codes(try client.publications(both)[LSP.uri(yaml)] ?? []) == ["unknown-parameter"])
        LSP.open(client, yaml, Self.manifest)
        #expect(try client.publications(both).values.allSatisfy(\.isEmpty))
        client.notify("textDocument/didClose", .object([("textDocument", LSP.document(LSP.uri(yaml)))]))
        #expect(Self.codes(try client.publications(both)[LSP.uri(yaml)] ?? []) == ["unknown-parameter"])
        #expect(try client.shutdown() == 0)
    }

    @Test func savingAFileRechecksItsProgramWithWhatChangedOnDisk() throws {
        let (folder, yaml, tips) = try Self.program()
        _ = folder
        let client = try LanguageServerClient()
        try client.initialize()
        let both = [LSP.uri(yaml), LSP.uri(tips)]
        LSP.open(client, yaml, Self.manifest)
        #expect(try client.publications(both).values.allSatisfy(\.isEmpty))
        // Another tool rewrites the .tips file, and this client does not watch files...
        try Data(Self.rules.replacingOccurrences(of: "hikeStarted.count", with: "hikeStared.count").utf8).write(to: URL(fileURLWithPath: tips))
        // ... but saving the open file checks its program again, reading the .tips file anew.
        client.notify("textDocument/didSave", .object([("textDocument", LSP.document(LSP.uri(yaml)))]))
        #expect(Self.codes(try client.publications(both)[LSP.uri(tips)] ?? []) == ["unknown-event"])
        #expect(try client.shutdown() == 0)
    }

    @Test func theConfigurationIsHonouredAndReadAgainWhenItChanges() throws {
        let unusedEvent = Self.manifest.replacingOccurrences(of: "  hikeStarted: {}\n", with: "  hikeStarted: {}\n  neverUsed: {}\n")
        let (folder, yaml, _) = try Self.program(manifest: unusedEvent)
        let configuration = try folder.write(".tipc.yml", "codes: { unused: off }\n")
        let client = try LanguageServerClient()
        try client.initialize()
        LSP.open(client, yaml, unusedEvent)
        #expect(try client.publications([LSP.uri(yaml), LSP.uri(folder.path + "/more.tips")]).values.allSatisfy(\.isEmpty))
        try Data("codes: { unused: error }\n".utf8).write(to: URL(fileURLWithPath: configuration))
        client.notify("workspace/didChangeWatchedFiles", .object([("changes", .array([.object([("uri", .string(LSP.uri(configuration))), ("type", .integer(2))])]))]))
        let published = try client.publications([LSP.uri(configuration), LSP.uri(yaml), LSP.uri(folder.path + "/more.tips")])
        let diagnostics = published[LSP.uri(yaml)] ?? []
        #expect(Self.codes(diagnostics) == ["unused"])
        #expect(diagnostics.first?["severity"] == .integer(1))
        #expect(published[LSP.uri(configuration)]?.isEmpty == true)
        // An open configuration with unsaved text wins too, and its own problems are published on it.
        LSP.open(client, configuration, "codes: { unused: warning }\nstrikt: true\n")
        let again = try client.publications([LSP.uri(configuration), LSP.uri(yaml)])
        #expect(Self.codes(again[LSP.uri(configuration)] ?? []) == ["unknown-key"])
        #expect(again[LSP.uri(yaml)]?.first?["severity"] == .integer(2))
        #expect(try client.shutdown() == 0)
    }

    @Test func positionsCountUTF16UnitsWithEmojiAndCombiningMarks() throws {
        // "🎉" is two UTF-16 units (one scalar), "é" written as e + U+0301 is two units (two scalars).
        let text = Self.manifest.replacingOccurrences(of: "title: Hike without signal", with: "title: \"🎉 e\u{301}t\u{E9} {$isPr} 👩‍👩‍👧\"")
        let (folder, yaml, tips) = try Self.program()
        _ = (folder, tips)
        let client = try LanguageServerClient()
        try client.initialize()
        LSP.open(client, yaml, text)
        let diagnostics = try client.publications([LSP.uri(yaml), LSP.uri(tips)])[LSP.uri(yaml)] ?? []
        #expect(Self.codes(diagnostics) == ["unknown-parameter"])
        let (line, character) = LSP.find("isPr}", in: text)
        let range = try #require(diagnostics.first?["range"])
        #expect(range["end"] == LSP.position(line, character + 4) || range["end"] == LSP.position(line, character + 5))
        #expect(LSP.int(range["start"]?["character"]).map { $0 >= character - 2 && $0 <= character } == true)
        // Completion after the emoji, inside `{$`: the parameter, replacing from `$`.
        let completion = try client.request("textDocument/completion", LSP.at(LSP.uri(yaml), line, character + 2))
        #expect(LSP.labels(completion).contains("$isPro"))
        let edit = try #require(LSP.array(completion["items"]).first { $0["label"] == .string("$isPro") }?["textEdit"])
        #expect(edit["range"] == LSP.range(line, character - 1, line, character + 2))
        // An incremental edit at a UTF-16 position after the emoji fixes the name.
        LSP.change(client, yaml, version: 2, [LSP.edit(LSP.range(line, character + 4, line, character + 4), "o")])
        #expect(try client.publications([LSP.uri(yaml), LSP.uri(tips)]).values.allSatisfy(\.isEmpty))
        // The same in a .tips file.
        let rules = Self.rules.replacingOccurrences(of: "title \"Keep a logbook\"", with: "title \"🎉 e\u{301} {$isPr}\"")
        LSP.open(client, tips, rules)
        let onTips = try client.publications([LSP.uri(yaml), LSP.uri(tips)])[LSP.uri(tips)] ?? []
        let (tipsLine, tipsCharacter) = LSP.find("isPr}", in: rules)
        #expect(onTips.first?["range"]?["end"] == LSP.position(tipsLine, tipsCharacter + 4)
                || onTips.first?["range"]?["end"] == LSP.position(tipsLine, tipsCharacter + 5))
        #expect(try client.shutdown() == 0)
    }

    // MARK: - Completion and hover

    @Test func completionOffersNamesKeysMembersAndFields() throws {
        let (folder, yaml, tips) = try Self.program()
        _ = folder
        let client = try LanguageServerClient()
        try client.initialize()
        let text = Self.manifest + "  draft:\n    ti\n    rules:\n      - trailViewed.where(tr\n      - trailViewed.co\n      - $is\n      - hik\nexperiments:\n  copy:\n    sal\n    arms:\n      a:\n        wei\ngroups:\n  main:\n    tips: [offlineMaps]\n    \n"
        LSP.open(client, yaml, text)
        func labels(_ needle: String, _ offset: Int) throws -> [String] {
            let (line, character) = LSP.find(needle, in: text, offset: offset)
            return LSP.labels(try client.request("textDocument/completion", LSP.at(LSP.uri(yaml), line, character)))
        }
        #expect(try labels("    ti", 6).contains("title"))
        #expect(try labels("where(tr", 8) == ["trailID"])
        #expect(try labels("trailViewed.co", 14) == ["count", "within", "where", "largestSubset", "smallestSubset", "distinct"])
        #expect(try labels("$is", 3) == ["$isPro"])
        // Keys of an experiment and of an arm.
        #expect(try labels("    sal", 7).contains("salt"))
        #expect(try labels("        wei", 11).contains("weight"))
        let expression = try labels("- hik", 5)
        #expect(expression.starts(with: ["trailViewed", "hikeStarted", "$isPro", "date", "tip"]))
        #expect(expression.contains("within"))
        // A key of a group, below its tips.
        let lines = text.components(separatedBy: "\n")
        let groupKeyLine = lines.count - 2
        #expect(LSP.labels(try client.request("textDocument/completion", LSP.at(LSP.uri(yaml), groupKeyLine, 4))) == ["priority", "tips"])
        // Top-level keys.
        #expect(LSP.labels(try client.request("textDocument/completion", LSP.at(LSP.uri(yaml), lines.count - 1, 0))).contains("defaultLocale"))
        // In a .tips file, inside tip(…): tip names; after `.`: members.
        let rules = Self.rules.replacingOccurrences(of: "  rule hikeStarted.count >= 3\n", with: "  rule tip(off).invalidated\n  rule hikeStarted.count >= 3\n")
        LSP.open(client, tips, rules)
        let (line, character) = LSP.find("tip(off", in: rules, offset: 7)
        #expect(LSP.labels(try client.request("textDocument/completion", LSP.at(LSP.uri(tips), line, character))) == ["offlineMaps", "draft", "logbook"])
        let (memberLine, memberCharacter) = LSP.find(").invalidated", in: rules, offset: 2)
        #expect(LSP.labels(try client.request("textDocument/completion", LSP.at(LSP.uri(tips), memberLine, memberCharacter)))
                == ["invalidated", "displays", "invalidations"])
        #expect(try client.shutdown() == 0)
    }

    @Test func completionWorksInAFileThatDoesNotParse() throws {
        let (folder, yaml, _) = try Self.program()
        _ = folder
        let client = try LanguageServerClient()
        try client.initialize()
        let text = Self.manifest + "      - trailViewed.count >= (\n      - $i\n  broken: [\n"
        LSP.open(client, yaml, text)
        let (line, character) = LSP.find("- $i", in: text, offset: 4)
        #expect(LSP.labels(try client.request("textDocument/completion", LSP.at(LSP.uri(yaml), line, character))) == ["$isPro"])
        #expect(try client.shutdown() == 0)
    }

    @Test func hoverShowsDeclarationsAndCodeExplanations() throws {
        let (folder, yaml, tips) = try Self.program()
        _ = (folder, tips)
        let client = try LanguageServerClient()
        try client.initialize()
        let text = Self.manifest.replacingOccurrences(of: "not $isPro", with: "not $isPro\n      # tipc-disable-next-line always-true")
            .replacingOccurrences(of: "    title: Hike without signal\n", with: """
                    title: Hike without signal
                    goal: hikeStarted within 7d
                    ignoresDisplayFrequency: true
                    maxDisplayCount: 3
                    maxDisplayDuration: 2m

                """)
        LSP.open(client, yaml, text)
        let (line, character) = LSP.find("$isPro", in: text, offset: 2)
        let hover = try client.request("textDocument/hover", LSP.at(LSP.uri(yaml), line, character))
        let value = try #require(LSP.string(hover["contents"]?["value"]))
        #expect(value.contains("**parameter** `$isPro`"))
        #expect(value.contains("- type: `Bool`"))
        #expect(value.contains("- default: `false`"))
        #expect(value.contains("used 1 time in app.yaml"))
        let event = try client.request("textDocument/hover", LSP.at(LSP.uri(yaml), LSP.find("trailViewed.count", in: text).line, LSP.find("trailViewed.count", in: text).character + 3))
        #expect(LSP.string(event["contents"]?["value"])?.contains("- payload: `trailID: Int`") == true)
        #expect(LSP.string(event["contents"]?["value"])?.contains("used 2 times in app.yaml, more.tips") == true)
        // A tip: its settings, in the attribute table's keys.
        let tip = try client.request("textDocument/hover", LSP.at(LSP.uri(yaml), LSP.find("offlineMaps", in: text).line,
                                                                  LSP.find("offlineMaps", in: text).character + 2))
        let tipValue = try #require(LSP.string(tip["contents"]?["value"]))
        #expect(tipValue.contains("**tip** `offlineMaps`") && tipValue.contains("- title: Hike without signal"))
        #expect(tipValue.contains("- maxDisplayCount: `3`\n- maxDisplayDuration: `2m`\n- ignoresDisplayFrequency: `true`\n- goal: `hikeStarted within 7d`"),
                "\(tipValue)")
        #expect(tipValue.contains("- 2 rules"))
        let (codeLine, codeCharacter) = LSP.find("always-true", in: text, offset: 3)
        let code = try client.request("textDocument/hover", LSP.at(LSP.uri(yaml), codeLine, codeCharacter))
        #expect(LSP.string(code["contents"]?["value"])?.contains("always-true (warning): A rule that holds whatever the state.") == true)
        #expect(try client.shutdown() == 0)
    }

    // MARK: - Navigation and rename

    @Test func definitionAndReferencesCrossFiles() throws {
        let (folder, yaml, tips) = try Self.program()
        _ = folder
        let client = try LanguageServerClient()
        try client.initialize()
        LSP.open(client, tips, Self.rules)
        let (line, character) = LSP.find("hikeStarted", in: Self.rules, offset: 2)
        let definition = LSP.array(try client.request("textDocument/definition", LSP.at(LSP.uri(tips), line, character)))
        let (declarationLine, declarationCharacter) = LSP.find("hikeStarted", in: Self.manifest)
        #expect(definition == [.object([("uri", .string(LSP.uri(yaml))),
                                        ("range", LSP.range(declarationLine, declarationCharacter, declarationLine, declarationCharacter + 11))])])
        var params = LSP.at(LSP.uri(tips), LSP.find("trailViewed", in: Self.rules).line, LSP.find("trailViewed", in: Self.rules).character)
        if case .object(var members) = params { members.append(("context", .object([("includeDeclaration", .bool(true))]))); params = .object(members) }
        let references = LSP.array(try client.request("textDocument/references", params))
        #expect(references.compactMap { LSP.string($0["uri"]) } == [LSP.uri(yaml), LSP.uri(yaml), LSP.uri(tips)])
        // A payload field inside `where`.
        let (fieldLine, fieldCharacter) = LSP.find("trailID ==", in: Self.rules)
        let field = LSP.array(try client.request("textDocument/definition", LSP.at(LSP.uri(tips), fieldLine, fieldCharacter)))
        let (fieldDeclarationLine, fieldDeclarationCharacter) = LSP.find("trailID", in: Self.manifest)
        #expect(field.first?["range"] == LSP.range(fieldDeclarationLine, fieldDeclarationCharacter, fieldDeclarationLine, fieldDeclarationCharacter + 7))
        #expect(try client.shutdown() == 0)
    }

    @Test func renameIsOneWorkspaceEditAcrossYAMLAndTipsFiles() throws {
        let (folder, yaml, tips) = try Self.program()
        _ = folder
        let client = try LanguageServerClient()
        try client.initialize()
        LSP.open(client, yaml, Self.manifest)
        let (line, character) = LSP.find("trailViewed:", in: Self.manifest)
        var params = LSP.at(LSP.uri(yaml), line, character + 1)
        if case .object(var members) = params { members.append(("newName", .string("trailOpened"))); params = .object(members) }
        let edit = try client.request("textDocument/rename", params)
        let onYAML = LSP.array(edit["changes"]?[LSP.uri(yaml)])
        let onTips = LSP.array(edit["changes"]?[LSP.uri(tips)])
        #expect(onYAML.count == 2)
        #expect(onTips.count == 1)
        #expect(onTips.first?["range"] == LSP.range(5, 7, 5, 18))
        #expect(onTips.allSatisfy { $0["newText"] == .string("trailOpened") })
        // Applying the edit leaves a program without errors.
        _ = try client.publications([LSP.uri(yaml), LSP.uri(tips)])
        try Data(LSP.apply(onTips, to: Self.rules).utf8).write(to: URL(fileURLWithPath: tips))
        client.notify("workspace/didChangeWatchedFiles", .object([("changes", .array([.object([("uri", .string(LSP.uri(tips))), ("type", .integer(2))])]))]))
        LSP.change(client, yaml, version: 2, [.object([("text", .string(LSP.apply(onYAML, to: Self.manifest)))])])
        // Two notifications: the server may check between them (the .tips file renamed, the YAML
        // not yet) and publish that first; the publication after both is clean.
        var clean = false
        for _ in 0..<2 where !clean {
            clean = try client.publications([LSP.uri(yaml), LSP.uri(tips)]).values.allSatisfy(\.isEmpty)
        }
        #expect(clean)
        // A name that is taken, or not a name, is refused with a reason.
        if case .object(var members) = params { members.removeLast(); members.append(("newName", .string("isPro"))); params = .object(members) }
        #expect(LSP.string(try client.requestResponse("textDocument/rename", params)["error"]?["message"])?.contains("already declared") == true)
        #expect(try client.shutdown() == 0)
    }

    @Test func renameFollowsNamesInGoalsAndExperiments() throws {
        let manifest = Self.manifest.replacingOccurrences(of: "    title: Hike without signal\n", with: """
                title: Hike without signal
                goal: hikeStarted within 7d

            """) + """
            experiments:
              mapsCopy:
                tip: offlineMaps
                arms:
                  control: { weight: 50 }
                  short: { weight: 50, title: Maps offline }
                goal: hikeStarted within 3d

            """
        let (folder, yaml, tips) = try Self.program(manifest: manifest)
        _ = folder
        let client = try LanguageServerClient()
        try client.initialize()
        LSP.open(client, yaml, manifest)
        #expect(try client.publications([LSP.uri(yaml)])[LSP.uri(yaml)]?.isEmpty == true)
        func rename(_ needle: String, to newName: String) throws -> (yaml: [JSON], tips: [JSON]) {
            let (line, character) = LSP.find(needle, in: manifest)
            var params = LSP.at(LSP.uri(yaml), line, character + 1)
            if case .object(var members) = params { members.append(("newName", .string(newName))); params = .object(members) }
            let edit = try client.request("textDocument/rename", params)
            return (LSP.array(edit["changes"]?[LSP.uri(yaml)]), LSP.array(edit["changes"]?[LSP.uri(tips)]))
        }
        // The tip: its declaration and the experiment's `tip:`.
        let tip = try rename("offlineMaps:", to: "mapsOffline")
        #expect(LSP.apply(tip.yaml, to: manifest).components(separatedBy: "mapsOffline").count == 3)
        #expect(!LSP.apply(tip.yaml, to: manifest).contains("offlineMaps"))
        // The event: its declaration, the tip's goal and the experiment's goal, and the rule in the `.tips` file.
        let event = try rename("hikeStarted:", to: "hikeBegun")
        #expect(event.yaml.count == 3)
        #expect(event.tips.count == 1)
        #expect(!LSP.apply(event.yaml, to: manifest).contains("hikeStarted"))
        // Experiments share the namespace: a tip cannot take an experiment's name, and an
        // experiment can be renamed.
        let (line, character) = LSP.find("offlineMaps:", in: manifest)
        var params = LSP.at(LSP.uri(yaml), line, character + 1)
        if case .object(var members) = params { members.append(("newName", .string("mapsCopy"))); params = .object(members) }
        #expect(LSP.string(try client.requestResponse("textDocument/rename", params)["error"]?["message"])?.contains("already declared") == true)
        let experiment = try rename("mapsCopy:", to: "mapsCopy2")
        #expect(LSP.apply(experiment.yaml, to: manifest).contains("mapsCopy2:"))
        #expect(try client.shutdown() == 0)
    }

    static let swiftTips = """
        import TipKit

        struct FavoriteTip: Tip {
            static let didOpen = Tips.Event(id: "didOpen")
            @Parameter static var isSignedIn: Bool = false
            var id: String { "favorite" }
            var title: Text { Text("Keep your 🐦‍⬛ favourites") }
            var rules: [Rule] {
                #Rule(Self.$isSignedIn) { $0 == true }
                #Rule(Self.didOpen) { $0.donations.count >= 3 }
            }
        }

        """

    static let swiftView = """
        import SwiftUI

        struct ProfileView: View {
            var isSignedIn = false
            func signIn() {
                let label = "🐦‍⬛ cafe\u{301}"; let accent = "é"; FavoriteTip.isSignedIn = true
                FavoriteTip.didOpen.sendDonation()
            }
        }

        """

    @Test func renameInSwiftFilesRewritesOnlyWhatIsCertainlyTheName() throws {
        // A YAML manifest and a `.tips` file beside the Swift files: a program of their own, as
        // `check` groups them, which a Swift rename leaves alone.
        let (folder, yaml, tips) = try Self.program()
        let tipsSwift = try folder.write("FavoriteTip.swift", Self.swiftTips)
        let viewSwift = try folder.write("ProfileView.swift", Self.swiftView)
        let client = try LanguageServerClient()
        try client.initialize()
        LSP.open(client, tipsSwift, Self.swiftTips)
        LSP.open(client, viewSwift, Self.swiftView)
        func rename(_ needle: String, _ offset: Int, to newName: String) throws -> JSON {
            let (line, character) = LSP.find(needle, in: Self.swiftTips, offset: offset)
            var params = LSP.at(LSP.uri(tipsSwift), line, character)
            if case .object(var members) = params { members.append(("newName", .string(newName))); params = .object(members) }
            return try client.requestResponse("textDocument/rename", params)
        }
        func range(_ needle: String, _ text: String, _ offset: Int, _ length: Int) -> JSON {
            let (line, character) = LSP.find(needle, in: text, offset: offset)
            return LSP.range(line, character, line, character + length)
        }

        // A parameter: its declaration, `Self.$name` in a rule and `Type.name` in another file
        // (after an emoji and a combining mark: UTF-16 columns); `var isSignedIn` of another type is another name.
        let parameter = try rename("isSignedIn: Bool", 2, to: "isLoggedIn")["result"]
        #expect(Set(LSP.array(parameter?["changes"]?[LSP.uri(tipsSwift)]).compactMap { $0["range"] }.map(String.init(describing:))) == Set([
            range("isSignedIn: Bool", Self.swiftTips, 0, 10), range("$isSignedIn", Self.swiftTips, 1, 10),
        ].map(String.init(describing:))))
        #expect(LSP.array(parameter?["changes"]?[LSP.uri(viewSwift)]).map { $0["range"] } == [range("FavoriteTip.isSignedIn", Self.swiftView, 12, 10)])
        #expect(parameter?["changes"]?[LSP.uri(yaml)] == nil && parameter?["changes"]?[LSP.uri(tips)] == nil)
        let renamedTips = LSP.apply(LSP.array(parameter?["changes"]?[LSP.uri(tipsSwift)]), to: Self.swiftTips)
        let renamedView = LSP.apply(LSP.array(parameter?["changes"]?[LSP.uri(viewSwift)]), to: Self.swiftView)
        #expect(renamedTips.contains("@Parameter static var isLoggedIn: Bool") && renamedTips.contains("#Rule(Self.$isLoggedIn)"))
        #expect(renamedView.contains("let accent = \"é\"; FavoriteTip.isLoggedIn = true") && renamedView.contains("var isSignedIn = false"))

        // An event: the characters of its id literal only (rules read it through the property).
        let event = try rename("\"didOpen\"", 1, to: "appOpened")["result"]
        #expect(event?["changes"] == .object([(LSP.uri(tipsSwift), .array([.object([
            ("range", range("\"didOpen\"", Self.swiftTips, 1, 7)), ("newText", .string("appOpened")),
        ])]))]))
        // A tip with a literal id, renamed from its type's name.
        let tip = try rename("FavoriteTip: Tip", 3, to: "favourite")["result"]
        #expect(LSP.array(tip?["changes"]?[LSP.uri(tipsSwift)]).map { $0["range"] } == [range("\"favorite\"", Self.swiftTips, 1, 8)])

        // A bare `isSignedIn` outside the type may or may not be the parameter: refused, saying where.
        LSP.change(client, viewSwift, version: 2, [.object([("text", .string(Self.swiftView.replacingOccurrences(of: "FavoriteTip.didOpen.sendDonation()", with: "print(isSignedIn)")))])])
        let refused = LSP.string(try rename("isSignedIn: Bool", 2, to: "isLoggedIn")["error"]?["message"])
        #expect(refused?.contains("ProfileView.swift:7:") == true && refused?.contains("may or may not be the parameter") == true)
        // A tip named by its Swift type, and a Swift keyword as a parameter's name, are refused.
        LSP.change(client, tipsSwift, version: 2, [.object([("text", .string(Self.swiftTips.replacingOccurrences(of: "    var id: String { \"favorite\" }\n", with: "")))])])
        #expect(LSP.string(try rename("FavoriteTip: Tip", 3, to: "favourite")["error"]?["message"])?.contains("named by its Swift type") == true)
        #expect(LSP.string(try rename("isSignedIn: Bool", 2, to: "default")["error"]?["message"])?.contains("Swift keyword") == true)

        // The other way: an event renamed in the manifest leaves a Swift event of the same id
        // beside it alone (the Swift files are another program).
        let trail = "import TipKit\n\nenum Events {\n    static let trailViewed = Tips.Event(id: \"trailViewed\")\n}\n"
        let trailSwift = try folder.write("Trail.swift", trail)
        LSP.open(client, yaml, Self.manifest)
        let (line, character) = LSP.find("trailViewed:", in: Self.manifest)
        var params = LSP.at(LSP.uri(yaml), line, character + 1)
        if case .object(var members) = params { members.append(("newName", .string("trailOpened"))); params = .object(members) }
        let manifestEdit = try client.request("textDocument/rename", params)
        #expect(Set(manifestEdit["changes"].map { if case .object(let members) = $0 { return members.map(\.0) } else { return [] } } ?? [])
            == [LSP.uri(yaml), LSP.uri(tips)])
        _ = trailSwift
        #expect(try client.shutdown() == 0)
    }

    @Test func swiftCompletionOffersParametersAfterADollarAndLeavesTheRestToSwift() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("FavoriteTip.swift", Self.swiftTips)
        let client = try LanguageServerClient()
        try client.initialize()
        LSP.open(client, path, Self.swiftTips)
        func labels(_ needle: String, _ offset: Int) throws -> [String] {
            let (line, character) = LSP.find(needle, in: Self.swiftTips, offset: offset)
            return LSP.labels(try client.request("textDocument/completion", LSP.at(LSP.uri(path), line, character)))
        }
        #expect(try labels("$isSignedIn", 3) == ["$isSignedIn"])
        // Not the rule language's members after a Swift `.`, nor anything after `$0`.
        #expect(try labels("donations.count", 10).isEmpty)
        #expect(try labels("$0 == true", 2).isEmpty)
        #expect(try client.shutdown() == 0)
    }

    @Test func swiftQuickFixesAreOnlyThoseThatAreCertain() throws {
        let folder = try TemporaryFolder()
        let text = Self.swiftTips.replacingOccurrences(of: "Self.$isSignedIn", with: "Self.$isSignedOn")
            .replacingOccurrences(of: "Self.didOpen)", with: "Self.didOpn)")
        let path = try folder.write("FavoriteTip.swift", text)
        let client = try LanguageServerClient()
        try client.initialize()
        LSP.open(client, path, text)
        let diagnostics = try client.diagnostics(for: LSP.uri(path))
        #expect(Set(Self.codes(diagnostics)).isSuperset(of: ["unknown-parameter", "unknown-event"]))
        func actions(_ needle: String) throws -> [JSON] {
            let (line, character) = LSP.find(needle, in: text)
            return LSP.array(try client.request("textDocument/codeAction", .object([
                ("textDocument", LSP.document(LSP.uri(path))), ("range", LSP.range(line, character, line, character + needle.utf16.count)),
                ("context", .object([("diagnostics", .array([]))])),
            ])))
        }
        // A parameter's Swift name is its name: the did-you-mean rewrites it after the `$`.
        let parameter = try actions("Self.$isSignedOn")
        #expect(parameter.compactMap { LSP.string($0["title"]) } == ["Change 'isSignedOn' to 'isSignedIn'"])
        let edits = LSP.array(parameter.first?["edit"]?["changes"]?[LSP.uri(path)])
        #expect(LSP.apply(edits, to: text).contains("#Rule(Self.$isSignedIn)"))
        // An event is read through a Swift property whose name need not be its id; and Swift
        // has no suppression comments: nothing is offered rather than a wrong or idle edit.
        #expect(try actions("Self.didOpn").isEmpty)
        #expect(try client.shutdown() == 0)
    }

    @Test func aChangeRechecksItsOwnProgramOnly() throws {
        let folder = try TemporaryFolder()
        let first = try folder.write("first/app.yaml", Self.manifest)
        let second = try folder.write("second/app.yaml", Self.manifest)
        let client = try LanguageServerClient()
        try client.initialize()
        LSP.open(client, first, Self.manifest)
        LSP.open(client, second, Self.manifest)
        _ = try client.publications([LSP.uri(first), LSP.uri(second)])
        client.discardNotifications()
        LSP.change(client, first, version: 2, [.object([("text", .string(Self.manifest.replacingOccurrences(of: "$isPro", with: "$isPr")))])])
        #expect(Self.codes(try client.diagnostics(for: LSP.uri(first), version: 2)) == ["unknown-parameter"])
        // A request after the change: anything published for the change came before its answer.
        _ = try client.request("textDocument/hover", LSP.at(LSP.uri(first), 0, 0))
        #expect(!client.notifications.contains { $0["params"]?["uri"] == .string(LSP.uri(second)) })
        #expect(try client.shutdown() == 0)
    }

    // MARK: - Code actions, formatting, symbols

    @Test func quickFixesOfferTheSuggestionASuppressionAndADeclaration() throws {
        let (folder, yaml, _) = try Self.program()
        _ = folder
        let client = try LanguageServerClient()
        try client.initialize()
        let text = Self.manifest.replacingOccurrences(of: "trailViewed.count", with: "trailVewed.count")
        LSP.open(client, yaml, text)
        let (line, character) = LSP.find("trailVewed", in: text)
        let actions = LSP.array(try client.request("textDocument/codeAction", .object([
            ("textDocument", LSP.document(LSP.uri(yaml))), ("range", LSP.range(line, character, line, character)),
            ("context", .object([("diagnostics", .array([]))])),
        ])))
        let titles = actions.compactMap { LSP.string($0["title"]) }
        #expect(titles == ["Change 'trailVewed' to 'trailViewed'", "Declare event 'trailVewed'", "Suppress 'unknown-event' on this line"])
        let edits = actions.map { LSP.array($0["edit"]?["changes"]?[LSP.uri(yaml)]).first }
        #expect(edits[0]?["range"] == LSP.range(line, character, line, character + 10))
        #expect(edits[0]?["newText"] == .string("trailViewed"))
        #expect(edits[1]?["newText"] == .string("  trailVewed: {}\n"))
        #expect(edits[1]?["range"] == LSP.range(4, 0, 4, 0))
        #expect(edits[2]?["newText"] == .string("      # tipc-disable-next-line unknown-event\n"))
        #expect(try client.shutdown() == 0)
    }

    @Test func aTipsFileGetsItsDeclarationWhereItsDeclarationsAre() throws {
        let (folder, _, tips) = try Self.program()
        _ = folder
        let client = try LanguageServerClient()
        try client.initialize()
        let rules = Self.rules.replacingOccurrences(of: "rule hikeStarted.count >= 3", with: "rule $isBeginner")
        LSP.open(client, tips, rules)
        let (line, character) = LSP.find("$isBeginner", in: rules)
        let actions = LSP.array(try client.request("textDocument/codeAction", .object([
            ("textDocument", LSP.document(LSP.uri(tips))), ("range", LSP.range(line, character, line, character + 3)),
            ("context", .object([("diagnostics", .array([]))])),
        ])))
        let declare = try #require(actions.first { LSP.string($0["title"]) == "Declare parameter 'isBeginner'" })
        let edit = LSP.array(declare["edit"]?["changes"]?[LSP.uri(tips)]).first
        #expect(edit?["range"] == LSP.range(2, 0, 2, 0))
        #expect(edit?["newText"] == .string("param isBeginner: Int = 0\n\n"))
        let suppress = try #require(actions.first { LSP.string($0["title"])?.hasPrefix("Suppress") == true })
        #expect(LSP.array(suppress["edit"]?["changes"]?[LSP.uri(tips)]).first?["newText"] == .string("  // tipc-disable-next-line unknown-parameter\n"))
        #expect(try client.shutdown() == 0)
    }

    @Test func requestsAreAnsweredForTheLatestTextAndInAFileWithErrors() throws {
        let (folder, yaml, _) = try Self.program()
        _ = folder
        let client = try LanguageServerClient()
        try client.initialize()
        LSP.open(client, yaml, Self.manifest)
        // Two changes, then at once a request whose position exists only in the second text:
        // it is answered for that text (the first change breaks the YAML further down).
        LSP.change(client, yaml, version: 2, [LSP.edit(LSP.range(13, 0, 13, 0), "  broken: [\n")])
        LSP.change(client, yaml, version: 3, [LSP.edit(LSP.range(2, 0, 2, 0), "  isNew: { type: int, default: 1 }\n")])
        let hover = try client.request("textDocument/hover", LSP.at(LSP.uri(yaml), 2, 4))
        #expect(LSP.string(hover["contents"]?["value"])?.hasPrefix("**parameter** `$isNew`\n- type: `Int`\n- default: `1`") == true)
        let diagnostics = try client.diagnostics(for: LSP.uri(yaml), version: 3)
        #expect(Self.codes(diagnostics).contains("yaml"))
        let definition = LSP.array(try client.request("textDocument/definition", LSP.at(LSP.uri(yaml), 12, 13)))
        #expect(definition.first?["range"] == LSP.range(3, 2, 3, 7))
        #expect(try client.shutdown() == 0)
    }

    @Test func theServerAsksToBeToldOfFilesChangedOnDisk() throws {
        let client = try LanguageServerClient()
        let result = try client.request("initialize", .object([("capabilities", .object([
            ("workspace", .object([("didChangeWatchedFiles", .object([("dynamicRegistration", .bool(true))]))])),
        ]))]))
        #expect(result["capabilities"] != nil)
        client.notify("initialized", .object([]))
        let registration = try client.next()
        #expect(registration["method"] == .string("client/registerCapability"))
        let watchers = LSP.array(LSP.array(registration["params"]?["registrations"]).first?["registerOptions"]?["watchers"])
        #expect(watchers.compactMap { LSP.string($0["globPattern"]) } == ["**/*.{yaml,yml,tips,swift}", "**/.tipc.yml"])
        if let id = registration["id"] { client.send(.object([("jsonrpc", .string("2.0")), ("id", id), ("result", .null)])) }
        #expect(try client.shutdown() == 0)
    }

    @Test func formattingAndDocumentSymbols() throws {
        let (folder, yaml, tips) = try Self.program(rules: "tipkit 1\ntip logbook { title \"Keep a logbook\"\n rule hikeStarted.count>=3 }\n")
        _ = folder
        let client = try LanguageServerClient()
        try client.initialize()
        let formatting = LSP.array(try client.request("textDocument/formatting", .object([
            ("textDocument", LSP.document(LSP.uri(tips))), ("options", .object([("tabSize", .integer(2)), ("insertSpaces", .bool(true))])),
        ])))
        #expect(formatting.count == 1)
        #expect(LSP.string(formatting.first?["newText"])?.contains("  rule hikeStarted.count >= 3\n") == true)
        // In a manifest only the rules change.
        let messy = Self.manifest.replacingOccurrences(of: "trailViewed.count >= 2 within 7d", with: "trailViewed.count>=2   within 7d")
        LSP.open(client, yaml, messy)
        let yamlFormatting = LSP.array(try client.request("textDocument/formatting", .object([
            ("textDocument", LSP.document(LSP.uri(yaml))), ("options", .object([("tabSize", .integer(2)), ("insertSpaces", .bool(true))])),
        ])))
        #expect(LSP.string(yamlFormatting.first?["newText"]) == Self.manifest)
        let symbols = LSP.array(try client.request("textDocument/documentSymbol", .object([("textDocument", LSP.document(LSP.uri(yaml)))])))
        #expect(symbols.compactMap { LSP.string($0["name"]) } == ["isPro", "trailViewed", "hikeStarted", "offlineMaps"])
        #expect(LSP.array(symbols[1]["children"]).compactMap { LSP.string($0["name"]) } == ["trailID"])
        #expect(try client.shutdown() == 0)
    }

    @Test func swiftFilesGetDiagnosticsSymbolsAndNavigation() throws {
        let folder = try TemporaryFolder()
        let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Examples/backyard-birds-swift")
        var paths: [String] = []
        for name in ["BackyardTips.swift", "BackyardDetailView.swift"] {
            paths.append(try folder.write(name, try String(contentsOf: examples.appendingPathComponent(name), encoding: .utf8)))
        }
        let text = try String(contentsOfFile: paths[0], encoding: .utf8)
        let client = try LanguageServerClient()
        try client.initialize()
        LSP.open(client, paths[0], text)
        _ = try client.diagnostics(for: LSP.uri(paths[0]))
        let symbols = LSP.array(try client.request("textDocument/documentSymbol", .object([("textDocument", LSP.document(LSP.uri(paths[0])))])))
        #expect(symbols.compactMap { LSP.string($0["name"]) }.contains("favoriteBackyard"))
        let (line, character) = LSP.find("isSignedIn: Bool", in: text)
        let hover = try client.request("textDocument/hover", LSP.at(LSP.uri(paths[0]), line, character + 2))
        #expect(LSP.string(hover["contents"]?["value"])?.hasPrefix("**parameter** `$isSignedIn`\n- type: `Bool`\n- default: `false`") == true)
        let broken = text.replacingOccurrences(of: "#Rule(Self.$isSignedIn) { $0 == true }", with: "#Rule(Self.$isSignedIn) { $0 == 1 }")
        LSP.change(client, paths[0], version: 2, [.object([("text", .string(broken))])])
        #expect(!(try client.diagnostics(for: LSP.uri(paths[0]))).isEmpty)
        #expect(try client.shutdown() == 0)
    }
}
