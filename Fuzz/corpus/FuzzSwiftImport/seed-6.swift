import Foundation

/// Nothing here is TipKit: the import is an empty manifest and says nothing.
struct Event: Codable {
    var id: String
    var title: String { "not a tip" }
    static let rule = #"\d+"#
}

func configure(_ tips: [String]) -> Int {
    let group = tips.filter { $0.count > 2 }
    return group.count
}
