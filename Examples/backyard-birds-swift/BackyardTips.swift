// The backyard-birds tips as an app writes them with TipKit. `tipc import` turns this folder
// into the same program as Examples/backyard-birds/backyard-birds.yaml.
import SwiftUI
import TipKit

/// What the app donates when someone opens a backyard's detail view.
struct BackyardVisit: Codable, Sendable {
    let backyardID: Int
}

@available(iOS 17.0, macOS 14.0, *)
public struct FavoriteBackyardTip: Tip {
    @Parameter
    static var isSignedIn: Bool = false

    static let backyardDetailOpened = Tips.Event<BackyardVisit>(id: "backyardDetailOpened")

    public var id: String { "favoriteBackyard" }

    public var title: Text {
        Text("Favorite This Backyard", comment: "Tip title")
    }

    public var message: Text? {
        Text("Add it to your favorites to see its visitors first.")
    }

    public var image: Image? {
        Image(systemName: "heart")
    }

    public var actions: [Action] {
        Action(id: "learn-more", title: "Learn More")
    }

    public var options: [TipOption] {
        Tips.MaxDisplayCount(5)
    }

    public var rules: [Rule] {
        #Rule(Self.$isSignedIn) { $0 == true }
        #Rule(Self.backyardDetailOpened) { event in
            event.donations
                .donatedWithin(.days(5))
                .largestSubset(by: \.backyardID)
                .count >= 3
        }
    }
}
