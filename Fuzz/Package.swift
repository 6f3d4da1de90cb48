// swift-tools-version: 6.0
//
// libFuzzer target for the SwipeDict loader and the C API: `make fuzz` (Linux). Its own
// package, so the main build never links libFuzzer; the sources are symlinked in
// (Sources/SwipeDict, Sources/SwipeDictFormat, the system-call layer Sources/SwipeDictSystem,
// and for the C API's entry points Sources/SwipeDecoder, Sources/SwipeDictC, Sources/CSwipeDict
// with the header through include/) so that they are built with the fuzzer's coverage
// instrumentation and AddressSanitizer too; swift-system, under the layer, is a dependency.
import PackageDescription

let fuzzing: [SwiftSetting] = [
  .swiftLanguageMode(.v6), .unsafeFlags(["-sanitize=fuzzer,address"]),
]

let package = Package(
  name: "SwipeDictFuzz",
  dependencies: [.package(url: "https://github.com/apple/swift-system", from: "1.8.1")],
  targets: [
    .target(name: "SwipeDictFormat", swiftSettings: fuzzing),
    .target(
      name: "SwipeDictSystem", dependencies: [.product(name: "SystemPackage", package: "swift-system")],
      swiftSettings: fuzzing),
    .target(name: "SwipeDict", dependencies: ["SwipeDictFormat", "SwipeDictSystem"], swiftSettings: fuzzing),
    .target(name: "SwipeDecoder", dependencies: ["SwipeDict"], swiftSettings: fuzzing),
    .systemLibrary(name: "CSwipeDict"),
    .target(
      name: "SwipeDictC", dependencies: ["CSwipeDict", "SwipeDict", "SwipeDecoder", "SwipeDictFormat"],
      swiftSettings: fuzzing),
    .executableTarget(
      name: "SwipeDictFuzz", dependencies: ["SwipeDict", "SwipeDictC", "CSwipeDict"],
      swiftSettings: fuzzing + [.unsafeFlags(["-parse-as-library"])],
      linkerSettings: [.unsafeFlags(["-sanitize=fuzzer,address"])]
    ),
  ]
)
