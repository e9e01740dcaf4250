#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TipcCompiler

/// The programs the fuzzers start from: the repository's example manifests (each folder one
/// program), and a program that uses every operator of the rule language.
public enum ExampleSources {
    /// The repository's `Examples` folder, found from this file's location.
    public static var examplesFolder: String {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("Examples").path
    }

    /// Each example program's sources (read from disk; empty if the folder is missing).
    public static func programs() -> [[SourceFile]] {
        SourceDiscovery.programs(for: [examplesFolder]).programs.map { paths in
            paths.compactMap { path in try? Frontend.read(path: path).get() }
        }.filter { !$0.isEmpty }
    }

    /// A program whose rules use every operator, type and collection operation.
    public static let everyOpcode = """
        tipkit 1
        displayFrequency 2h

        param signedIn: Bool = true
        param count: Int = 2
        param rating: Double = 4.5
        param plan: String = "pro" in ["free", "pro", "team"]
        param trialEnds: Date = date("2026-01-01T00:00:00Z")
        param cooldown: Duration = 1h
        param sheetOpen: Bool = false transient
        event searched
        event viewed { itemID: Int, category: String, price: Double, liked: Bool, at: Date, spent: Duration } limit 500 within 90d

        tip windows {
          title "Windows"
          maxDisplayCount 3
          maxDisplayDuration 2m
          action "learn-more" "Learn More"
          rule $signedIn and searched.count >= 3 within 3d
          rule viewed.largestSubset(itemID).count >= 3 within 5d
          rule viewed.smallestSubset(category).within(7d).count <= 10 or viewed.distinct(category) > 1
        }

        tip filters {
          title "Filters"
          rule viewed.where(category == "shoes" and (price > itemID or liked and at < now)).within(30d).count > 0
          rule viewed.where(spent >= 1m or category in ["hats", "shoes"] and not liked).count != 0
        }

        tip arithmetic {
          title "Arithmetic"
          ignoresDisplayFrequency true
          rule now + $cooldown < $trialEnds or $trialEnds - now > -1d
          rule ($count * 7) % 5 != -$count / 2 and $rating / 2.0 >= -(1.0 - $rating * 0.5)
          rule $rating % 2.0 < 3.0 + 1.0 and $plan in ["pro", "team"] or !$sheetOpen
          rule $count in [1, 2, 3] and $rating in [4.5, 5.0] and $signedIn != $sheetOpen
          rule $plan != "free" and searched.count == 0 || $count - 1 >= 0
        }

        tip plain {
          title "Plain"
        }

        group onboarding ordered { windows, filters, arithmetic }
        group extras firstAvailable { plain }
        """
}
