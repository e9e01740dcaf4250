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
        a.string.utf8.elementsEqual(b.string.utf8)
    }

    func hash(into hasher: inout Hasher) {
        let hashed: Void? = string.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        if hashed == nil {
            for byte in string.utf8 { hasher.combine(byte) }
        }
    }
}
