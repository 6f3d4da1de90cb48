// swift-tools-version: 6.0
//
// libFuzzer target for the SwipeDict loader: `make fuzz` (Linux). Its own package, so the
// main build never links libFuzzer; the loader's sources are symlinked in (Sources/SwipeDict,
// Sources/SwipeDictFormat) so that they are built with the fuzzer's coverage
// instrumentation and AddressSanitizer too.
import PackageDescription

let fuzzing: [SwiftSetting] = [
  .swiftLanguageMode(.v6), .unsafeFlags(["-sanitize=fuzzer,address"]),
]

let package = Package(
  name: "SwipeDictFuzz",
  targets: [
    .target(name: "SwipeDictFormat", swiftSettings: fuzzing),
    .target(name: "SwipeDict", dependencies: ["SwipeDictFormat"], swiftSettings: fuzzing),
    .executableTarget(
      name: "SwipeDictFuzz", dependencies: ["SwipeDict"],
      swiftSettings: fuzzing + [.unsafeFlags(["-parse-as-library"])],
      linkerSettings: [.unsafeFlags(["-sanitize=fuzzer,address"])]
    ),
  ]
)
