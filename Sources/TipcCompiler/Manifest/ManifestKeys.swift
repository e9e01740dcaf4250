/// The keys of each kind of mapping in a manifest (SPEC §2), for `unknown-key` and its
/// did-you-mean.
enum ManifestKeys {
    static let fileKeys = ["tipkit", "displayFrequency", "parameters", "events", "tips", "groups"]
    static let parameterKeys = ["type", "default", "values", "transient"]
    static let eventKeys = ["donationLimit", "value"]
    static let donationLimitKeys = ["maximumCount", "maximumAge"]
    static let tipKeys = ["title", "message", "image", "actions", "maxDisplayCount", "maxDisplayDuration",
                          "ignoresDisplayFrequency", "rules"]
    static let imageKeys = ["asset"]
    static let actionKeys = ["id", "title"]
    static let groupKeys = ["priority", "tips"]
}
