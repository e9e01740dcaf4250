import Foundation
import Testing
@testable import TipcCLI

/// `tipc generate swift`: the generated accessors compile against the built `TipRuntime` module
/// with `swiftc`, a misspelled name or a wrong-typed value does not, and a small program donates
/// and reads statuses through them. One `swiftc` run per case (`-typecheck` where nothing runs).
@Suite struct GenerateSwiftCommandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let examples = root.appendingPathComponent("Examples").path

    /// The build folder holding `Modules/TipRuntime.swiftmodule` and `TipRuntime.build/*.o`:
    /// the one of this test binary, else the package's `.build/debug`.
    static func buildFolder() throws -> URL {
        let own = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let candidates = [own, root.appendingPathComponent(".build/debug")]
        let found = candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("Modules/TipRuntime.swiftmodule").path) }
        return try #require(found, "no TipRuntime module among \(candidates.map(\.path))")
    }

    static func swiftc() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let found = path.split(separator: ":").map { "\($0)/swiftc" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        return try #require(found, "no swiftc on PATH")
    }

    /// Runs swiftc in `folder` with `arguments` after `-swift-version 6 -I MODULES`.
    static func swiftc(_ arguments: [String], in folder: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try swiftc())
        process.arguments = ["-swift-version", "6", "-I", try buildFolder().appendingPathComponent("Modules").path] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static let foundation = "#if canImport(FoundationEssentials)\nimport FoundationEssentials\n#else\nimport Foundation\n#endif\nimport TipRuntime\n"

    /// Writes the accessors of `paths` to `folder/file` in a type named `type`.
    static func generate(_ paths: [String], type: String, to file: String, in folder: TemporaryFolder) {
        let run = Invocation(["generate", "swift"] + paths + ["-o", folder.path + "/" + file, "--type-name", type])
        #expect(run.status == 0, "\(run.stderr)")
    }

    /// A program with keyed tips (an Int key, a String key named like a keyword) whose texts are
    /// localized with placeholders of every type the texts take.
    static let keyedManifest = """
        tipkit: 1
        defaultLocale: en
        parameters:
          userName: { type: string, default: hiker }
        events:
          trailViewed:
            value: { trailID: int }
        tips:
          newTrail:
            key: { name: trailID, type: int }
            title: { en: A new trail near you, de: Ein neuer Weg in deiner Nähe, de-CH: En neue Wäg i dinere Nöchi }
            message:
              en: "{$userName}, {name} is {distance} km away (opened {opened}, loop: {loop}, rated {rating})."
              de: "{$userName}, {name} ist {distance} km entfernt (eröffnet {opened}, Rundweg: {loop}, Note {rating})."
            placeholders: { name: string, distance: double, opened: date, loop: bool, rating: int }
            actions:
              - { id: open, title: { en: Open, de: Öffnen } }
            rules:
              - trailViewed.where(trailID == key).count >= 2
          trailNote:
            key: { name: default, type: string }
            title: A note

        """

    /// Every example app's accessors, each in its own type, in one module with code that uses
    /// them: they typecheck without a warning (two programs' accessors do not collide).
    @Test func theExamplesAccessorsCompileTogether() throws {
        let folder = try TemporaryFolder()
        let apps = [("news", "NewsTips"), ("backyard-birds", "BirdsTips"), ("photo-privacy", "PhotoTips"),
                    ("backyard-birds-swift", "SwiftBirdsTips"), ("rule-language", "RuleLanguageTips"), ("hiking", "HikingTips")]
        for (app, type) in apps { Self.generate([Self.examples + "/" + app], type: type, to: "\(type).swift", in: folder) }
        Self.generate([try folder.write("keyed.yaml", Self.keyedManifest)], type: "KeyedTips", to: "KeyedTips.swift", in: folder)
        try folder.write("Use.swift", Self.foundation + """
            func use(hiking: HikingTips, keyed: KeyedTips) throws {
                let maps: TipContent = try hiking.tips.offlineMaps.content(locale: Locale(identifier: "de-CH"), trail: "Säntis")
                let logbook: TipContent = try hiking.tips.logbook.content(locale: Locale(identifier: "en"))
                let trail: KeyedTips.NewTrailTip = keyed.tips.newTrail(trailID: 42)
                let status: TipStatus = trail.status
                if trail.shouldDisplay { try trail.recordDisplay(duration: 0.9) }
                try keyed.tips.trailNote(default: "summit").invalidate(.tipClosed)
                let texts = try trail.content(locale: Locale(identifier: "de"), name: "Säntis", distance: 12.5, opened: Date(), loop: true, rating: 4)
                let instance: (String, TipKey?) = (trail.id, trail.key)
                _ = (maps, logbook, status, texts.message, instance, trail.statusUpdates())
            }

            func use(news: NewsTips, birds: BirdsTips, photos: PhotoTips, swiftBirds: SwiftBirdsTips, rules: RuleLanguageTips) throws {
                try news.parameters.isSignedIn.set(true)
                let signedIn: Bool = news.parameters.isSignedIn.get()
                try news.events.itemViewed.donate(itemID: 3, section: "world", at: Date(timeIntervalSince1970: 1_780_000_000))
                try news.events.itemViewed.donate(NewsTips.ItemViewedDonation(itemID: 4, section: "sports"))
                try news.events.appLaunched.donate()
                let count: Int = news.events.appLaunched.count()
                let status: TipStatus = news.tips.personalize.status
                if news.tips.welcome.shouldDisplay { try news.tips.welcome.recordDisplay(duration: 1.5) }
                try news.tips.favorites.invalidate(.actionPerformed)
                try news.tips.favorites.reset()
                let updates: AsyncStream<TipStatus> = news.tips.share.statusUpdates()
                let current: (any NewsTips.TipAccessor)? = news.groups.onboarding.currentTip
                try photos.parameters.maskCount.set(2)
                let masks: Int = photos.parameters.maskCount.get()
                _ = (signedIn, count, status, updates, current?.id, masks, birds.tips, swiftBirds.events, rules.groups)
            }

            """)
        let run = try Self.swiftc(["-typecheck"] + apps.map { "\($0.1).swift" } + ["KeyedTips.swift", "Use.swift"], in: folder.path)
        #expect(run.status == 0, "\(run.output)")
        #expect(!run.output.contains("warning:"), "\(run.output)")
    }

    /// A misspelled parameter, event, tip, field or placeholder, a missing key or placeholder,
    /// and a value of the wrong type for a parameter, a payload field, a key or a placeholder,
    /// are each a compile error at its line.
    @Test func aMisspellingOrAWrongTypeDoesNotCompile() throws {
        let folder = try TemporaryFolder()
        Self.generate([Self.examples + "/news"], type: "AppTips", to: "Tips.swift", in: folder)
        Self.generate([try folder.write("keyed.yaml", Self.keyedManifest)], type: "KeyedTips", to: "KeyedTips.swift", in: folder)
        let mistakes = [
            ("try tips.parameters.isSignedInn.set(true)", "has no member 'isSignedInn'"),
            ("try tips.parameters.isSignedIn.set(\"yes\")", "'String'"),
            ("let count: Int = tips.parameters.isSignedIn.get(); _ = count", "'Bool'"),
            ("try tips.events.itemViewd.donate()", "has no member 'itemViewd'"),
            ("try tips.events.itemViewed.donate(itemID: \"3\", section: \"world\")", "'String'"),
            ("try tips.events.itemViewed.donate(itemId: 3, section: \"world\")", "itemId"),
            ("try tips.events.appLaunched.donate(itemID: 3)", "argument"),
            ("_ = tips.tips.personalise.status", "has no member 'personalise'"),
            ("_ = keyed.tips.newTrail.status", "-> KeyedTips.NewTrailTip' has no member 'status'"),
            ("_ = keyed.tips.newTrail(trailID: \"42\").status", "'String' to expected argument type 'Int'"),
            ("_ = keyed.tips.trailNote(default: 42).status", "'Int' to expected argument type 'String'"),
            ("_ = try keyed.tips.newTrail(trailID: 1).content(locale: Locale(identifier: \"de\"), name: \"S\", distance: 1, opened: Date(), loop: true)", "missing argument for parameter 'rating'"),
            ("_ = try keyed.tips.newTrail(trailID: 1).content(locale: Locale(identifier: \"de\"), nam: \"S\", distance: 1, opened: Date(), loop: true, rating: 1)",
             "have 'locale:nam:"),
            ("_ = try keyed.tips.newTrail(trailID: 1).content(locale: Locale(identifier: \"de\"), name: \"S\", distance: 1, opened: \"today\", loop: true, rating: 1)",
             "'String' to expected argument type 'Date'"),
            ("_ = try keyed.tips.trailNote(default: \"x\").content(locale: Locale(identifier: \"de\"), name: \"S\")", "extra argument 'name'"),
        ]
        let body = mistakes.map { "    \($0.0)\n" }.joined()
        try folder.write("Use.swift", Self.foundation + "func use(_ tips: AppTips, _ keyed: KeyedTips) throws {\n" + body + "}\n")
        let run = try Self.swiftc(["-typecheck", "Tips.swift", "KeyedTips.swift", "Use.swift"], in: folder.path)
        #expect(run.status != 0)
        let firstLine = Self.foundation.split(separator: "\n").count + 2
        for (offset, mistake) in mistakes.enumerated() {
            let errors = run.output.split(separator: "\n").filter { $0.hasPrefix("Use.swift:\(firstLine + offset):") && $0.contains(": error: ") }
            #expect(errors.contains { $0.contains(mistake.1) }, "line \(firstLine + offset) (\(mistake.0)): \(errors)\n\(run.output)")
        }
    }

    /// Names that are Swift keywords, not identifiers, or taken, follow the rule of
    /// docs/decisions.md, names of the generated types (`Event`, `Group`, `BoolParameter`) are
    /// members like any other, and a payload field or placeholder hides nothing the body calls
    /// (`date`, `donate`, `tip`, `Conversions`); a closed set of values is an enum; dates and durations are `Date` and
    /// `TimeInterval`.
    @Test func awkwardNamesAndEveryTypeCompile() throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write("odd.yaml", """
            tipkit: 1
            parameters:
              default:   { type: bool, default: false }
              self:      { type: int, default: 0 }
              Type:      { type: double, default: 0.5 }
              center:    { type: string, default: "" }
              _:         { type: bool, default: true }
              init:      { type: bool, default: true }
              entered-detail-view: { type: bool, default: false }
              enteredDetailView: { type: bool, default: false }
              plan:      { type: string, default: free, values: [free, "pro plan", 2x, default, free-tier, free_tier, ""] }
              trialEnds: { type: date, default: "2026-01-01T00:00:00Z" }
              cooldown:  { type: duration, default: 3d }
              BoolParameter: { type: bool, default: false }
              OddTips:   { type: int, default: 0 }
            events:
              app.launched: {}
              Event: {}
              Conversions: {}
              tick:
                value: { date: date, donate: int, TickDonation: bool, Conversions: duration }
              let:
                value: { item-id: int, self: string, when: date, default: bool, wait: duration, var: double }
            tips:
              Self:        { title: Self, rules: [ "$default or $_" ] }
              Protocol:    { title: Type, rules: [ "`app.launched`.count > $self" ] }
              welcome-tip: { title: "Welcome \\"friend\\"\\n" }
              welcomeTip:  { title: Welcome }
              switch:
                title: Everything
                rules:
                  - $plan == "2x" and `let`.where(`item-id` > 1).count > 0 and $trialEnds < now and $cooldown > 1d
                  - $Type > 0.0 and $center == "" and $init and $`entered-detail-view` and $enteredDetailView
              Tips:        { title: Tips }
              TipAccessor: { title: Accessor }
              filled:
                title: "{tip} on {Conversions}"
                placeholders: { tip: string, Conversions: date, locale: int }
            groups:
              return: { priority: ordered, tips: [Self, Protocol] }
              Group: { priority: firstAvailable, tips: [Tips, TipAccessor] }

            """)
        Self.generate([manifest], type: "OddTips", to: "Odd.swift", in: folder)
        try folder.write("Use.swift", Self.foundation + """
            func use(_ tips: OddTips) throws {
                try tips.parameters.`default`.set(true)
                try tips.parameters.`self`.set(3)
                try tips.parameters.`Type`.set(2.5)
                try tips.parameters.center_2.set("x")
                try tips.parameters.__.set(false)
                try tips.parameters.`init`.set(false)
                try tips.parameters.enteredDetailView.set(true)
                try tips.parameters.enteredDetailView_2.set(true)
                try tips.parameters.plan.set(.proPlan)
                let plan: OddTips.PlanValue = tips.parameters.plan.get()
                _ = [plan, .free, ._2x, .default, .freeTier, .free_tier, .__]
                try tips.parameters.trialEnds.set(Date(timeIntervalSince1970: 0))
                let ends: Date = tips.parameters.trialEnds.get()
                try tips.parameters.cooldown.set(3600)
                let cooldown: TimeInterval = tips.parameters.cooldown.get()
                try tips.events.appLaunched.donate()
                try tips.events.let.donate(itemId: 1, self: "s", when: ends, default: true, wait: cooldown, var: 0.5)
                try tips.events.let.donate(OddTips.LetDonation(itemId: 1, self: "s", when: ends, default: true, wait: 1.5, var: 0.5))
                _ = [tips.tips.`Self`.status, tips.tips.`Protocol`.status, tips.tips.welcomeTip.status,
                     tips.tips.welcomeTip_2.status, tips.tips.switch.status]
                _ = tips.groups.return.tips.map(\\.id)
                // Names of the generated types themselves.
                try tips.parameters.BoolParameter.set(true)
                try tips.events.Event.donate()
                try tips.events.Conversions.donate()
                _ = [tips.tips.Tips.status, tips.tips.TipAccessor.status]
                _ = tips.groups.Group.currentTip
                try tips.parameters.OddTips_2.set(1)
                try tips.events.tick.donate(date: ends, donate: 1, TickDonation: true, Conversions: 2)
                _ = try tips.tips.filled.content(locale: Locale(identifier: "en"), tip: "x", Conversions: ends, locale_2: 3)
            }

            """)
        let run = try Self.swiftc(["-typecheck", "Odd.swift", "Use.swift"], in: folder.path)
        #expect(run.status == 0, "\(run.output)")
        #expect(!run.output.contains("warning:"), "\(run.output)")
        // Public, the payloads have initializers of their own (a field named `self` included).
        let publicOdd = Invocation(["generate", "swift", manifest, "-o", folder.path + "/OddPublic.swift", "--type-name", "OddTips", "--public"])
        #expect(publicOdd.status == 0, "\(publicOdd.stderr)")
        let publicRun = try Self.swiftc(["-parse-as-library", "-typecheck", "OddPublic.swift"], in: folder.path)
        #expect(publicRun.status == 0 && !publicRun.output.contains("warning:"), "\(publicRun.output)")
    }

    /// A program built with the accessors and the runtime's objects donates, sets and reads
    /// through them against the news app's pack, and against a pack with keyed tips: each
    /// instance keeps its own state, and a tip's texts come in Swiss German with its
    /// placeholders filled.
    @Test func aProgramDonatesAndReadsThroughTheAccessors() throws {
        let folder = try TemporaryFolder()
        Self.generate([Self.examples + "/news"], type: "AppTips", to: "Tips.swift", in: folder)
        let compiled = Invocation(["compile", Self.examples + "/news", "-o", folder.path + "/news.tippack"])
        #expect(compiled.status == 0, "\(compiled.stderr)")
        let keyedManifest = try folder.write("keyed.yaml", Self.keyedManifest)
        Self.generate([keyedManifest], type: "KeyedTips", to: "KeyedTips.swift", in: folder)
        let keyedPack = Invocation(["compile", keyedManifest, "-o", folder.path + "/keyed.tippack"])
        #expect(keyedPack.status == 0, "\(keyedPack.stderr)")
        // Foundation, as an app has it: FoundationEssentials alone has no locale data, and every
        // `Locale` there is `en_001`.
        try folder.write("main.swift", "import Foundation\nimport TipRuntime\n" + """
            let bytes = try Data(contentsOf: URL(fileURLWithPath: CommandLine.arguments[1]))
            let clock = ManualClock(now: Date(timeIntervalSince1970: 1_780_000_000))
            let center = try TipCenter(pack: try RulePackLoader.load([UInt8](bytes)), persistence: MemoryPersistence(), clock: clock)
            let tips = try AppTips(center: center)
            print(tips.tips.personalize.status)
            try tips.parameters.isSignedIn.set(true)
            try tips.tips.welcome.invalidate(.actionPerformed)
            try tips.events.articleSaved.donate()
            clock.advance(by: 86_400.001)
            print(tips.tips.personalize.status)
            try tips.events.itemViewed.donate(itemID: 7, section: "world")
            print(tips.events.itemViewed.count())
            try tips.tips.personalize.invalidate(.actionPerformed)
            print(tips.tips.personalize.status, tips.parameters.isSignedIn.get())
            print(tips.groups.onboarding.currentTip?.id ?? "none")

            let keyedBytes = try Data(contentsOf: URL(fileURLWithPath: CommandLine.arguments[2]))
            let keyed = try KeyedTips(center: try TipCenter(pack: try RulePackLoader.load([UInt8](keyedBytes)), persistence: MemoryPersistence(),
                                                        clock: clock))
            try keyed.events.trailViewed.donate(trailID: 42)
            try keyed.events.trailViewed.donate(trailID: 42)
            try keyed.events.trailViewed.donate(trailID: 7)
            print(keyed.tips.newTrail(trailID: 42).status, keyed.tips.newTrail(trailID: 7).status)
            try keyed.tips.newTrail(trailID: 42).recordDisplay(duration: 0.5)
            print(keyed.tips.newTrail(trailID: 42).displayCount, keyed.tips.newTrail(trailID: 7).displayCount)
            try keyed.tips.newTrail(trailID: 42).invalidate(.actionPerformed)
            try keyed.tips.trailNote(default: "summit").invalidate(.tipClosed)
            print(keyed.tips.newTrail(trailID: 42).status, keyed.tips.trailNote(default: "summit").status,
                  keyed.tips.trailNote(default: "lake").status)
            try keyed.parameters.userName.set("Alex")
            let texts = try keyed.tips.newTrail(trailID: 7).content(locale: Locale(identifier: "de-CH"), name: "Säntis", distance: 12.5,
                                                                    opened: Date(timeIntervalSince1970: 1_780_000_000), loop: true, rating: 4)
            print(texts.title)
            print(texts.message ?? "-")
            print(texts.actions.map { "\\($0.id): \\($0.title)" })
            print(try keyed.tips.newTrail(trailID: 7).content(locale: Locale(identifier: "fr"), name: "Rigi", distance: 3, opened: Date(timeIntervalSince1970: 0),
                                                              loop: false, rating: -1).message ?? "-")
            // Accessors over a pack of another program: refused once, at the start.
            do {
                _ = try KeyedTips(center: center)
            } catch {
                print(error)
            }

            """)
        let objects = try FileManager.default.contentsOfDirectory(atPath: try Self.buildFolder().appendingPathComponent("TipRuntime.build").path)
            .filter { $0.hasSuffix(".o") }.sorted().map { try Self.buildFolder().appendingPathComponent("TipRuntime.build/" + $0).path }
        let build = try Self.swiftc(["main.swift", "Tips.swift", "KeyedTips.swift"] + objects + ["-o", "program"], in: folder.path)
        try #require(build.status == 0, "\(build.output)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: folder.path + "/program")
        process.arguments = [folder.path + "/news.tippack", folder.path + "/keyed.tippack"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(String(decoding: data, as: UTF8.self) == """
            pending
            available
            1
            invalidated(actionPerformed) true
            none
            available pending
            1 0
            invalidated(actionPerformed) invalidated(tipClosed) available
            En neue Wäg i dinere Nöchi
            Alex, Säntis ist 12.5 km entfernt (eröffnet 2026-05-28T20:26:40Z, Rundweg: true, Note 4).
            ["open: Öffnen"]
            Alex, Rigi is 3.0 km away (opened 1970-01-01T00:00:00Z, loop: false, rated -1).
            no parameter named 'userName'

            """)
    }

    /// With `--public`, the accessors are a library's API: another module that imports it
    /// donates, reads and shows tips through them. Without it, the same code does not compile.
    @Test func publicAccessorsAreUsableFromAnotherModule() throws {
        let folder = try TemporaryFolder()
        let keyedManifest = try folder.write("keyed.yaml", Self.keyedManifest)
        try folder.write("Use.swift", Self.foundation + """
            import SharedTips

            func use(_ center: TipCenter) throws {
                let news = try NewsTips(center: center)
                let keyed = try KeyedTips(center: center)
                try news.parameters.isSignedIn.set(!news.parameters.isSignedIn.get())
                try news.events.itemViewed.donate(itemID: 3, section: "world", at: Date(timeIntervalSince1970: 1_780_000_000))
                try news.events.itemViewed.donate(NewsTips.ItemViewedDonation(itemID: 4, section: "sports"))
                let donation = NewsTips.ItemViewedDonation(itemID: 5, section: "arts")
                try news.events.appLaunched.donate()
                let count: Int = news.events.appLaunched.count()
                let status: TipStatus = news.tips.personalize.status
                if news.tips.welcome.shouldDisplay { try news.tips.welcome.recordDisplay(duration: 1.5) }
                let current: (any NewsTips.TipAccessor)? = news.groups.onboarding.currentTip
                let trail: KeyedTips.NewTrailTip = keyed.tips.newTrail(trailID: 42)
                let texts = try trail.content(locale: Locale(identifier: "de"), name: "Säntis", distance: 12.5, opened: Date(), loop: true, rating: 4)
                try keyed.tips.trailNote(default: "summit").invalidate(.tipClosed)
                _ = (count, status, current?.id, trail.trailID, texts.title, donation.section, news.center, trail.statusUpdates())
            }

            """)
        func library(isPublic: Bool) throws -> (status: Int32, output: String) {
            for (paths, type) in [([Self.examples + "/news"], "NewsTips"), ([keyedManifest], "KeyedTips")] {
                let run = Invocation(["generate", "swift"] + paths + ["-o", folder.path + "/\(type).swift", "--type-name", type]
                                     + (isPublic ? ["--public"] : []))
                #expect(run.status == 0, "\(run.stderr)")
            }
            let module = try Self.swiftc(["-parse-as-library", "-emit-module", "-module-name", "SharedTips", "-emit-module-path",
                                          "SharedTips.swiftmodule", "NewsTips.swift", "KeyedTips.swift"], in: folder.path)
            #expect(module.status == 0 && !module.output.contains("warning:"), "\(module.output)")
            return try Self.swiftc(["-typecheck", "-I", ".", "Use.swift"], in: folder.path)
        }
        let publicUse = try library(isPublic: true)
        #expect(publicUse.status == 0 && !publicUse.output.contains("warning:"), "\(publicUse.output)")
        let internalUse = try library(isPublic: false)
        #expect(internalUse.status != 0 && internalUse.output.contains("cannot find 'NewsTips' in scope"), "\(internalUse.output)")
        let tipkit = Invocation(["generate", "tipkit", Self.examples + "/news", "--public"])
        #expect(tipkit.status == 2 && tipkit.stderr.contains("--public is for 'tipc generate swift'"))
    }

    @Test func optionsOfTheOtherKindAndBadTypeNamesAreRefused() throws {
        let news = Self.examples + "/news"
        let minimum = Invocation(["generate", "swift", news, "--minimum-os", "ios18"])
        #expect(minimum.status == 2 && minimum.stderr.contains("--minimum-os is for 'tipc generate tipkit'"))
        let typeName = Invocation(["generate", "tipkit", news, "--minimum-os", "ios26", "--type-name", "X"])
        #expect(typeName.status == 2 && typeName.stderr.contains("--type-name is for 'tipc generate swift'"))
        for bad in ["2x", "my-tips", "class", "", "Events"] {
            let run = Invocation(["generate", "swift", news, "--type-name", bad])
            #expect(run.status == 2 && run.stderr.contains("is not a Swift type name"), "\(bad): \(run.stderr)")
        }
        let unknown = Invocation(["generate", "kotlin", news])
        #expect(unknown.status == 2 && unknown.stderr.contains("unknown kind 'kotlin'"))
    }
}
