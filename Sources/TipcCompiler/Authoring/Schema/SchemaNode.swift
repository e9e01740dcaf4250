import TipcJSON

extension ManifestSchema {
    /// A JSON value whose objects keep their keys in the order written, so the schema prints
    /// the same bytes every time and reads in a sensible order (description first, then type,
    /// then details).
    typealias Node = JSON
}
