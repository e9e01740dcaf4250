import SwiftUI
import TipKit

enum TaggingTips {}

extension TaggingTips {
    @available(iOS 17.0, *)
    public struct Date: Tip {
        public var title: Text { Text("Tag by date") }
    }

    nonisolated struct Place: Tip, Sendable {
        var title: Text { Text("Tag by place") }
    }
}

struct LibraryView: View {
    struct SortTip: Tip {
        var title: Text { Text("Sort your library") }
    }

    var body: some View {
        List {}
            .popoverTip(SortTip())
    }
}

struct LaterTip {
    var id: String { "conformedLater" }
}

extension LaterTip: TipKit.Tip {
    var title: Text { Text("Conformance in an extension") }
}
