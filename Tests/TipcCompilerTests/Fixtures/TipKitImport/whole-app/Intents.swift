import AppIntents

struct OpenFavoriteIntent: AppIntent {
    static let title: LocalizedStringResource = "Open Favorite"

    @Parameter(title: "Favorite", default: "home")
    var isLoggedIn: String

    @Parameter(title: "Count", default: 3) var count: Int

    func perform() async throws -> some IntentResult {
        .result()
    }
}
