// swift-tools-version: 6.0
//
// libFuzzer target for the SwipeDict loader and the C API: `make fuzz` (Linux). Its own
// package, so the main build never links libFuzzer; the sources are symlinked in
// (Sources/SwipeDict, Sources/SwipeDictFormat, and for the C API's entry points
// Sources/SwipeDecoder, Sources/SwipeDictC, Sources/CSwipeDict with the header through
// include/) so that they are built with the fuzzer's coverage instrumentation and
// AddressSanitizer too.
import PackageDescription

let fuzzing: [SwiftSetting] = [
  .swiftLanguageMode(.v6), .unsafeFlags(["-sanitize=fuzzer,address"]),
]

let package = Package(
  name: "SwipeDictFuzz",
  targets: [
    .target(name: "SwipeDictFormat", swiftSettings: fuzzing),
    .target(name: "SwipeDict", dependencies: ["SwipeDictFormat"], swiftSettings: fuzzing),
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
