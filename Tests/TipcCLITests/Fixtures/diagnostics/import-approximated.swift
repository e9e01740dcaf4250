import SwiftUI
import TipKit

// What the manifest cannot hold is a warning where it is written; the checker's own findings
// (here an unknown event) point into the Swift closure too.
struct GreetingTip: Tip {
    var name = "friend"

    var title: Text { Text("Hello, \(name)!") }

    var actions: [Action] {
        Action(title: "Say hi")
    }

    var rules: [Rule] {
        #Rule(Self.opened) {
            $0.donations.count >= 2
        }
        #Rule(Self.opened) { $0.donations.last != nil }
    }
}
