import SwiftUI
import TipKit

struct ResourceTip: Tip {
    var title: Text { Text(LocalizedStringResource("tip.resource.title", defaultValue: "Resources")) }
    var message: Text? { Text(String(localized: "tip.resource.message", defaultValue: "Read the guide")) }
}

struct LegacyTip: Tip {
    var title: Text { Text(NSLocalizedString("tip.legacy.title", value: "Legacy", comment: "The legacy tip")) }
    var message: Text? { Text(NSLocalizedString("Plain key", comment: "No default value")) }
}

struct KeyTip: Tip {
    var title: Text { Text(.init("tip.key.title")) }
    var message: Text? { Text("tip.key.message", tableName: "Tips", comment: "A key") }
}
