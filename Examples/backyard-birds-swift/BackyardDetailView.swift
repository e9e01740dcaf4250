import SwiftUI
import TipKit

struct BackyardDetailView: View {
    let backyardID: Int
    private let tip = FavoriteBackyardTip()

    var body: some View {
        VStack {
            TipView(tip)
            Text("Backyard \(backyardID)")
        }
        .task {
            await FavoriteBackyardTip.backyardDetailOpened.donate(BackyardVisit(backyardID: backyardID))
        }
    }
}
