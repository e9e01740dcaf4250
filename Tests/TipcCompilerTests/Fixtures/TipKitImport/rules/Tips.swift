import Foundation
import TipKit

struct Visit: Codable, Sendable {
    let trailID: Int
    let region: String
}

struct TrailTip: Tip {
    @Parameter static var isPro: Bool = false
    @Parameter static var level: Int = 0
    static let trailViewed = Tips.Event<Visit>(id: "trailViewed")
    static let appOpened = Tips.Event(id: "appOpened")

    var title: Text { Text("Trails near you") }

    var rules: [Rule] {
        #Rule(Self.$isPro) { $0 }
        #Rule(Self.$isPro) { !$0 }
        #Rule(Self.$level) { $0 >= 2 && $0 <= 5 || $0 == 9 }
        #Rule(Self.trailViewed) { $0.donations.donatedWithin(.minute).count >= 1 }
        #Rule(Self.trailViewed) { $0.donations.donatedWithin(.hour).count >= 1 }
        #Rule(Self.trailViewed) { $0.donations.donatedWithin(.day).count >= 1 }
        #Rule(Self.trailViewed) { $0.donations.donatedWithin(.week).count >= 1 }
        #Rule(Self.trailViewed) { $0.donations.donatedWithin(.days(3)).count >= 1 }
        #Rule(Self.trailViewed) { $0.donations.donatedWithin(.weeks(2)).count >= 1 }
    }
}

struct FilterTip: Tip {
    var title: Text { Text("Filters") }

    var rules: [Rule] {
        [
            #Rule(TrailTip.trailViewed) {
                $0.donations.filter { $0.date > Date.now.addingTimeInterval(-60 * 60 * 24) }.count >= 3
            },
            #Rule(TrailTip.trailViewed) { event in
                event.donations
                    .filter { $0.region == "alps" }
                    .filter { visit in visit.trailID != 0 }
                    .count > 2
            },
            #Rule(TrailTip.trailViewed) {
                $0.donations.largestSubset(by: \.trailID).count >= 3
            },
            #Rule(TrailTip.trailViewed) {
                $0.donations.donatedWithin(.week).smallestSubset(groupedBy: \.region).count < 4
            },
            #Rule(TrailTip.appOpened) { $0.donations.count > 2 }
        ]
    }
}
