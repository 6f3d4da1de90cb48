// swift-tools-version: 6.0
//
// SwipeDict: compact, memory-mappable dictionaries for swipe keyboards.
//
// Products:
//   SwipeDict          the loader (mmap, validation, queries); no Foundation in its hot paths
//   SwipeDictCompiler  word lists + layout → blob; pack and install (uses the loader to verify)
//   SwipeDecoder       reference swipe decoder (swipe points → top-4 words), on the loader's
//                      public API only; synthetic swipes for tests and benchmarks
//   swipedict          the command-line tool
//
// Defines:
//   SWIPEDICT_INTERNAL_CHECKS  expensive invariant checks in the compiler (debug builds only).
import PackageDescription

let strictSwift: [SwiftSetting] = [
  .swiftLanguageMode(.v6),
  .define("SWIPEDICT_INTERNAL_CHECKS", .when(configuration: .debug)),
]

let package = Package(
  name: "SwipeDict",
  platforms: [.macOS(.v13), .iOS(.v16)],
  products: [
    .library(name: "SwipeDict", targets: ["SwipeDict"]),
    .library(name: "SwipeDictCompiler", targets: ["SwipeDictCompiler"]),
    .library(name: "SwipeDecoder", targets: ["SwipeDecoder"]),
    .executable(name: "swipedict", targets: ["swipedict"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
  ],
  targets: [
    .systemLibrary(
      name: "CZstd",
      pkgConfig: "libzstd",
      providers: [.apt(["libzstd-dev"]), .brew(["zstd"])]
    ),
    .target(name: "SwipeDictFormat", swiftSettings: strictSwift),
    .target(name: "SwipeDict", dependencies: ["SwipeDictFormat"], swiftSettings: strictSwift),
    .target(
      name: "SwipeDictCompiler",
      dependencies: ["SwipeDictFormat", "SwipeDict", "CZstd"],
      swiftSettings: strictSwift
    ),
    .target(name: "SwipeDecoder", dependencies: ["SwipeDict"], swiftSettings: strictSwift),
    .executableTarget(
      name: "swipedict",
      dependencies: [
        "SwipeDict", "SwipeDictCompiler", "SwipeDecoder",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: strictSwift
    ),
    .testTarget(
      name: "SwipeDictFormatTests", dependencies: ["SwipeDictFormat"], swiftSettings: strictSwift),
    .testTarget(
      name: "SwipeDictTests",
      dependencies: [
        "SwipeDict", "SwipeDictCompiler",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ],
      swiftSettings: strictSwift),
    .testTarget(
      name: "SwipeDictCompilerTests", dependencies: ["SwipeDictCompiler", "SwipeDict"],
      resources: [.copy("Fixtures")], swiftSettings: strictSwift),
    .testTarget(
      name: "SwipeDecoderTests", dependencies: ["SwipeDecoder", "SwipeDictCompiler"],
      swiftSettings: strictSwift),
    .testTarget(
      name: "swipedictTests", dependencies: ["swipedict"], swiftSettings: strictSwift),
  ]
)
