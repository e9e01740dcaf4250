import SwiftUI
import TipKit

struct StoredTitleTip: Tip {
    var title: Text
    var message: Text?

    init() {
        self.title = Text("Set in init")
        message = Text("Also set in init")
    }
}

struct UntitledTip: Tip {
    var message: Text? { Text("No title here") }
}

struct BadgeTip: Tip {
    @Parameter static var badge: Int = "zero"
    var title: Text { Text("Badge") }
    var rules: [Rule] {
        #Rule(Self.$badge) { $0 > 0 }
    }
}
