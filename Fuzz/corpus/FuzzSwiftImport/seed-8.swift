import SwiftUI
import TipKit

struct ShareTip: Tip {
    @Parameter static var isLoggedIn: Bool = false
    @Parameter(.transient) static var sheetOpen: Bool = false
    @Parameter static var shareCount: Int = 0
    @Parameter static var rating = 2.5
    @Parameter static var nickname: String = "friend"

    var title: Text { Text("Share your photos") }

    var rules: [Rule] {
        #Rule(Self.$isLoggedIn) { $0 == true }
        #Rule(Self.$sheetOpen) { $0 == false }
        #Rule(Self.$shareCount) { $0 < 10 }
        #Rule(Self.$rating) { $0 >= 1.5 }
        #Rule(Self.$nickname) { $0 != "" }
        #Rule(AppEvents.photoShared) { $0.donations.count >= 2 }
    }
}

struct AlbumTip: Tip {
    /// The same property name as ShareTip's: both get qualified.
    @Parameter static var isLoggedIn: Bool = false

    var title: Text { Text("Make an album") }

    var rules: [Rule] {
        #Rule(ShareTip.$shareCount) { $0 > 3 }
        #Rule(Self.$isLoggedIn) { $0 }
        #Rule(ShareTip.$isLoggedIn) { $0 }
        #Rule(AppEvents.appOpened) { $0.donations.count > 2 }
        #Rule(AppEvents.photoShared) { $0.donations.count >= 1 }
        #Rule(AppEvents.searched) { $0.donations.count >= 1 }
    }
}
