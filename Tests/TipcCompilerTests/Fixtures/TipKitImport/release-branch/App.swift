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

struct VariantTip: Tip {
    #if DEBUG
    var title: Text { Text("Debug title") }
    #else
    var title: Text { Text("Release title") }
    #endif

    #if targetEnvironment(simulator)
    var message: Text? { Text("Simulator") }
    #elseif os(iOS)
    var message: Text? { Text("iPhone and iPad") }
    #endif
}

#if DEBUG
let debugGroup = TipGroup { WelcomeTip() }
#else
let releaseGroup = TipGroup(.ordered) { VariantTip(); WelcomeTip() }
#endif
