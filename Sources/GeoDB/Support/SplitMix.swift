// A small deterministic random generator (SplitMix64) for tests and benchmarks: the same seed gives the
// same points and queries on every run and machine, so failures reproduce and runs compare.

/// SplitMix64 (Steele, Lea and Flood); package-level: tests and geodb-bench use it, apps do not.
package struct SplitMix: RandomNumberGenerator {
    private var state: UInt64

    package init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
