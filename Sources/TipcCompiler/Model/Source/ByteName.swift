#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A name compared as YAML compares keys: by its UTF-8 bytes. `String`'s `==` would take two
/// spellings of one accented letter (composed, or a letter and a combining mark) for one name.
/// Only names outside the rule language's ASCII names can differ so, and those are errors
/// already. The key of the dictionaries of declared names and of streamed entries' keys.
struct ByteName: Hashable, Sendable {
    let string: String

    init(_ string: String) {
        self.string = string
    }

    static func == (a: ByteName, b: ByteName) -> Bool {
        // Read as buffers: iterating `utf8` costs several times more per byte. Read in place
        // (a native or small string, always here), not through a copy: a copy retains.
        let equal = a.string.utf8.withContiguousStorageIfAvailable { first in
            b.string.utf8.withContiguousStorageIfAvailable { second in
                first.count == second.count && (first.isEmpty || memcmp(first.baseAddress!, second.baseAddress!, first.count) == 0)
            }
        }
        if let equal, let equal { return equal }
        var (first, second) = (a.string, b.string)
        return first.withUTF8 { first in
            second.withUTF8 { second in
                first.count == second.count && (first.isEmpty || memcmp(first.baseAddress!, second.baseAddress!, first.count) == 0)
            }
        }
    }

    func hash(into hasher: inout Hasher) {
        // The same bytes either way, so equal names hash equally.
        let hashed: Void? = string.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        if hashed == nil {
            var string = string
            string.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }
    }
}
