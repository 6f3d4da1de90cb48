/// MurmurHash3's 64-bit finalizer: every input bit moves about half the output bits, high
/// and low. The build's hash tables finish their multiplicative hashes with it before they
/// split a hash into a slot index and a tag (a multiply alone leaves the low bits to depend
/// on the input's low bits only).
func murmurFinalized(_ h: UInt64) -> UInt64 {
  var h = (h ^ (h >> 33)) &* 0xFF51_AFD7_ED55_8CCD
  h = (h ^ (h >> 33)) &* 0xC4CE_B9FE_1A85_EC53
  return h ^ (h >> 33)
}
