import SwiftUI
import TipKit

struct ArrayFormTip: Tip {
    var title: Text { Text("Actions and options as arrays") }

    var actions: [Action] {
        [
            Action(id: "learn-more", title: "Learn More"),
            Tips.Action(id: "dismiss") {
                Text("Not now")
            },
        ]
    }

    var options: [TipOption] {
        [Tips.MaxDisplayCount(3), Tips.IgnoresDisplayFrequency(true)]
    }
}

struct BuilderFormTip: Tip {
    var title: Text { Text("Actions and options from builders") }

    var actions: [Action] {
        Action(id: "open-settings", title: "Open Settings") {
            print("open")
        }
        Action(title: "Anonymous")
    }

    var options: [TipOption] {
        MaxDisplayCount(1)
        MaxDisplayDuration(120)
    }
}

struct QualifiedOptionTip: Tip {
    var title: Text { Text("Options spelled on Tip") }
    var options: [Option] {
        Tip.MaxDisplayCount(2)
        Tip.IgnoresDisplayFrequency(false)
        Tips.MaxDisplayDuration(90.5)
    }
}
