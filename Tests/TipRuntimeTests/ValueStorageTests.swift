import Testing
import TipRuntime
import TipcTestSupport

/// The stored text forms of values and payloads (`storageText`, `PayloadStorage`): exact
/// round trips, and the byte-wise readers against the scalar-by-scalar ones they replaced.
@Suite("Value storage")
struct ValueStorageTests {
    /// The alphabet of the generated texts: the separators, the escape, tags, digits, a
    /// two-byte letter and a combining mark.
    static let alphabet: [String] = ["a", "é", "=", ";", "\\", ":", "i", "s", "b", "1", "-", "\u{301}", "true"]

    static func randomText(_ generator: inout SeededGenerator) -> String {
        (0..<Int.random(in: 0...12, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }.joined()
    }

    @Test func storageTextRoundTripsEveryValue() {
        let values: [RuntimeValue] = [
            .bool(true), .bool(false), .int(0), .int(.min), .int(.max), .double(2.5), .double(-0.0), .double(.greatestFiniteMagnitude),
            .string(""), .string("\u{301}leading combining mark"), .string("a=b;c\\d\u{0}"), .string("é:ü"),
            .date(milliseconds: -1), .duration(milliseconds: 86_400_000),
        ]
        for value in values {
            #expect(RuntimeValue(storageText: value.storageText) == value, "\(value)")
        }
        for text in ["", "i", "i:", "x:1", "é:1", "b\u{301}:true", "i:1.5", "b:yes", ":s"] {
            #expect(RuntimeValue(storageText: text) == nil, "'\(text)'")
        }
    }

    @Test func payloadsRoundTrip() {
        var generator = SeededGenerator(seed: 17)
        for _ in 0..<2_000 {
            var payload: [String: RuntimeValue] = [:]
            for _ in 0..<Int.random(in: 0...3, using: &generator) {
                let value: RuntimeValue = Bool.random(using: &generator)
                    ? .string(Self.randomText(&generator)) : .int(Int64.random(in: -1_000...1_000, using: &generator))
                payload[Self.randomText(&generator)] = value
            }
            #expect(PayloadStorage.decode(PayloadStorage.encode(payload)) == payload, "\(payload)")
        }
    }

    /// Any text, well-formed or not, reads as the reference reader (the scalar-by-scalar one
    /// that the byte-wise path replaced) reads it.
    @Test func payloadTextsReadAsTheReferenceReadsThem() {
        var generator = SeededGenerator(seed: 18)
        var texts = ["", "a=i:1", "a=i:1;", ";a=i:1", "=i:1", "a=b=i:1", "a=i:1;b=s:x=y", "a=s:", "a\\=b=s:c\\;d", "a=s:\\", "é=s:\u{301}"]
        for _ in 0..<20_000 { texts.append(Self.randomText(&generator)) }
        // Well-formed fields too, so that both outcomes are common.
        for _ in 0..<2_000 {
            texts.append((0..<Int.random(in: 1...3, using: &generator)).map { _ in
                ["a", "b", "é"].randomElement(using: &generator)! + "=" + ["i:1", "s:x", "b:true", "s:", "i:x"].randomElement(using: &generator)!
            }.joined(separator: ";"))
        }
        var decoded = 0
        for text in texts {
            let expected = Self.referenceDecode(text)
            #expect(PayloadStorage.decode(text) == expected, "'\(text)'")
            if expected != nil { decoded += 1 }
        }
        #expect(decoded > 1_000, "too few well-formed texts to compare: \(decoded)")
    }

    /// `PayloadStorage.decode` as it was before its byte-wise path.
    static func referenceDecode(_ text: String) -> [String: RuntimeValue]? {
        if text.isEmpty { return [:] }
        var result: [String: RuntimeValue] = [:]
        var parts: [String] = [""]
        var escaping = false
        for scalar in text.unicodeScalars {
            if escaping {
                parts[parts.count - 1].unicodeScalars.append(scalar)
                escaping = false
            } else if scalar == "\\" {
                escaping = true
            } else if scalar == "=" || scalar == ";" {
                parts.append(String(scalar))
                parts.append("")
            } else {
                parts[parts.count - 1].unicodeScalars.append(scalar)
            }
        }
        var index = 0
        while index < parts.count {
            guard index + 2 < parts.count, parts[index + 1] == "=", let value = referenceValue(parts[index + 2]) else { return nil }
            result[parts[index]] = value
            index += 3
            if index < parts.count {
                guard parts[index] == ";" else { return nil }
                index += 1
            }
        }
        return result
    }

    /// `RuntimeValue(storageText:)` as it was, scalar by scalar.
    static func referenceValue(_ text: String) -> RuntimeValue? {
        let scalars = text.unicodeScalars
        guard scalars.count >= 2, scalars.dropFirst().first == ":", let tag = scalars.first else { return nil }
        let body = String(String.UnicodeScalarView(scalars.dropFirst(2)))
        switch Character(tag) {
        case "b": return Bool(body).map { .bool($0) }
        case "i": return Int64(body).map { .int($0) }
        case "d": return Double(body).map { .double($0) }
        case "s": return .string(body)
        case "t": return Int64(body).map { .date(milliseconds: $0) }
        case "u": return Int64(body).map { .duration(milliseconds: $0) }
        default: return nil
        }
    }
}
