/// Vignette's version: the one place it is written. `vignette --version` prints it,
/// Scripts/release.sh refuses to tag another, and CHANGELOG.md's newest released heading names it
/// (a test in VignetteCLITests checks both). Semantic versioning, from 0.x.
package enum VignetteVersion {
    /// The version of this source tree, `major.minor.patch`.
    package static let current = "0.4.0"
}
