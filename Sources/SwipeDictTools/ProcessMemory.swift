import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// What the process's memory looks like to the kernel, from `/proc/self/smaps` (Linux): the
/// resident and private dirty kB of the mappings of one file, and the private dirty kB of the
/// anonymous mappings (heap). A keyboard extension is charged for dirty memory, not for clean
/// mapped pages, so these are the figures the memory tests and `swipedict bench` report.
package struct ProcessMemory: Sendable, Hashable {
  /// Resident kB of the file's mappings.
  package var mappedResident: Int
  /// Private dirty kB of the file's mappings (0 for a read-only mapping nobody wrote).
  package var mappedDirty: Int
  /// Private dirty kB of anonymous mappings and the heap.
  package var anonymousDirty: Int
  /// Whether the file is mapped at all.
  package var isMapped: Bool

  /// The figures for the mappings of `path` now, or `nil` where `/proc/self/smaps` does not
  /// exist (not Linux).
  /// - Parameter path: the mapped file (made absolute and standardized before matching).
  package static func current(mappingsOf path: String) -> ProcessMemory? {
    // /proc files report a size of 0: read them to the end.
    guard let handle = FileHandle(forReadingAtPath: "/proc/self/smaps") else { return nil }
    defer { try? handle.close() }
    let text = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
    return parse(smaps: text, mappingsOf: URL(fileURLWithPath: path).standardizedFileURL.path)
  }

  /// Parses the text of an smaps file.
  /// - Parameters:
  ///   - smaps: the text.
  ///   - path: the absolute path of the file whose mappings to add up.
  package static func parse(smaps: String, mappingsOf path: String) -> ProcessMemory {
    var memory = ProcessMemory(mappedResident: 0, mappedDirty: 0, anonymousDirty: 0, isMapped: false)
    var kind = 0  // 1: the file, 2: anonymous or heap, 0: anything else
    for line in smaps.split(separator: "\n") {
      let fields = line.split(separator: " ", omittingEmptySubsequences: true)
      if let first = fields.first, first.contains("-"), first.first?.isHexDigit == true {
        // A mapping's header line: range, permissions, offset, device, inode[, path].
        if line.hasSuffix(path) {
          kind = 1
          memory.isMapped = true
        } else {
          kind = fields.count < 6 || fields[5] == "[heap]" ? 2 : 0
        }
      } else if fields.count >= 2, let kB = Int(fields[1]) {
        if kind == 1 && fields[0] == "Rss:" { memory.mappedResident += kB }
        if kind == 1 && fields[0] == "Private_Dirty:" { memory.mappedDirty += kB }
        if kind == 2 && fields[0] == "Private_Dirty:" { memory.anonymousDirty += kB }
      }
    }
    return memory
  }
}

extension ProcessMemory {
  /// Makes the allocator give every block of 1 MiB or more its own mapping, returned to the
  /// system when freed (glibc; a no-op elsewhere, where large blocks are returned already).
  ///
  /// A build frees large arrays stage by stage. glibc raises its mapping threshold to the
  /// size of each mapped block freed (up to 32 MiB), so later arrays came from the heap and
  /// stayed resident after they were freed: the build's peak was the stages' sum rather than
  /// their largest. With the threshold fixed, `swipedict build` of de peaks at 71 MB instead
  /// of 83 in the same time (bench/README.md, "Build memory").
  package static func returnLargeBlocksWhenFreed() {
    #if canImport(Glibc)
      // mallopt is glibc's (malloc.h, which Swift's Glibc module does not export): looked up
      // by name, so a C library without it is left alone.
      typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
      let mmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD in glibc's malloc.h
      guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
      _ = unsafeBitCast(symbol, to: Mallopt.self)(mmapThreshold, 1 << 20)
    #endif
  }
}
