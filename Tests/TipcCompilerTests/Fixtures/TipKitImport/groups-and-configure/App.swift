import SwiftUI
import TipKit

struct WelcomeTip: Tip {
    var title: Text { Text("Welcome") }
}

struct SwipeTip: Tip {
    var title: Text { Text("Swipe to archive") }
}

struct PersonalizeTip: Tip {
    var title: Text { Text("Make it yours") }
}

@main
struct NewsApp: App {
    init() {
        try? Tips.configure([
            .displayFrequency(.daily),
            .datastoreLocation(.applicationDefault),
        ])
    }

    var body: some Scene {
        WindowGroup { ContentView() }
    }
}

struct ContentView: View {
    @State private var onboarding = TipGroup(.ordered) {
        WelcomeTip()
        SwipeTip()
        PersonalizeTip()
    }

    var body: some View {
        VStack {
            TipView(onboarding.currentTip)
            let other = TipGroup(.firstAvailable) { SwipeTip(); PersonalizeTip() }
            TipView(other.currentTip)
        }
    }
}
