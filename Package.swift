// swift-tools-version: 6.0
//
// SwipeDict: compact, memory-mappable dictionaries for swipe keyboards.
//
// Products:
//   SwipeDict          the loader (mmap, validation, queries); no Foundation in its hot paths
//   SwipeDictCompiler  word lists + layout → blob (reads .zst inputs, so it needs libzstd)
//   SwipeDictShipping  pack and install: zstd-compressed blobs for download, verified with the
//                      loader before they replace anything (needs libzstd; the containing app
//                      links it, never the keyboard extension)
//   SwipeDecoder       reference swipe decoder (swipe points → top-4 words), on the loader's
//                      public API only
//   SwipeDictTools     what the CLI, benchmarks and tests share and a keyboard never runs:
//                      swipe synthesis, swipe JSON Lines files, word sampling, drawing,
//                      statistics, memory figures, the loopback HTTP client of the server's
//                      tests and load test
//   swipedict          the command-line tool
//   swipedict-bench    the benchmarks' timings, the user store's crash test, the server's load
//                      test (what `make bench*` and `make user-stress` run; not for users)
//   SwipeDictC         the C API (include/swipedict.h) as a dynamic library, for Android and C++
//                      keyboard engines and for Python; `make capi` builds it as
//                      build/lib/libswipedict.so (docs/c-api.md)
//
// SwipeDictServer (internal) is the playground's HTTP server behind `swipedict serve`; only the
// executable links it, never a library product. Its connection loop is its own (bounded request
// heads and bodies, deadlines) and so are its request and response types; from the FlyingFox
// package it takes only the FlyingSocks socket pool. (FlyingFox's HTTP module would link
// FoundationNetworking, and with it libcurl and its TLS stack, into every swipedict command:
// 6 ms more to start and 7.8 MB more resident memory.)
//
// Platforms: iOS 16, macOS 13, tvOS 16, watchOS 9, visionOS 1, the first with ContinuousClock
// and Duration (the decoder's deadlines). Linux checks no availability: `make check-apple`
// (scripts/check_apple_availability.py, run by `make test`) finds any Swift API above these
// floors in any target; docs/apple.md says what else differs on Apple systems.
//
// SwipeDict and SwipeDecoder, which a keyboard extension links, build with the iOS SDK alone:
// no libzstd, no Linux-only paths; Foundation only for SwipeDictionary(contentsOf: URL)
// (FoundationEssentials where it exists); swift-system's SystemPackage, which builds on every
// Apple platform (its declarations' availability is the SwiftPM default there, below these
// floors). Internal targets: SwipeDictFormat (the binary format), SwipeDictSystem (the one
// system-call layer, on swift-system: files and sockets for every module, EINTR retried in one
// place, the few Darwin branches), SwipeDictFiles (the one Swift wrapper of CZstd and of CZlib,
// atomic writes, plain reads, the one JSON reader; shared by the compiler, the tools and
// shipping), CZstd (libzstd), CZlib (zlib, gzip input).
//
// Defines:
//   SWIPEDICT_INTERNAL_CHECKS  expensive invariant checks in the compiler and a second bounds
//                              check of UnsafeByteView's unchecked reads (debug builds only).
import PackageDescription

let strictSwift: [SwiftSetting] = [
  .swiftLanguageMode(.v6),
  .define("SWIPEDICT_INTERNAL_CHECKS", .when(configuration: .debug)),
]

let package = Package(
  name: "SwipeDict",
  platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
  products: [
    .library(name: "SwipeDict", targets: ["SwipeDict"]),
    .library(name: "SwipeDictCompiler", targets: ["SwipeDictCompiler"]),
    .library(name: "SwipeDecoder", targets: ["SwipeDecoder"]),
    .library(name: "SwipeDictShipping", targets: ["SwipeDictShipping"]),
    .executable(name: "swipedict", targets: ["SwipeDictCLI"]),
    .executable(name: "swipedict-bench", targets: ["SwipeDictBench"]),
    .library(name: "SwipeDictC", type: .dynamic, targets: ["SwipeDictC"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    .package(url: "https://github.com/swhitty/FlyingFox.git", from: "0.27.1"),
    .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
  ],
  targets: [
    .systemLibrary(
      name: "CZstd",
      pkgConfig: "libzstd",
      providers: [.apt(["libzstd-dev"]), .brew(["zstd"])]
    ),
    .target(name: "SwipeDictFormat", swiftSettings: strictSwift),
    // The one system-call layer: files and sockets on swift-system's FileDescriptor and Errno
    // (EINTR retried in one place), and thin wrappers for what swift-system lacks (flock,
    // F_FULLFSYNC, fcntl's flags, mkstemp, sockets' send and options). Every module's system
    // calls go through it; mmap stays in the loader's MappedRegion.
    .target(
      name: "SwipeDictSystem", dependencies: [.product(name: "SystemPackage", package: "swift-system")],
      swiftSettings: strictSwift),
    .target(name: "SwipeDict", dependencies: ["SwipeDictFormat", "SwipeDictSystem"], swiftSettings: strictSwift),
    // zlib for gzip input (AOSP lists ship as .combined.gz); on every platform with a pkg-config
    // file named zlib.
    .systemLibrary(
      name: "CZlib",
      pkgConfig: "zlib",
      providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
    ),
    .target(
      name: "SwipeDictFiles", dependencies: ["SwipeDictFormat", "SwipeDictSystem", "CZstd", "CZlib"],
      swiftSettings: strictSwift),
    .target(
      name: "SwipeDictCompiler",
      dependencies: ["SwipeDictFormat", "SwipeDictFiles"],
      swiftSettings: strictSwift
    ),
    .target(
      name: "SwipeDictShipping", dependencies: ["SwipeDict", "SwipeDictFiles"],
      swiftSettings: strictSwift),
    .target(name: "SwipeDecoder", dependencies: ["SwipeDict"], swiftSettings: strictSwift),
    // The C API: include/swipedict.h as a module (its records and constants, one definition
    // for C and Swift), and the @_cdecl functions over the loader, the decoder's session and
    // the user store, on their Sendable parts (not the main-actor KeyboardEngine).
    .systemLibrary(name: "CSwipeDict", path: "Sources/CSwipeDict"),
    // In release builds on Linux the library carries the Swift runtime (-static-stdlib, which
    // SwiftPM's --static-swift-stdlib applies to executables only): it then needs only libc,
    // libm and libstdc++, in a Python wheel or beside a C program on a machine without Swift.
    // (Linked by lld, as `make capi` does; GNU ld resolves the static Foundation libraries in
    // the wrong order. Debug builds, for the tests, use the toolchain's shared runtime.)
    .target(
      name: "SwipeDictC", dependencies: ["CSwipeDict", "SwipeDict", "SwipeDecoder", "SwipeDictFormat"],
      swiftSettings: strictSwift,
      linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))]),
    // The Swift side of the C API's boundary benchmark (bench/capi/run.sh, make bench-capi):
    // the queries bench/capi/bench.c makes through the C API, through the Swift API.
    .executableTarget(
      name: "capi-bench-swift", dependencies: ["SwipeDict", "SwipeDecoder"], path: "bench/capi/swift",
      swiftSettings: strictSwift),
    .target(
      name: "SwipeDictTools",
      dependencies: ["SwipeDecoder", "SwipeDict", "SwipeDictFormat", "SwipeDictFiles", "SwipeDictSystem"],
      swiftSettings: strictSwift),
    // The playground's HTTP server (`swipedict serve`): the page is embedded in the binary.
    // FlyingSocks for the sockets; HTTP itself is the target's own.
    .target(
      name: "SwipeDictServer",
      dependencies: [
        "SwipeDict", "SwipeDecoder", "SwipeDictTools", "SwipeDictFiles", "SwipeDictFormat", "SwipeDictSystem",
        .product(name: "FlyingSocks", package: "FlyingFox"),
      ],
      resources: [.embedInCode("Page/playground.html")],
      swiftSettings: strictSwift),
    // What both command-line tools share: the blob argument, errors, sizes, option ranges.
    .target(
      name: "SwipeDictCommandLine",
      dependencies: [
        "SwipeDict", "SwipeDictTools", "SwipeDictFiles",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: strictSwift),
    // `swipedict-bench`: the benchmarks, load and stress tests behind `make bench*`; apart from
    // the command a user runs.
    .executableTarget(
      name: "SwipeDictBench",
      dependencies: [
        "SwipeDict", "SwipeDictCompiler", "SwipeDecoder", "SwipeDictTools", "SwipeDictFiles",
        "SwipeDictSystem", "SwipeDictCommandLine", .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: strictSwift
    ),
    // The `swipedict` command; the target has its own name so that no two paths differ only in
    // case (Sources/SwipeDict), which a case-insensitive disk (macOS's default) would merge.
    .executableTarget(
      name: "SwipeDictCLI",
      dependencies: [
        "SwipeDict", "SwipeDictCompiler", "SwipeDecoder", "SwipeDictTools", "SwipeDictShipping",
        "SwipeDictFiles", "SwipeDictSystem", "SwipeDictServer", "SwipeDictCommandLine",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: strictSwift
    ),
    // One support target for every test target: the layouts and dictionaries tests build
    // on, temporary directories, and the runner of the built `swipedict`.
    .target(
      name: "SwipeDictTestSupport",
      dependencies: ["SwipeDict", "SwipeDictCompiler", "SwipeDictTools", "SwipeDictFormat"],
      path: "Tests/SwipeDictTestSupport", swiftSettings: strictSwift),
    .testTarget(
      name: "SwipeDictFormatTests",
      dependencies: [
        "SwipeDictFormat", "SwipeDictTestSupport",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ],
      swiftSettings: strictSwift),
    .testTarget(
      name: "SwipeDictSystemTests", dependencies: ["SwipeDictSystem", "SwipeDictTestSupport"],
      swiftSettings: strictSwift),
    .testTarget(
      name: "SwipeDictFilesTests", dependencies: ["SwipeDictFiles", "SwipeDictTestSupport"],
      swiftSettings: strictSwift),
    .testTarget(
      name: "SwipeDictTests",
      dependencies: [
        "SwipeDict", "SwipeDictCompiler", "SwipeDictFiles", "SwipeDictTools", "SwipeDictTestSupport",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ],
      swiftSettings: strictSwift),
    .testTarget(
      name: "SwipeDictCompilerTests",
      dependencies: [
        "SwipeDictCompiler", "SwipeDict", "SwipeDictFiles", "SwipeDictTools", "SwipeDictTestSupport",
      ],
      resources: [.copy("Fixtures")], swiftSettings: strictSwift),
    .testTarget(
      name: "SwipeDictShippingTests",
      dependencies: [
        "SwipeDictShipping", "SwipeDict", "SwipeDictCompiler", "SwipeDictFiles",
        "SwipeDictTestSupport",
      ],
      swiftSettings: strictSwift),
    .testTarget(
      name: "SwipeDecoderTests",
      dependencies: [
        "SwipeDecoder", "SwipeDictTools", "SwipeDictCompiler", "SwipeDictTestSupport",
      ],
      swiftSettings: strictSwift),
    .testTarget(
      name: "SwipeDictToolsTests",
      dependencies: ["SwipeDictTools", "SwipeDecoder", "SwipeDictCompiler", "SwipeDictTestSupport"],
      swiftSettings: strictSwift),
    .testTarget(
      name: "SwipeDictServerTests",
      dependencies: [
        "SwipeDictServer", "SwipeDecoder", "SwipeDictTools", "SwipeDictCompiler", "SwipeDictTestSupport",
        "SwipeDictCLI",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ],
      swiftSettings: strictSwift),
    .testTarget(
      name: "SwipeDictCLITests",
      dependencies: ["SwipeDictCLI", "SwipeDictBench", "SwipeDictTestSupport", "SwipeDictTools"],
      swiftSettings: strictSwift),
  ]
)
