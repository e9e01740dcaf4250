import Testing
import TipRuntime
@testable import TipcCompiler

/// The `experiments:` declaration through every layer: both front ends, both printers (`fmt`,
/// `convert`), the checker, the pack's optional experiments table and its loader.
@Suite struct ExperimentDeclarationTests {
    /// In canonical YAML layout (what `tipc convert --to yaml` prints).
    static let yaml = """
        tipkit: 1
        defaultLocale: en

        events:
          backyardFavorited: {}
          backyardViewed: {}

        tips:
          favoriteBackyard:
            title: Save {backyard} as a favorite
            message: Favorites appear at the top of the list.
            actions:
              - { id: favorite, title: Favorite it }
            placeholders: { backyard: string }
            rules:
              - backyardViewed.count >= 3

        experiments:
          favoriteCopy:
            tip: favoriteBackyard
            arms:
              control: { weight: 45 }
              short:
                weight: 45
                title: { en: "Star {backyard}", de: "{backyard} merken" }
                message: Starred backyards come first.
                image: star
                actions:
                  - { id: star, title: Star it }
              holdout: { weight: 10, hidden: true }
            goal: backyardFavorited within 7d
            salt: favoriteCopy-1

        """

    /// The same program in canonical `.tips` layout.
    static let tips = """
        tipkit 1
        defaultLocale en

        event backyardFavorited
        event backyardViewed

        tip favoriteBackyard {
          title "Save {backyard} as a favorite"
          message "Favorites appear at the top of the list."
          action "favorite" "Favorite it"
          placeholders { backyard: String }
          rule backyardViewed.count >= 3
        }

        experiment favoriteCopy on favoriteBackyard {
          arm control 45
          arm short 45 {
            title { en: "Star {backyard}", de: "{backyard} merken" }
            message "Starred backyards come first."
            image "star"
            action "star" "Star it"
          }
          arm holdout 10 hidden
          goal backyardFavorited within 7d
          salt "favoriteCopy-1"
        }

        """

    static func text(_ literal: String) -> PackLocalizedText {
        PackLocalizedText(variants: [.init(locale: nil, template: TextTemplate([.literal(literal)]))])
    }

    @Test func theYAMLDeclarationCompilesToThePacksModel() throws {
        let compiled = compilePack(SourceFile(path: "copy.yaml", text: Self.yaml))
        #expect(compiled.errors.isEmpty, "\(compiled.errors.map(\.message))")
        let pack = try #require(compiled.pack)
        let shortTitle = PackLocalizedText(variants: [
            .init(locale: "en", template: TextTemplate([.literal("Star "), .placeholder(0)])),
            .init(locale: "de", template: TextTemplate([.placeholder(0), .literal(" merken")])),
        ])
        #expect(pack.experiments == [PackExperiment(
            name: "favoriteCopy", tip: 0, salt: "favoriteCopy-1", goal: PackTipGoal(event: 0, windowMilliseconds: 7 * 86_400_000),
            arms: [
                PackExperimentArm(name: "control", weight: 45),
                PackExperimentArm(name: "short", weight: 45, title: shortTitle, message: Self.text("Starred backyards come first."),
                                  image: .symbol("star"), actions: [PackArmAction(id: "star", title: Self.text("Star it"))]),
                PackExperimentArm(name: "holdout", weight: 10, isHidden: true),
            ])])
        #expect(pack.experiment(onTip: 0)?.name == "favoriteCopy")
        // The goal's event is used, so it is not `unused`.
        let diagnostics = Frontend.check(sources: [SourceFile(path: "copy.yaml", text: Self.yaml)]).diagnostics
        #expect(!diagnostics.contains { $0.code == .unused }, "\(diagnostics.map(\.message))")
    }

    @Test func convertRoundTripsBothWaysAndBothFrontEndsGiveTheSamePack() throws {
        let yaml = SourceFile(path: "copy.yaml", text: Self.yaml)
        let tips = try convert(yaml, to: .tips).get()
        #expect(String(decoding: tips.bytes, as: UTF8.self) == Self.tips)
        let back = try convert(tips, to: .yaml).get()
        #expect(String(decoding: back.bytes, as: UTF8.self) == Self.yaml)
        let fromTips = compilePack(SourceFile(path: "copy.tips", text: Self.tips))
        #expect(fromTips.errors.isEmpty, "\(fromTips.errors.map(\.message))")
        #expect(fromTips.pack?.strippingDebugInfo() == compilePack(yaml).pack?.strippingDebugInfo())
    }

    @Test func fmtKeepsACanonicalTipsFileAndItsComments() throws {
        let commented = Self.tips
            .replacingOccurrences(of: "experiment favoriteCopy on", with: "// Which copy gets users to favorite?\nexperiment favoriteCopy on")
            .replacingOccurrences(of: "  arm holdout 10 hidden", with: "  // never sees the tip\n  arm holdout 10 hidden")
            .replacingOccurrences(of: "  salt \"favoriteCopy-1\"", with: "  salt \"favoriteCopy-1\" // re-bucketed once")
        let source = SourceFile(path: "copy.tips", text: commented)
        let parsed = parseSource(source)
        #expect(parsed.errors.isEmpty, "\(parsed.errors.map(\.message))")
        let formatted = try SourceFormatter.format(source, parsed: parsed.file)
        #expect(String(decoding: formatted, as: UTF8.self) == commented)
        // A one-line arm reads as the canonical one.
        let oneLine = Self.tips.replacingOccurrences(of: "  arm control 45\n", with: "  arm control 45 { message \"Hi\" }\n")
        let reparsed = parseSource(SourceFile(path: "one.tips", text: oneLine))
        #expect(reparsed.errors.isEmpty, "\(reparsed.errors.map(\.message))")
        #expect(reparsed.file.experiments.first?.arms.first?.message?.value == "Hi")
    }

    @Test func anArmWithoutButtonsConvertsBothWays() throws {
        let yaml = Self.yaml.replacingOccurrences(of: "control: { weight: 45 }", with: "control:\n        weight: 45\n        actions: []")
        let tips = try convert(SourceFile(path: "copy.yaml", text: yaml), to: .tips).get()
        let text = String(decoding: tips.bytes, as: UTF8.self)
        #expect(text.contains("  arm control 45 {\n    no actions\n  }\n"), "\(text)")
        #expect(String(decoding: try convert(tips, to: .yaml).get().bytes, as: UTF8.self) == yaml)
        let pack = try #require(compilePack(tips).pack)
        #expect(pack.experiments.first?.arms.first?.actions == [])
    }

    @Test func theSaltDefaultsToTheExperimentsName() throws {
        let source = Self.yaml.replacingOccurrences(of: "    salt: favoriteCopy-1\n", with: "")
        let pack = try #require(compilePack(SourceFile(path: "copy.yaml", text: source)).pack)
        #expect(pack.experiments.first?.salt == "favoriteCopy")
    }

    @Test func theAssignmentOfALoadedExperimentIsTheDocumentedOne() throws {
        let pack = try #require(compilePack(SourceFile(path: "copy.yaml", text: Self.yaml)).pack)
        let loaded = try RulePackLoader.decodeModel(RulePackCompiler.fileBytes(pack))
        let assignment = try #require(try loaded.experiments.first?.assignment())
        // The golden vectors of docs/experiments.md.
        #expect(assignment.arm(for: "user-1").name == "short")
        #expect(assignment.arm(for: "user-2").name == "control")
        #expect(assignment.arm(for: "user-32").name == "holdout")
    }

    // MARK: - The pack

    static func pack() throws -> RulePack {
        try #require(compilePack(SourceFile(path: "copy.yaml", text: Self.yaml)).pack).withoutSourcePositions
    }

    @Test func theExperimentsTableRoundTrips() throws {
        let pack = try Self.pack()
        let bytes = RulePackWriter.encode(pack)
        let read = try RulePackLoader.decodeModel(bytes)
        #expect(read.experiments == pack.experiments)
        #expect(RulePackWriter.encode(read) == bytes)
    }

    @Test func aPackWithoutExperimentsIsByteIdenticalToOneCompiledWithoutTheDeclaration() throws {
        let withoutDeclaration = Self.yaml.components(separatedBy: "experiments:\n")[0]
        let plain = try #require(compilePack(SourceFile(path: "copy.yaml", text: withoutDeclaration)).pack).withoutSourcePositions
        #expect(plain.experiments.isEmpty)
        var stripped = try Self.pack()
        stripped.experiments = []
        // The same program without experiments: the same bytes, and no table of the new kind.
        let bytes = RulePackWriter.encode(plain)
        #expect(RulePackWriter.encode(stripped) == bytes)
        #expect(Self.tableKinds(of: bytes).contains(PackFormat.experimentsTableKind) == false)
        #expect(Self.tableKinds(of: RulePackWriter.encode(try Self.pack())).contains(PackFormat.experimentsTableKind))
        #expect(PackFormat.experimentsTableKind & PackFormat.optionalTableBit != 0, "older runtimes skip it")
    }

    @Test func aLoaderThatSkipsTheTableReadsThePackAsWithoutExperiments() throws {
        // What an older runtime does with the optional table: skip it. The same pack with the
        // table's kind changed to an unknown optional kind loads, with every tip as declared.
        let bytes = RulePackWriter.encode(try Self.pack())
        let renamed = Self.replacingTableKind(PackFormat.experimentsTableKind, with: PackFormat.optionalTableBit | 0x7FF0, in: bytes)
        let read = try RulePackLoader.decodeModel(renamed)
        #expect(read.experiments.isEmpty)
        #expect(read.tips == (try Self.pack()).tips)
    }

    /// Each broken model, encoded, and a piece of the loader's message.
    static let brokenModels: [(String, @Sendable (inout RulePack) -> Void)] = [
        ("varies tip 9", { $0.experiments[0].tip = 9 }),
        ("names event 5", { $0.experiments[0].goal.event = 5 }),
        ("window of 0 ms", { $0.experiments[0].goal.windowMilliseconds = 0 }),
        ("add up to 0", { pack in for arm in pack.experiments[0].arms.indices { pack.experiments[0].arms[arm].weight = 0 } }),
        ("weights are zero or more", { $0.experiments[0].arms[1].weight = -1 }),
        ("its baseline, is hidden", { $0.experiments[0].arms[0].isHidden = true }),
        ("is declared twice", { $0.experiments[0].arms[2].name = "short" }),
        ("reads placeholder 3", { $0.experiments[0].arms[0].title = PackLocalizedText(variants: [.init(locale: nil, template: TextTemplate([.placeholder(3)]))]) }),
        ("reads parameter 4", { $0.experiments[0].arms[0].message = PackLocalizedText(variants: [.init(locale: nil, template: TextTemplate([.parameter(4)]))]) }),
        ("lacks the default locale", { $0.experiments[0].arms[0].title = PackLocalizedText(variants: [.init(locale: "fr", template: TextTemplate([.literal("x")]))]) }),
        ("duplicate action id", { $0.experiments[0].arms[1].actions = [PackArmAction(id: "a", title: text("A")), PackArmAction(id: "a", title: text("B"))] }),
        ("is in experiments 'favoriteCopy' and 'again'", { pack in
            var again = pack.experiments[0]
            again.name = "again"
            pack.experiments.append(again)
        }),
        ("duplicate experiment name", { pack in pack.experiments.append(pack.experiments[0]) }),
        ("needs at least one arm", { $0.experiments[0].arms = [] }),
    ]

    @Test(arguments: brokenModels.indices)
    func aLoaderRefusesABrokenExperimentWithAClearError(_ index: Int) throws {
        var pack = try Self.pack()
        let (message, breakIt) = Self.brokenModels[index]
        breakIt(&pack)
        do {
            _ = try RulePackLoader.decodeModel(RulePackWriter.encode(pack))
            Issue.record("loaded a pack whose experiment is broken (\(message))")
        } catch {
            #expect(error.description.contains(message), "\(error)")
        }
    }

    @Test func aLoaderRefusesATruncatedOrPaddedExperimentsTable() throws {
        let bytes = RulePackWriter.encode(try Self.pack())
        let (offset, length) = try #require(Self.table(PackFormat.experimentsTableKind, in: bytes))
        for newLength in [0, 3, length - 1, length + 1] {
            var body = Array(bytes[PackFormat.headerSize...])
            let start = offset - PackFormat.headerSize
            var table = Array(body[(start + 6)..<(start + 6 + length)])
            table = newLength <= length ? Array(table.prefix(newLength)) : table + [0]
            body.replaceSubrange((start + 6)..<(start + 6 + length), with: table)
            for index in 0..<4 { body[start + 2 + index] = UInt8(truncatingIfNeeded: UInt32(newLength) >> UInt32(8 * index)) }
            let damaged = Self.resealed(Array(bytes[..<PackFormat.headerSize]) + body)
            #expect(throws: RulePackError.self, "length \(newLength) of \(length)") { try RulePackLoader.decodeModel(damaged) }
        }
    }

    // MARK: - Pack bytes

    /// The tables of `bytes` as (offset of the kind, length of the table).
    static func tables(of bytes: [UInt8]) -> [(kind: UInt16, offset: Int, length: Int)] {
        func u32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
        var offset = PackFormat.headerSize
        let count = u32(offset)
        offset += 4
        var tables: [(UInt16, Int, Int)] = []
        for _ in 0..<count {
            let kind = UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
            let length = u32(offset + 2)
            tables.append((kind, offset, length))
            offset += 6 + length
        }
        return tables
    }

    static func tableKinds(of bytes: [UInt8]) -> [UInt16] { tables(of: bytes).map(\.kind) }

    static func table(_ kind: UInt16, in bytes: [UInt8]) -> (offset: Int, length: Int)? {
        tables(of: bytes).first { $0.kind == kind }.map { ($0.offset, $0.length) }
    }

    static func replacingTableKind(_ kind: UInt16, with other: UInt16, in bytes: [UInt8]) -> [UInt8] {
        guard let (offset, _) = table(kind, in: bytes) else { return bytes }
        var copy = bytes
        copy[offset] = UInt8(other & 0xFF)
        copy[offset + 1] = UInt8(other >> 8)
        return resealed(copy)
    }

    /// `bytes` with the header's body length and CRC-32 matching the body.
    static func resealed(_ bytes: [UInt8]) -> [UInt8] {
        var copy = bytes
        let length = UInt32(bytes.count - PackFormat.headerSize)
        let crc = CRC32.checksum(bytes, in: PackFormat.headerSize..<bytes.count)
        for index in 0..<4 {
            copy[32 + index] = UInt8(truncatingIfNeeded: length >> UInt32(8 * index))
            copy[36 + index] = UInt8(truncatingIfNeeded: crc >> UInt32(8 * index))
        }
        return copy
    }

    // MARK: - Checking

    static func errors(_ yaml: String) -> [Diagnostic] {
        compilePack(SourceFile(path: "copy.yaml", text: yaml)).errors
    }

    @Test func unknownNamesHaveADidYouMean() throws {
        let tip = Self.errors(Self.yaml.replacingOccurrences(of: "tip: favoriteBackyard", with: "tip: favoriteBakyard"))
        #expect(tip.map(\.code) == [.unknownTip] && tip.first?.help == "did you mean 'favoriteBackyard'?", "\(tip.map(\.message))")
        let event = Self.errors(Self.yaml.replacingOccurrences(of: "goal: backyardFavorited", with: "goal: backyardFavourited"))
        #expect(event.map(\.code) == [.unknownGoalEvent] && event.first?.help == "did you mean 'backyardFavorited'?", "\(event.map(\.message))")
        let armKey = Self.errors(Self.yaml.replacingOccurrences(of: "message: Starred", with: "mesage: Starred"))
        #expect(armKey.map(\.code) == [.unknownKey] && armKey.first?.help == "did you mean 'message'?", "\(armKey.map(\.message))")
        let key = Self.errors(Self.yaml.replacingOccurrences(of: "salt: favoriteCopy-1", with: "sault: favoriteCopy-1"))
        #expect(key.map(\.code) == [.unknownKey] && key.first?.help == "did you mean 'salt'?", "\(key.map(\.message))")
        let word = parseTipsFile(Self.tips.replacingOccurrences(of: "  salt \"", with: "  sallt \"")).diagnostics
        #expect(word.map(\.code) == [.unknownKey] && word.first?.help == "did you mean 'salt'?", "\(word.map(\.message))")
    }

    @Test func armsAreChecked() {
        let zero = Self.errors(Self.yaml.replacingOccurrences(of: "{ weight: 45 }", with: "{ weight: 0 }")
            .replacingOccurrences(of: "weight: 45\n", with: "weight: 0\n").replacingOccurrences(of: "weight: 10,", with: "weight: 0,"))
        #expect(zero.map(\.code) == [.zeroTotalWeight], "\(zero.map(\.message))")
        let negative = Self.errors(Self.yaml.replacingOccurrences(of: "{ weight: 45 }", with: "{ weight: -1 }"))
        #expect(negative.map(\.code) == [.invalidValue], "\(negative.map(\.message))")
        let missing = Self.errors(Self.yaml.replacingOccurrences(of: "{ weight: 45 }", with: "{}"))
        #expect(missing.map(\.code) == [.missingKey], "\(missing.map(\.message))")
        let hidden = Self.errors(Self.yaml.replacingOccurrences(of: "{ weight: 45 }", with: "{ weight: 45, hidden: true }"))
        #expect(hidden.map(\.code) == [.hiddenBaseline], "\(hidden.map(\.message))")
        let twice = compilePack(SourceFile(path: "copy.tips", text: Self.tips.replacingOccurrences(of: "arm holdout", with: "arm control"))).errors
        #expect(twice.map(\.code) == [.duplicateName] && twice.first?.message == "experiment 'favoriteCopy' has two arms named 'control'",
                "\(twice.map(\.message))")
    }

    @Test func anArmsTextReadsTheTipsPlaceholders() {
        let dropped = Self.errors(Self.yaml.replacingOccurrences(of: "\"Star {backyard}\", de: \"{backyard} merken\"", with: "Star it, de: Merken"))
        #expect(dropped.map(\.code) == [.armPlaceholderMismatch], "\(dropped.map(\.message))")
        #expect(dropped.first?.message == "the title of arm 'short' of experiment 'favoriteCopy' lacks '{backyard}'")
        let added = Self.errors(Self.yaml.replacingOccurrences(of: "message: Starred backyards come first.", with: "message: \"{backyard} first\""))
        #expect(added.map(\.code) == [.armPlaceholderMismatch], "\(added.map(\.message))")
        let unknown = Self.errors(Self.yaml.replacingOccurrences(of: "message: Starred backyards come first.", with: "message: \"{backyrd} first\""))
        #expect(unknown.map(\.code) == [.unknownPlaceholder] && unknown.first?.help == "did you mean 'backyard'?", "\(unknown.map(\.message))")
    }

    @Test func aTipIsInAtMostOneExperiment() throws {
        let twice = Self.yaml + """
              again:
                tip: favoriteBackyard
                arms: { only: { weight: 1 } }
                goal: backyardFavorited within 1d

            """
        let errors = Self.errors(twice.replacingOccurrences(of: "    salt: favoriteCopy-1\n\n", with: "    salt: favoriteCopy-1\n"))
        #expect(errors.map(\.code) == [.tipInSeveralExperiments], "\(errors.map(\.message))")
        #expect(errors.first?.notes.first?.message == "its experiment names it here")
    }

    @Test func requiredAttributesAreMissingKeys() {
        let source = "tipkit 1\nevent e\ntip t {\n  title \"T\"\n  rule e.count > 0\n}\nexperiment x {\n}\n"
        #expect(parseTipsFile(source.replacingOccurrences(of: "experiment x {\n", with: "experiment x {\n  on t\n")).diagnostics.map(\.message)
                == ["the tip is written in the experiment's first line"])
        let errors = compilePack(SourceFile(path: "x.tips", text: source)).errors
        #expect(errors.map(\.message) == ["experiment 'x' names no tip", "experiment 'x' has no goal", "experiment 'x' has no arms"])
        #expect(Set(errors.map(\.code)) == [.missingKey])
    }

    @Test func theSchemaDescribesExperiments() {
        let schema = ManifestSchema.jsonSchema()
        #expect(schema.contains("\"experiments\": {"))
        #expect(schema.contains("\"arm\": {"))
        #expect(schema.contains("\"hidden\": {"))
    }
}
