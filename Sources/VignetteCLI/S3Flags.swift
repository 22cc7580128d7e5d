import ArgumentParser
import VignetteHTTP

/// `--s3-endpoint` of the commands that read inputs: where `s3://` inputs are read. The
/// credentials come from the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
/// AWS_SESSION_TOKEN, AWS_REGION), never from a flag (a flag shows in `ps`).
struct S3Flags: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Read s3://BUCKET/KEY inputs from this S3-compatible endpoint, path-style (MinIO, Ceph, R2; https://storage.googleapis.com reads gs:// too), instead of AWS S3 (env VIGNETTE_S3_ENDPOINT). Credentials: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN; region AWS_REGION (default us-east-1).",
        valueName: "URL"))
    var s3Endpoint: String?

    func validate() throws {
        _ = try configuration()
    }

    /// The S3 configuration of the environment and the flag; nil without credentials (s3 inputs
    /// then fail, each with a line saying what is missing).
    func configuration() throws -> S3Configuration? {
        do {
            return try S3Configuration.fromEnvironment(endpoint: s3Endpoint, ServeCommand.environment)
        } catch {
            throw ValidationError("--s3-endpoint: \(error.description)")
        }
    }
}
