import AppIntents
import TipKit

struct MealTip: Tip {
    static let mealCount = Tips.Parameter(Self.self, "mealCount", 0)
    @Parameter(.transient) static var isPremium: Bool = false

    var title: Text { Text("Plan your week") }

    var rules: [Rule] {
        #Rule(Self.mealCount) { $0 >= 3 }
        #Rule(Self.$isPremium) { !$0 }
    }
}

struct LogMealIntent: AppIntent {
    static let title: LocalizedStringResource = "Log a meal"
    @Parameter(title: "Premium", default: true) var isPremium: Bool
    @Parameter(title: "Meal") var meal: String
}
