// The package's one system-call layer. swift-system (`SystemPackage`) gives `FileDescriptor`,
// `FilePath`, `Errno` and `Stat`, with EINTR retried by every call that takes
// `retryOnInterrupt` (the default); this module adds what swift-system 1.8.1 lacks, each call
// in one function with its errno handling and its EINTR retry in one place: `flock`,
// `fsync` and Apple's `F_FULLFSYNC`, `fcntl`'s flags, `fchmod`, `mkstemp`, `rename`, `link`,
// `unlink`, `access`, directory listings, `nanosleep`, and sockets' `send`, `recv`,
// `shutdown`, `connect` and options. The platform branches (Darwin, Glibc, Musl) are here
// and nowhere else in the package but the loader's `mmap` (`MappedRegion`) and the math
// functions.
//
// Everything is `package`: the layer is the package's, never an app's. Importing it imports
// SystemPackage too, the types its functions take and return.
@_exported import SystemPackage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The retry of an interrupted call and the `-1 → errno` of a raw C call, in one place.
@usableFromInline
package enum SystemCall {
  /// Calls `body`, a C function's call that returns `-1` and sets `errno` when it fails, again
  /// while it fails with `EINTR` (a signal arrived before it could finish).
  /// - Returns: what `body` returned, never `-1`.
  /// - Throws: the `errno` of a failure other than `EINTR`.
  @inlinable
  package static func retryingOnInterrupt<Result: FixedWidthInteger>(_ body: () -> Result) throws(Errno)
    -> Result
  {
    while true {
      let result = body()
      if result != -1 { return result }
      let error = lastError
      if error != .interrupted { throw error }
    }
  }

  /// The `errno` of the last failed call on this thread.
  @inlinable
  package static var lastError: Errno { Errno(rawValue: errno) }

  /// Calls one of swift-system's functions, which throw only `Errno` (their documentation's
  /// "Throws" and their code: every one goes through `valueOrErrno`), with that type made
  /// explicit.
  @inlinable
  package static func typed<Result>(_ body: () throws -> Result) throws(Errno) -> Result {
    do {
      return try body()
    } catch let error as Errno {
      throw error
    } catch {
      preconditionFailure("swift-system threw \(error), not an Errno")
    }
  }

  /// Sleeps for `duration` (`nanosleep`), the rest of it again after a signal.
  package static func sleep(for duration: Duration) {
    let (seconds, attoseconds) = duration.components
    var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
  }
}
