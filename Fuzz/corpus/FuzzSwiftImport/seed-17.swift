import SwiftUI
import TipKit

struct WelcomeTip: Tip {
    var title: Text { Text("Welcome") }
}

@main
struct DemoApp: App {
    init() {
        #if DEBUG
        try? Tips.resetDatastore()
        try? Tips.configure([.displayFrequency(.immediate)])
        #else
        try? Tips.configure([.displayFrequency(.weekly)])
        #endif
    }

    var body: some Scene {
        WindowGroup { Text("Hello") }
    }
}
