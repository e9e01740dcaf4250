/// Generates large, valid manifests for the front-end benchmark: parameters of every type,
/// events with payloads, and tips with one to four rules that use them. With `tipKit`, only
/// what `generate tipkit --minimum-os ios26` can write: String parameters without `values`
/// (compared with `==` instead of `in`), donation limits without a maximum age.
struct ManifestGenerator {
    var parameters = 200
    var events = 200
    var tips = 10_000
    var tipKit = false
    private var state: UInt64 = 0x9E37_79B9_7F4A_7C15

    init(parameters: Int = 200, events: Int = 200, tips: Int = 10_000, tipKit: Bool = false) {
        self.parameters = parameters
        self.events = events
        self.tips = tips
        self.tipKit = tipKit
    }

    private mutating func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }

    mutating func yaml() -> String {
        var out = "tipkit: 1\ndisplayFrequency: daily\n\nparameters:\n"
        for p in 0..<parameters {
            switch p % 4 {
            case 0: out += "  flag\(p): { type: bool, default: false }\n"
            case 1: out += "  count\(p): { type: int, default: 0 }\n"
            case 2: out += "  score\(p): { type: double, default: 0.5 }\n"
            default:
                out += tipKit ? "  plan\(p): { type: string, default: free }\n"
                    : "  plan\(p): { type: string, default: free, values: [free, pro, team] }\n"
            }
        }
        out += "\nevents:\n"
        for e in 0..<events {
            if e % 2 == 0 {
                out += "  event\(e): {}\n"
            } else {
                out += "  event\(e):\n    donationLimit: { maximumCount: 5000\(tipKit ? "" : ", maximumAge: 90d") }\n"
                out += "    value: { itemID: int, category: string }\n"
            }
        }
        out += "\ntips:\n"
        for t in 0..<tips {
            out += "  tip\(t):\n    title: Tip number \(t)\n    message: \"Try feature \(t): it saves time when you need it most.\"\n"
            out += "    image: star\n    maxDisplayCount: \(1 + next(5))\n    rules:\n"
            for _ in 0..<(1 + next(4)) {
                out += "      - \(rule())\n"
            }
        }
        return out
    }

    private mutating func rule() -> String {
        let p = next(parameters)
        let e = next(events)
        switch next(5) {
        case 0:
            switch p % 4 {
            case 0: return "$flag\(p)"
            case 1: return "$count\(p) >= \(next(10))"
            case 2: return "$score\(p) > 0.\(next(10))"
            default: return tipKit ? "$plan\(p) == \"pro\"" : "$plan\(p) in [\"pro\", \"team\"]"
            }
        case 1: return "event\(e).count >= \(1 + next(5)) within \(1 + next(7))d"
        case 2 where e % 2 == 1: return "event\(e).where(category == \"shoes\" and itemID != 0).count >= 2"
        case 3 where e % 2 == 1: return "event\(e).largestSubset(itemID).count >= 3 within 5d"
        default: return "event\(e).count > \(next(3)) and not $flag\(p - p % 4)"
        }
    }
}
