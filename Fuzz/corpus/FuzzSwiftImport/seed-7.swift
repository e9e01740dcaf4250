import Foundation
import TipKit

/// Events shared by several tips.
enum AppEvents {
    static let appOpened = Tips.Event(id: "appOpened")
    static let photoShared = Tips.Event<SharedPhoto>(id: "photoShared")
    static let searched = Event(id: "searchPerformed", donationLimit: .init(maximumCount: 50))
}

struct SharedPhoto: Codable, Sendable {
    let albumID: Int
    var destination: String
    let isFavorite: Bool
    let rating: Double
    let takenAt: Date
    var thumbnail: Data
    var computed: Int { albumID * 2 }
    static let unrelated = 0
}
