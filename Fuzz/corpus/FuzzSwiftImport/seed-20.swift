import TipKit

struct Item: Codable, Sendable {
    var section: String
    var price: Double
}

struct CartTip: Tip {
    static let added: Tips.Event<Item> = Tips.Event(id: "item.added")
    static let removed = Tips.Event(id: "item.removed")
    static let viewed = Tips.Event(id: "item.viewed")
    @Parameter static var score: Double = 1.5

    var title: Text { Text("Check out") }

    var rules: [Rule] {
        #Rule(Self.added) { $0.donations.filter { $0.section == "books" }.count >= 2 }
        #Rule(Self.removed) { $0.donations.isEmpty }
        #Rule(Self.viewed) { !$0.donations.isEmpty && $0.donations.count > .zero }
        #Rule(Self.$score) { $0 > .zero }
    }
}
