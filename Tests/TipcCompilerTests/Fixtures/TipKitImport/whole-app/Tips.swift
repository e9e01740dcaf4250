import TipKit

struct FavoriteTip: Tip {
    @Parameter static var isLoggedIn: Bool = false
    static let opened = Tips.Event(id: "opened")

    var title: Text { Text("Save a favorite") }

    var rules: [Rule] {
        #Rule(Self.$isLoggedIn) { $0 == true }
        #Rule(Self.opened) { $0.donations.count >= 3 }
    }
}
