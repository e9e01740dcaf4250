import SwiftUI
import TipKit

struct FavoriteTip: Tip {
    var title: Text {
        Text("Save as a Favorite")
    }

    var message: Text? {
        Text("Your favorite backyards always appear at the top of the list.", bundle: .module, comment: "Tip message")
    }

    var image: Image? {
        Image(systemName: "star")
    }
}

struct StoredTip: Tip {
    let title = Text(verbatim: "Stored title")
    let message: Text? = Text("Stored message", comment: "A stored property")
    let image: Image? = Image("BirdFeeder")
}

struct ResourceImageTip: Tip {
    var title: Text { return Text(#"Raw "quoted" \ title"#) }
    var message: Text? {
        Text("""
            A message on
            two lines.
            """)
    }
    var image: Image? { Image(.birdBath) }
}

struct NoMessageTip: Tip {
    var title: Text { Text("Just a title") }
    var message: Text? { nil }
    var image: Image? { nil }
}
