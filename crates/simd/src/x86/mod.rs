//! The byte vectors of x86-64, one module per instruction set, and the
//! CPU's features: the only place where the workspace calls `std::arch`.

pub mod avx2;
pub mod sse2;

/// Whether the CPU has what [`crate::Avx2`] promises: AVX2, BMI1, BMI2,
/// LZCNT and POPCNT.
pub(crate) fn has_avx2_set() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
        && std::arch::is_x86_feature_detected!("lzcnt")
        && std::arch::is_x86_feature_detected!("popcnt")
}

/// [`crate::missing_compiled_features`]: the x86-64-v2 to v4 levels'
/// features that matter to compiled code.
pub(crate) fn missing_compiled_features() -> Vec<&'static str> {
    let mut missing = Vec::new();
    macro_rules! check {
        ($($feature:tt),*) => {$(
            if cfg!(target_feature = $feature) && !std::arch::is_x86_feature_detected!($feature) {
                missing.push($feature);
            }
        )*};
    }
    check!(
        "sse3", "ssse3", "sse4.1", "sse4.2", "popcnt", "avx", "avx2", "bmi1", "bmi2", "fma",
        "lzcnt", "movbe", "f16c", "avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"
    );
    missing
}
