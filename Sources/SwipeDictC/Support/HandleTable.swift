#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Android)
  import Android
#elseif canImport(Darwin)
  import Darwin
#endif

/// A pthread mutex: the lock of the handle table and of each session and user store. (The
/// standard library's `Mutex` needs iOS 18; pthread's is there on every platform the C API
/// targets, Android included.)
final class Lock: @unchecked Sendable {
  // @unchecked: the mutex is the synchronization; it is allocated once and never moves.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>

  init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Runs `body` holding the lock.
  @inline(__always)
  func withLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }
}

/// What a handle names.
enum HandleKind: UInt8 {
  case dictionary = 1
  case session
  case userStore
}

/// The objects behind the C API's handles: a handle is never a pointer to a Swift object but
/// an index into this table and the generation of that slot, so that a handle used after its
/// release (or twice released, or forged) finds a newer generation or an empty slot and is
/// refused with `SWIPEDICT_E_HANDLE`, never dereferenced.
///
/// A handle's bits: the slot's index plus one in the low ``indexBits`` (so no handle is
/// NULL), its generation above. A slot's generation grows by one at each release and wraps
/// within the bits left (2^44 releases of one slot on 64-bit systems, 2^20 on 32-bit ones):
/// only then could a stale handle name a newer object.
///
/// One lock guards the table; a lookup holds it for a few loads and one retain, so a call
/// never waits for another call's work. An object looked up stays alive while the call uses
/// it even if another thread releases its handle meanwhile: the release empties the slot,
/// and the object goes when its last user lets go.
final class HandleTable: @unchecked Sendable {
  // @unchecked: every stored property below is read and written under `lock` only.
  private struct Slot {
    var generation: UInt
    var kind: HandleKind?
    var object: AnyObject?
  }

  /// Bits of a handle for the slot index: a million slots on 64-bit systems, 4,095 on 32-bit.
  static let indexBits = UInt.bitWidth == 64 ? 20 : 12
  /// How many handles may be open at once.
  static let capacity = (1 << indexBits) - 1
  private static let indexMask = UInt(1) << UInt(indexBits) - 1
  private static let generationMask = UInt.max >> UInt(indexBits)

  private let lock = Lock()
  // Unchecked: the lock makes the accesses exclusive, so the runtime's exclusivity checks on
  // these class properties (two calls into the runtime per lookup) prove nothing.
  @exclusivity(unchecked) private var slots: [Slot] = []
  @exclusivity(unchecked) private var free: [Int] = []

  /// The table of this process.
  static let shared = HandleTable()

  /// Puts `object` in a slot and returns its handle, or `nil` when the table is full.
  func insert(_ object: AnyObject, kind: HandleKind) -> OpaquePointer? {
    lock.withLock {
      let index: Int
      if let reused = free.popLast() {
        index = reused
      } else {
        guard slots.count < Self.capacity else { return nil }
        slots.append(Slot(generation: 1, kind: nil, object: nil))
        index = slots.count - 1
      }
      slots[index].kind = kind
      slots[index].object = object
      return OpaquePointer(bitPattern: Self.handle(index: index, generation: slots[index].generation))
    }
  }

  /// The object `handle` names, if it is an open handle of `kind`.
  @inline(__always)
  func object(_ handle: OpaquePointer?, kind: HandleKind) -> AnyObject? {
    guard let (index, generation) = Self.decode(handle) else { return nil }
    return lock.withLock {
      guard index < slots.count, slots[index].generation == generation, slots[index].kind == kind else { return nil }
      return slots[index].object
    }
  }

  /// Puts `object` in the place of the object `handle` names (same handle), if it is an open
  /// handle of `kind`. Returns the object replaced, for the caller to let go of outside the lock.
  func replace(_ handle: OpaquePointer?, kind: HandleKind, with object: AnyObject) -> AnyObject? {
    guard let (index, generation) = Self.decode(handle) else { return nil }
    return lock.withLock {
      guard index < slots.count, slots[index].generation == generation, slots[index].kind == kind else { return nil }
      let old = slots[index].object
      slots[index].object = object
      return old
    }
  }

  /// Releases `handle`: its slot is emptied and its generation moves on. Returns the object
  /// it named (for the caller to let go of outside the lock), or `nil` when it was not an
  /// open handle of `kind`.
  func remove(_ handle: OpaquePointer?, kind: HandleKind) -> AnyObject? {
    guard let (index, generation) = Self.decode(handle) else { return nil }
    return lock.withLock {
      guard index < slots.count, slots[index].generation == generation, slots[index].kind == kind else { return nil }
      let object = slots[index].object
      slots[index].object = nil
      slots[index].kind = nil
      // Wraps within the generation's bits; 0 is skipped so that no handle has an all-zero
      // generation (harmless, but it keeps stale handles of a fresh slot distinct).
      let next = (generation &+ 1) & Self.generationMask
      slots[index].generation = next == 0 ? 1 : next
      free.append(index)
      return object
    }
  }

  private static func handle(index: Int, generation: UInt) -> UInt {
    // safe: index < capacity < 2^indexBits, generation ≤ generationMask.
    (generation << UInt(indexBits)) | UInt(index + 1)
  }

  @inline(__always)
  private static func decode(_ handle: OpaquePointer?) -> (index: Int, generation: UInt)? {
    guard let handle else { return nil }
    let bits = UInt(bitPattern: handle)
    let slot = bits & indexMask
    guard slot != 0 else { return nil }
    return (Int(slot - 1), bits >> UInt(indexBits))
  }
}
