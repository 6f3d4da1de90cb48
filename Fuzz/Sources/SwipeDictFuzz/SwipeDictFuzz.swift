/// libFuzzer entry point: any bytes, through `fuzzExercise` (FuzzExercise.swift, shared with
/// the corpus replay test) and through the C API's entry points (`fuzzCAPI`, FuzzCAPI.swift;
/// Tests/CAPI/capi_test.c replays the corpus through the C library). A crash, a sanitizer
/// report or a hang (-timeout) is a loader bug.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let input = Array(UnsafeBufferPointer(start: data, count: size))
  fuzzExercise(input)
  fuzzCAPI(input)
  return 0
}

/// SwiftPM's entry point for this executable: hands control to libFuzzer's driver.
@_cdecl("SwipeDictFuzz_main")
public func fuzzMain(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
  var count = argc
  var arguments = argv
  return LLVMFuzzerRunDriver(&count, &arguments) { data, size in
    fuzzOneInput(data!, size)
  }
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt
