import TipRuntime

/// The service's counters, as Prometheus text: requests by route and status, a latency
/// histogram by route, store errors by kind.
public final class ServiceMetrics: Sendable {
    /// Latency buckets' upper bounds, in seconds.
    static let buckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]

    struct Histogram {
        var counts = [Int](repeating: 0, count: ServiceMetrics.buckets.count)
        var total = 0
        var sum = 0.0
    }

    struct Counters {
        var requests: [String: Int] = [:]
        var latency: [String: Histogram] = [:]
        var storeErrors: [String: Int] = [:]
    }

    private let counters = RuntimeLock(Counters())

    public init() {}

    /// Counts one answered request of `route` (a route pattern, not the path: user ids stay out).
    func record(route: String, status: Int, seconds: Double) {
        counters.withLock { counters in
            counters.requests["\(route)\u{0}\(status)", default: 0] += 1
            var histogram = counters.latency[route] ?? Histogram()
            for (index, bound) in Self.buckets.enumerated() where seconds <= bound { histogram.counts[index] += 1 }
            histogram.total += 1
            histogram.sum += seconds
            counters.latency[route] = histogram
        }
    }

    func recordStoreError(_ kind: String) {
        counters.withLock { $0.storeErrors[kind, default: 0] += 1 }
    }

    /// The Prometheus text exposition (version 0.0.4).
    public func render() -> String {
        let counters = self.counters.withLock { $0 }
        var text = "# HELP tipc_http_requests_total Requests answered, by route and status.\n# TYPE tipc_http_requests_total counter\n"
        for key in counters.requests.keys.sorted() {
            let parts = key.split(separator: "\u{0}", omittingEmptySubsequences: false)
            text += "tipc_http_requests_total{route=\"\(parts[0])\",status=\"\(parts[1])\"} \(counters.requests[key] ?? 0)\n"
        }
        text += "# HELP tipc_http_request_duration_seconds Time to answer a request, by route.\n# TYPE tipc_http_request_duration_seconds histogram\n"
        for route in counters.latency.keys.sorted() {
            let histogram = counters.latency[route] ?? Histogram()
            for (index, bound) in Self.buckets.enumerated() {
                text += "tipc_http_request_duration_seconds_bucket{route=\"\(route)\",le=\"\(bound)\"} \(histogram.counts[index])\n"
            }
            text += "tipc_http_request_duration_seconds_bucket{route=\"\(route)\",le=\"+Inf\"} \(histogram.total)\n"
            text += "tipc_http_request_duration_seconds_sum{route=\"\(route)\"} \(histogram.sum)\n"
            text += "tipc_http_request_duration_seconds_count{route=\"\(route)\"} \(histogram.total)\n"
        }
        text += "# HELP tipc_store_errors_total Store failures, by kind.\n# TYPE tipc_store_errors_total counter\n"
        for kind in counters.storeErrors.keys.sorted() {
            text += "tipc_store_errors_total{kind=\"\(kind)\"} \(counters.storeErrors[kind] ?? 0)\n"
        }
        return text
    }
}
