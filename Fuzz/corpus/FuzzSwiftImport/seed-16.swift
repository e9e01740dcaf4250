import SwiftUI
import TipKit

struct AlphaTip: Tip {
    static let shared = AlphaTip()
    var title: Text { Text("Alpha") }
}

struct BetaTip: Tip {
    var title: Text { Text("Beta") }
}

struct GammaTip: Tip {
    var title: Text { Text("Gamma") }
}

enum WalkthroughTip: String, Tip {
    case first, second
    var id: String { rawValue }
    var title: Text { Text("Walkthrough") }
}

enum AppTips {
    static let beta = BetaTip()
}

struct ContentView: View {
    let gamma = GammaTip()
    let beta: BetaTip = BetaTip()

    @State private var defaults = TipGroup {
        AlphaTip()
        BetaTip()
    }
    @State private var fromArray = TipGroup(.ordered, [AlphaTip(), BetaTip(), GammaTip()])
    @State private var fromProperties = TipGroup(.ordered) {
        AlphaTip.shared
        AppTips.beta
    }
    @State private var enumCases = TipGroup(.ordered) {
        WalkthroughTip.first
        WalkthroughTip.second
    }
    @State private var nothing = TipGroup { makeTip() }

    var body: some View {
        let stored = TipGroup(.firstAvailable) {
            gamma
            self.beta
        }
        TipView(stored.currentTip)
    }
}
