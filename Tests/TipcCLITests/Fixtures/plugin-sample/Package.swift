// swift-tools-version: 6.0
// An app that builds its tips with tipc's build plugin (docs/build-plugin.md). The plugin-sample
// test builds and runs a copy of it, with the dependency's path set to this checkout.
import PackageDescription

let package = Package(
    name: "PluginSample",
    platforms: [.iOS(.v15), .macOS(.v12)],
    dependencies: [.package(name: "tipc", path: "../../../..")],
    targets: [
        .executableTarget(
            name: "SampleApp",
            dependencies: [.product(name: "TipRuntime", package: "tipc")],
            plugins: [.plugin(name: "TipcPlugin", package: "tipc")]),
    ],
    swiftLanguageModes: [.v6]
)
