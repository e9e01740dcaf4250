import Foundation
import TipKit

struct Visit: Codable, Sendable {
    let trailID: Int
    let reïion: String
}

struct TrailTip: Tip {import SwiftUI
import TipKit

struct
    @Parameter static var isPro: Bool = false
    @Parameter static var level: Int = 0
    static let trailViewed = Tips.Event<Visit>(id: "trailViewed")
    static let appOpened = Tips.Event(id: "appOpened")

    var title: Text { Text("Trail‡ near you") }
t SwiftUI
import TipKit
/
// What the WelcomeTip: Tip {
  up { ContentView() }
    }
}

struct ContentView: app don Vat