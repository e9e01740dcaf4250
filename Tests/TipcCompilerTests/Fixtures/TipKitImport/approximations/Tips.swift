import SwiftUI
import TipKit

enum Plan: String, Codable { case free, pro }

struct GreetingTip: Tip {
    var name = "friend"
    @Parameter static var plan: Plan = .free
    @Parameter static var installedAt: Date = .now
    static let opened = Tips.Event(id: "opened")

    var id: String { "greeting-\(name)" }

    var title: Text { Text("Hello, \(name)!") }

    #if os(iOS)
    var message: Text? { Text("Tap to continue") }
    #else
    var message: Text? { Text("Click to continue") }
    #endif

    var image: Image? { Image(systemName: "hand.wave").symbolRenderingMode(.multicolor) }

    var rules: [Rule] {
        #Rule(Self.$plan) { $0 == .pro }
        #Rule(Self.opened) { $0.donations.last?.date ?? .distantPast > .now }
        #Rule(Self.opened) { $0.donations.count >= 2 }
    }
}
