import Foundation
import Testing
@testable import TipRuntime
import TipcCompiler

/// `TipCenter.content(of:locale:values:)`: locale fallback, placeholders and
/// parameter values filled, and the errors for a missing or mistyped value.
@Suite("Tip content")
struct TipContentTests {
    static let source = """
        tipkit 1
        defaultLocale en
        param userName: String = "friend"
        param count: Int = 3
        param ratio: Double = 0.1
        param premium: Bool = false
        param since: Date = date("2026-03-01T09:00:00Z")
        param cooldown: Duration = 36h

        tip quickSearch {
          title { en: "Search faster", de: "Schneller suchen", `de-CH`: "Schnäller sueche" }
          message {
            en: "Press {shortcut} to search, {$userName}."
            de: "Drücke {shortcut} zum Suchen, {$userName}."
          }
          action "learn-more" { en: "Learn more", de: "Mehr erfahren" }
          action "later" "Later {{not now}}"
          placeholders { shortcut: String }
        }

        tip values {
          title "{$count} | {$ratio} | {$premium} | {$since} | {$cooldown} | {{$count}}"
          message "{n} {x} {b} {d} {s}"
          placeholders { n: Int, x: Double, b: Bool, d: Date, s: String, unused: Int }
        }

        tip plain {
          title "Plain"
          action "ok" "OK"
        }
        """

    @Test func choosesTheLocaleThenItsPrefixThenTheDefault() throws {
        let center = try makeCenter(Self.source)
        let values: [String: RuntimeValue] = ["shortcut": "⌘K"]
        #expect(try center.content(of: "quickSearch", locale: "de-CH", values: values).title == "Schnäller sueche")
        #expect(try center.content(of: "quickSearch", locale: "de-AT", values: values).title == "Schneller suchen")
        #expect(try center.content(of: "quickSearch", locale: "de-CH-1996", values: values).title == "Schnäller sueche")
        #expect(try center.content(of: "quickSearch", locale: "de_CH", values: values).title == "Schnäller sueche")
        #expect(try center.content(of: "quickSearch", locale: "DE-ch", values: values).title == "Schnäller sueche")
        #expect(try center.content(of: "quickSearch", locale: "fr-FR", values: values).title == "Search faster")
        #expect(try center.content(of: "quickSearch", locale: "", values: values).title == "Search faster")
        // The message has no de-CH text: de-CH falls back to de for it alone.
        let swiss = try center.content(of: "quickSearch", locale: "de-CH", values: values)
        #expect(swiss.message == "Drücke ⌘K zum Suchen, friend.")
        #expect(swiss.actions == [TipContent.Action(id: "learn-more", title: "Mehr erfahren"),
                                  TipContent.Action(id: "later", title: "Later {not now}")])
    }

    @Test func fillsParametersWithTheirCurrentValues() throws {
        let center = try makeCenter(Self.source)
        try center.setParameter("userName", to: "Alex")
        #expect(try center.content(of: "quickSearch", locale: "en", values: ["shortcut": "⌘K"]).message
                    == "Press ⌘K to search, Alex.")
        let values: [String: RuntimeValue] = ["n": .int(-7), "x": .double(2.5), "b": .bool(true),
                                              "d": .date(milliseconds: 1_772_355_600_250), "s": "text {x}"]
        let content = try center.content(of: "values", locale: "en", values: values)
        #expect(content.title == "3 | 0.1 | false | 2026-03-01T09:00:00Z | 1d12h | {$count}")
        #expect(content.message == "-7 2.5 true 2026-03-01T09:00:00.250Z text {x}")
        try center.setParameters(["count": .int(1_000_000), "ratio": .double(1e-7), "premium": .bool(true)])
        #expect(try center.content(of: "values", locale: "en", values: values).title.hasPrefix("1000000 | 1e-07 | true | "))
    }

    @Test func aMissingOrMistypedValueIsAnErrorThatNamesIt() throws {
        let center = try makeCenter(Self.source)
        #expect(throws: TipError.missingPlaceholderValue(tip: "quickSearch", placeholder: "shortcut")) {
            try center.content(of: "quickSearch", locale: "de", values: [:])
        }
        #expect(throws: TipError.wrongPlaceholderType(tip: "quickSearch", placeholder: "shortcut", expected: .string, actual: .int)) {
            try center.content(of: "quickSearch", locale: "de", values: ["shortcut": .int(3)])
        }
        #expect(throws: TipError.unknownTip("quickSerch")) {
            try center.content(of: "quickSerch", locale: "de", values: [:])
        }
        // A placeholder no text reads needs no value; values the tip does not declare are ignored.
        let values: [String: RuntimeValue] = ["n": .int(1), "x": .double(1), "b": .bool(false), "d": .date(milliseconds: 0),
                                              "s": "", "other": .int(0)]
        #expect(try center.content(of: "values", locale: "en", values: values).message == "1 1.0 false 1970-01-01T00:00:00Z ")
        #expect(TipError.missingPlaceholderValue(tip: "t", placeholder: "p").description == "no value for placeholder 'p' of tip 't'")
    }

    @Test func plainTextsAreShownAsWritten() throws {
        let center = try makeCenter(Self.source)
        #expect(try center.content(of: "plain", locale: "de") == TipContent(title: "Plain", actions: [.init(id: "ok", title: "OK")]))
        // A program whose texts are all plain compiles to a pack without a texts table.
        let plain = try verifiedPack("tipkit 1\ntip t {\n  title \"Hello\"\n  message \"World\"\n}\n")
        #expect(plain.pack.texts == nil)
        let center2 = try TipCenter(pack: plain, persistence: MemoryPersistence(deviceID: "test"), clock: ManualClock(now: testStart))
        #expect(try center2.content(of: "t", locale: "de-CH") == TipContent(title: "Hello", message: "World"))
    }

    @Test func thePackKeepsTheTextsThroughBytes() throws {
        let pack = try verifiedPack(Self.source).pack
        let texts = try #require(pack.texts)
        #expect(texts.defaultLocale == "en")
        #expect(texts.tips.map(\.tip) == [0, 1])
        #expect(try RulePackLoader.decodeModel(RulePackWriter.encode(pack)) == pack)
        // The tips table holds the default locale's text as written.
        #expect(pack.tips[0].title == "Search faster")
        #expect(pack.tips[0].message == "Press {shortcut} to search, {$userName}.")
    }
}

/// BCP 47 tags: well-formedness and the lookup chain.
@Suite("Locale tags")
struct LocaleTagTests {
    @Test(arguments: ["de", "de-CH", "zh-Hans", "zh-Hans-CN", "es-419", "sr-Latn-RS", "de-CH-1996", "en-US-u-ca-buddhist",
                      "en-x-private", "gsw", "yue-HK", "zh-cmn-Hans-CN", "DE-ch"])
    func wellFormed(_ tag: String) {
        #expect(LocaleTag.isWellFormed(tag), "\(tag)")
    }

    @Test(arguments: ["", "d", "de_CH", "de-", "-de", "de--CH", "123", "de-CH-", "english-language-tag-that-is-long", "de-u", "de-x",
                      "de CH", "dé", "toolongsubtag"])
    func malformed(_ tag: String) {
        #expect(!LocaleTag.isWellFormed(tag), "\(tag)")
    }

    @Test func lookupTruncatesFromTheEnd() {
        #expect(LocaleTag.lookupChain(for: "zh-Hant-CN-x-private1-private2")
                    == ["zh-Hant-CN-x-private1-private2", "zh-Hant-CN-x-private1", "zh-Hant-CN", "zh-Hant", "zh"])
        #expect(LocaleTag.lookupChain(for: "de_CH@calendar=gregorian") == ["de-CH", "de"])
        #expect(LocaleTag.lookupChain(for: "") == [])
    }
}

/// The loader refuses a texts table that does not fit its pack.
@Suite("Texts table verification")
struct TextsTableVerificationTests {
    static func pack() throws -> RulePack {
        try verifiedPack(TipContentTests.source).pack
    }

    static func refusal(_ change: (inout PackTexts) -> Void) throws -> RulePackError? {
        var pack = try pack()
        var texts = try #require(pack.texts)
        change(&texts)
        pack.texts = texts
        do {
            _ = try RulePackVerifier.verify(pack)
            return nil
        } catch {
            return error
        }
    }

    @Test func badIndexesAreRefused() throws {
        let placeholder = try Self.refusal { $0.tips[0].title.variants[0].template = TextTemplate([.placeholder(7)]) }
        #expect(placeholder?.kind == .indexOutOfBounds)
        #expect(placeholder?.message.contains("placeholder 7") == true)
        let parameter = try Self.refusal { $0.tips[0].title.variants[0].template = TextTemplate([.parameter(99)]) }
        #expect(parameter?.kind == .indexOutOfBounds)
        let tip = try Self.refusal { $0.tips[1].tip = 9 }
        #expect(tip?.kind == .indexOutOfBounds)
        let order = try Self.refusal { $0.tips.swapAt(0, 1) }
        #expect(order?.message.contains("out of order") == true)
    }

    @Test func inconsistentTextsAreRefused() throws {
        #expect(try Self.refusal { $0.defaultLocale = nil }?.message.contains("no default locale") == true)
        #expect(try Self.refusal { $0.defaultLocale = "fr" }?.message.contains("lacks the default locale 'fr'") == true)
        #expect(try Self.refusal { $0.defaultLocale = "en_US" }?.message.contains("not a BCP 47 tag") == true)
        #expect(try Self.refusal { $0.tips[0].title.variants[1].locale = "EN" }?.kind == .duplicateName)
        #expect(try Self.refusal { $0.tips[0].title.variants[1].locale = nil }?.kind == .malformed)
        #expect(try Self.refusal { $0.tips[0].actionTitles.removeLast() }?.message.contains("texts in the texts table") == true)
        #expect(try Self.refusal { $0.tips[0].placeholders[0].type = .duration }?.message.contains("Duration") == true)
        #expect(try Self.refusal { $0.tips[0].placeholders.append($0.tips[0].placeholders[0]) }?.kind == .duplicateName)
        let mismatch = try Self.refusal { $0.tips[0].message?.variants[1].template = TextTemplate([.literal("Drücke")]) }
        #expect(mismatch?.message.contains("different placeholders") == true)
        #expect(try Self.refusal { _ in } == nil)
    }

    /// Every pack has the texts table; an empty one, or none (a format-1 pack), reads as no texts.
    @Test func anEmptyOrMissingTextsTableMeansPlainTexts() throws {
        let plain = try verifiedPack("tipkit 1\ntip t {\n  title \"Hello\"\n}\n").pack
        #expect(plain.texts == nil)
        let bytes = RulePackWriter.encode(plain)
        let body = Array(bytes[PackFormat.headerSize...])
        var offset = 4
        var tables: [[UInt8]] = []
        for _ in 0..<Int(body[0]) {
            let length = Int(body[offset + 2]) | Int(body[offset + 3]) << 8 | Int(body[offset + 4]) << 16 | Int(body[offset + 5]) << 24
            tables.append(Array(body[offset..<offset + 6 + length]))
            offset += 6 + length
        }
        // The required tables, then the optional producer table (kind 0x8001).
        #expect(tables.map { $0[0] } == [1, 2, 3, 4, 5, 6, 7, 8, 1])
        #expect(tables.last?.prefix(2) == [0x01, 0x80])
        tables.removeLast()
        #expect(tables.last == [8, 0, 8, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0])
        #expect(try RulePackLoader.decodeModel(bytes) == plain)
        // Without the format-2 tables, as a format-1 pack: the same pack; a format-2 pack without them is refused.
        let withoutTexts: [UInt8] = [6, 0, 0, 0] + Array(tables.prefix(6).joined())
        var header = Array(bytes[0..<PackFormat.headerSize])
        let length = UInt32(withoutTexts.count)
        let crc = CRC32.checksum(withoutTexts)
        for index in 0..<4 {
            header[32 + index] = UInt8(truncatingIfNeeded: length >> (8 * UInt32(index)))
            header[36 + index] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(index)))
        }
        // A format-2 pack must have it.
        #expect(throws: RulePackError.self) { try RulePackLoader.decodeModel(header + withoutTexts) }
        header[8] = 1
        var formatOne = plain
        formatOne.formatVersion = 1
        formatOne.producer = nil
        #expect(try RulePackLoader.decodeModel(header + withoutTexts) == formatOne)
    }

    @Test func aTextsTableBeforeTheRequiredTablesIsRefused() throws {
        let bytes = RulePackWriter.encode(try Self.pack())
        // Move the texts table to the front of the body.
        var reader = Array(bytes[PackFormat.headerSize...])
        let count = Int(reader[0]) | Int(reader[1]) << 8
        var offset = 4
        var tables: [[UInt8]] = []
        for _ in 0..<count {
            let length = Int(reader[offset + 2]) | Int(reader[offset + 3]) << 8 | Int(reader[offset + 4]) << 16 | Int(reader[offset + 5]) << 24
            tables.append(Array(reader[offset..<offset + 6 + length]))
            offset += 6 + length
        }
        let textsIndex = try #require(tables.firstIndex { $0.prefix(2) == [UInt8(PackFormat.TableKind.texts.rawValue), 0] })
        let texts = tables.remove(at: textsIndex)
        reader = Array(reader[0..<4]) + texts + tables.flatMap { $0 }
        var header = Array(bytes[0..<PackFormat.headerSize])
        let crc = CRC32.checksum(reader)
        for index in 0..<4 { header[36 + index] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(index))) }
        #expect(throws: RulePackError.self) { try RulePackLoader.decode(header + reader) }
    }
}

/// `content(of:locale:)` with a `Locale`: its identifier read as a language tag.
@Suite struct LocaleContentTests {
    @Test func aLocaleIsReadAsItsLanguageTag() throws {
        #expect(LocaleTag.tag(of: Locale(identifier: "de_CH")) == "de-CH")
        #expect(LocaleTag.tag(of: Locale(identifier: "zh_Hans_CN")) == "zh-Hans-CN")
        #expect(LocaleTag.tag(of: Locale(identifier: "en_US@calendar=gregorian")) == "en-US")
        let center = try makeCenter(TipContentTests.source)
        let values: [String: RuntimeValue] = ["shortcut": .string("⌘K")]
        #expect(try center.content(of: "quickSearch", locale: Locale(identifier: "de_CH"), values: values).title == "Schnäller sueche")
        #expect(try center.content(of: "quickSearch", locale: Locale(identifier: "de_AT"), values: values).title == "Schneller suchen")
        #expect(try center.content(of: "quickSearch", locale: Locale(identifier: "fr_FR"), values: values).title == "Search faster")
    }
}
