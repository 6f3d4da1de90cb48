import CSwipeDict
import SwipeDict

/// What a user store handle names: a `UserDictionary` (a class that is not `Sendable`: one
/// caller at a time) behind a lock, so that calls from several threads wait for each other
/// instead of racing.
final class UserStoreState: @unchecked Sendable {
  // @unchecked: `store` is used under `lock` only.
  private let lock = Lock()
  private let store: UserDictionary

  init(_ store: UserDictionary) { self.store = store }

  /// Runs `body` on the store, holding the lock; a `UserDictionaryError` becomes a failure.
  func with<R>(_ body: (UserDictionary) throws(UserDictionaryError) -> R) throws(Failure) -> R {
    do throws(UserDictionaryError) {
      return try lock.withLock { () throws(UserDictionaryError) -> R in try body(store) }
    } catch {
      throw Failure(error)
    }
  }

  /// The user store state `handle` names.
  @inline(__always)
  static func named(_ handle: OpaquePointer?) throws(Failure) -> UserStoreState {
    guard handle != nil else { throw .null("store") }
    guard let object = HandleTable.shared.object(handle, kind: .userStore) else { throw .handle("user store") }
    // safe: the table holds only UserStoreState objects under the user store kind.
    return unsafeDowncast(object, to: UserStoreState.self)
  }
}

@_cdecl("swipedict_user_open")
public func swipedictUserOpen(
  _ path: UnsafePointer<CChar>?, _ flags: UInt32, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
  api { () throws(Failure) in
    out?.pointee = nil
    let path = try CText.string(path, "path")
    guard let out else { throw .null("out") }
    let known = SWIPEDICT_USER_NO_CREATE | SWIPEDICT_USER_SYNC
    guard flags & ~known == 0 else {
      throw Failure(SWIPEDICT_E_ARGUMENT, "unknown flags 0x\(String(flags & ~known, radix: 16))")
    }
    let options = UserDictionary.Options(
      synchronizesEachWrite: flags & SWIPEDICT_USER_SYNC != 0, createsIfMissing: flags & SWIPEDICT_USER_NO_CREATE == 0)
    let store: UserDictionary
    do throws(UserDictionaryError) {
      store = try UserDictionary(path: path, options: options)
    } catch {
      throw Failure(error)
    }
    guard let handle = HandleTable.shared.insert(UserStoreState(store), kind: .userStore) else {
      throw Failure(SWIPEDICT_E_LIMIT, "\(HandleTable.capacity) handles are open")
    }
    out.pointee = handle
    return SWIPEDICT_OK
  }
}

@_cdecl("swipedict_user_close")
public func swipedictUserClose(_ store: OpaquePointer?) -> Int32 {
  api { () throws(Failure) in
    guard store != nil else { return SWIPEDICT_OK }
    guard let state = HandleTable.shared.remove(store, kind: .userStore) else { throw .handle("user store") }
    withExtendedLifetime(state) {}  // closed here (its last reference), outside the table's lock
    return SWIPEDICT_OK
  }
}

/// A write of one word: the store, the word checked as UTF-8, then `body`.
private func change(
  _ store: OpaquePointer?, _ word: UnsafePointer<CChar>?,
  _ body: (UserDictionary, String) throws(UserDictionaryError) -> Int32
) -> Int32 {
  api { () throws(Failure) in
    let state = try UserStoreState.named(store)
    let word = try CText.string(word, "word")
    return try state.with { (store) throws(UserDictionaryError) in try body(store, word) }
  }
}

@_cdecl("swipedict_user_add")
public func swipedictUserAdd(_ store: OpaquePointer?, _ word: UnsafePointer<CChar>?, _ uses: Int64) -> Int32 {
  change(store, word) { (store, word) throws(UserDictionaryError) in
    try store.add(word, uses: uses < 0 ? nil : Int(clamping: uses))
    return SWIPEDICT_OK
  }
}

@_cdecl("swipedict_user_learn")
public func swipedictUserLearn(_ store: OpaquePointer?, _ word: UnsafePointer<CChar>?) -> Int32 {
  change(store, word) { (store, word) throws(UserDictionaryError) in
    try store.learn(word)
    return SWIPEDICT_OK
  }
}

@_cdecl("swipedict_user_unlearn")
public func swipedictUserUnlearn(_ store: OpaquePointer?, _ word: UnsafePointer<CChar>?) -> Int32 {
  change(store, word) { (store, word) throws(UserDictionaryError) in
    try store.unlearn(word)
    return SWIPEDICT_OK
  }
}

@_cdecl("swipedict_user_block")
public func swipedictUserBlock(_ store: OpaquePointer?, _ word: UnsafePointer<CChar>?) -> Int32 {
  change(store, word) { (store, word) throws(UserDictionaryError) in
    try store.block(word)
    return SWIPEDICT_OK
  }
}

@_cdecl("swipedict_user_remove")
public func swipedictUserRemove(_ store: OpaquePointer?, _ word: UnsafePointer<CChar>?) -> Int32 {
  change(store, word) { (store, word) throws(UserDictionaryError) in
    try store.remove(word) == nil ? SWIPEDICT_NOT_FOUND : SWIPEDICT_OK
  }
}

@_cdecl("swipedict_user_refresh")
public func swipedictUserRefresh(_ store: OpaquePointer?, _ changed: UnsafeMutablePointer<Int32>?) -> Int32 {
  api { () throws(Failure) in
    let state = try UserStoreState.named(store)
    let didChange = try state.with { (store) throws(UserDictionaryError) in try store.refresh() }
    changed?.pointee = didChange ? 1 : 0
    return SWIPEDICT_OK
  }
}

@_cdecl("swipedict_user_count")
public func swipedictUserCount(_ store: OpaquePointer?, _ count: UnsafeMutablePointer<Int>?) -> Int32 {
  api { () throws(Failure) in
    let state = try UserStoreState.named(store)
    guard let count else { throw .null("count") }
    count.pointee = try state.with { $0.words.count }
    return SWIPEDICT_OK
  }
}

@_cdecl("swipedict_user_entries")
public func swipedictUserEntries(
  _ store: OpaquePointer?, _ out: UnsafeMutablePointer<swipedict_user_entry>?, _ capacity: Int,
  _ count: UnsafeMutablePointer<Int>?
) -> Int32 {
  api { () throws(Failure) in
    let state = try UserStoreState.named(store)
    let output = try Output(out, capacity: capacity, count: count, maximum: .max)
    let words = try state.with { $0.words }
    output.write(words.entries, swipedict_user_entry.init)
    return SWIPEDICT_OK
  }
}

@_cdecl("swipedict_user_get")
public func swipedictUserGet(
  _ store: OpaquePointer?, _ word: UnsafePointer<CChar>?, _ entry: UnsafeMutablePointer<swipedict_user_entry>?
) -> Int32 {
  api { () throws(Failure) in
    let state = try UserStoreState.named(store)
    let word = try CText.string(word, "word")
    guard let entry else { throw .null("entry") }
    // As the store keys its entries: in NFC (a word that cannot be a user word has none).
    guard let normalized = try? UserWordRules.validate(word),
      let found = try state.with({ $0.words.entry(for: normalized) })
    else { return SWIPEDICT_NOT_FOUND }
    entry.pointee = swipedict_user_entry(found)
    return SWIPEDICT_OK
  }
}

@_cdecl("swipedict_user_is_read_only")
public func swipedictUserIsReadOnly(_ store: OpaquePointer?, _ readOnly: UnsafeMutablePointer<Int32>?) -> Int32 {
  api { () throws(Failure) in
    let state = try UserStoreState.named(store)
    guard let readOnly else { throw .null("read_only") }
    readOnly.pointee = try state.with { $0.isReadOnly } ? 1 : 0
    return SWIPEDICT_OK
  }
}

@_cdecl("swipedict_use_user_words")
public func swipedictUseUserWords(_ dict: OpaquePointer?, _ store: OpaquePointer?) -> Int32 {
  api { () throws(Failure) in
    let state = try DictionaryState.named(dict)
    let words =
      try store.map { (store) throws(Failure) in try UserStoreState.named(store).with { $0.words } } ?? UserWords()
    var dictionary = state.dictionary
    dictionary.userWords = words
    guard let old = HandleTable.shared.replace(dict, kind: .dictionary, with: DictionaryState(dictionary)) else {
      throw .handle("dictionary")  // closed meanwhile
    }
    withExtendedLifetime(old) {}  // let go of here, outside the table's lock
    return SWIPEDICT_OK
  }
}
