#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a diagnostic's code links by default: the codes reference (`tipc codes --format
/// markdown`, one `## code` heading per code) written by this very executable into the user's
/// cache folder, so that the link resolves on any machine, with no configuration, and always
/// explains the codes of the version that reported them.
enum CodeReference {
    /// `$XDG_CACHE_HOME/tipc`, else `$HOME/.cache/tipc`; nil when neither is set.
    static func cacheFolder(environment: [String: String]) -> String? {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return cache + "/tipc" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.cache/tipc" }
        return nil
    }

    /// The base of the default links (`file:///…/codes-VERSION.md#`, the code appended), the
    /// reference written there first unless it is already there with the same text; nil when
    /// it cannot be written (then diagnostics carry no link, and hovering one explains it).
    static func defaultBase(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        guard let folder = cacheFolder(environment: environment) else { return nil }
        let path = folder + "/codes-\(TipcCommandLine.version).md"
        let text = Array(CodesCommand.markdown().utf8)
        if FileManager.default.contents(atPath: path).map({ [UInt8]($0) }) != text {
            // Written beside and renamed into place: a second server starting at the same time
            // never reads half a file.
            let temporary = path + ".\(getpid()).tmp"
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                try Data(text).write(to: URL(fileURLWithPath: temporary))
                guard rename(temporary, path) == 0 else {
                    try? FileManager.default.removeItem(atPath: temporary)
                    return nil
                }
            } catch {
                try? FileManager.default.removeItem(atPath: temporary)
                return nil
            }
        }
        return DocumentURI.uri(path) + "#"
    }
}
