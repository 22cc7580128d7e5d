import ChildProcess
import TestTiming
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An S3-compatible server of a test's own: moto's server mode on 127.0.0.1 (a port the kernel
/// picks), filled with the test's buckets and objects, with request authentication on: a request
/// must carry a valid Signature Version 4 of `credentials` (or `temporaryCredentials`) or it gets
/// 403. Run by the Python of `.venv-test` (`Scripts/test-venv.sh`, which `make test` runs) through
/// `s3_test_server.py` beside this file; stopped when the test is done (`stop()`, or at deinit).
///
/// `@unchecked Sendable`: one test owns it; the process handle is only cleared by `stop()`.
public final class S3TestServer: @unchecked Sendable {
    /// A bucket to create and what to put in it.
    public struct Bucket: Sendable {
        public var name: String
        /// Whether it keeps versions (objects put twice under one key get two version ids).
        public var versioned: Bool
        /// Keys and bytes, put in this order.
        public var objects: [(key: String, data: Data)]

        public init(_ name: String, versioned: Bool = false, objects: [(key: String, data: Data)]) {
            self.name = name
            self.versioned = versioned
            self.objects = objects
        }
    }

    /// Access key id, secret and session token (nil for a long-term key).
    public struct Credentials: Sendable {
        public let accessKeyID: String
        public let secretAccessKey: String
        public let sessionToken: String?

        public init(accessKeyID: String, secretAccessKey: String, sessionToken: String?) {
            self.accessKeyID = accessKeyID
            self.secretAccessKey = secretAccessKey
            self.sessionToken = sessionToken
        }
    }

    /// Why the server could not be started.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The port it listens on.
    public let port: Int
    /// An IAM user's access key, allowed s3:*.
    public let credentials: Credentials
    /// Temporary credentials of a role allowed s3:* (with a session token).
    public let temporaryCredentials: Credentials
    /// The version ids of each `BUCKET/KEY`, oldest first (nil entries in unversioned buckets).
    public let versions: [String: [String?]]
    private var process: ChildProcess?
    private let folder: String

    /// `http://127.0.0.1:PORT`.
    public var endpoint: String { "http://127.0.0.1:\(port)" }

    /// The Python with moto and botocore: `VIGNETTE_TEST_PYTHON`, else the repository's
    /// `.venv-test/bin/python`; nil when neither is there (the tests that need it are skipped).
    public static var python: String? {
        if let named = ProcessInfo.processInfo.environment["VIGNETTE_TEST_PYTHON"], !named.isEmpty,
            access(named, X_OK) == 0
        {
            return named
        }
        let venv = repositoryRoot + "/.venv-test/bin/python"
        return access(venv, X_OK) == 0 ? venv : nil
    }

    /// Why the tests that need Python are skipped when `python` is nil.
    public static let skipReason = "needs the Python of .venv-test with moto and botocore (Scripts/test-venv.sh; make test makes it)"

    /// The repository's root folder.
    public static var repositoryRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }

    /// Starts a server with `buckets` and waits until it is filled and ready (up to 2 minutes on a
    /// loaded machine, times `testTimeScale` under a sanitizer: moto imports a lot).
    public static func start(buckets: [Bucket]) async throws -> S3TestServer {
        guard let python else { throw Failure(description: "\(skipReason)") }
        let folder = NSTemporaryDirectory() + "vignette-s3-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var spec: [[String: Any]] = []
        var written = 0
        for bucket in buckets {
            var objects: [[String: String]] = []
            for object in bucket.objects {
                written += 1
                let file = folder + "/object-\(written)"
                try object.data.write(to: URL(fileURLWithPath: file))
                objects.append(["key": object.key, "file": file])
            }
            spec.append(["name": bucket.name, "versioned": bucket.versioned, "objects": objects])
        }
        let specFile = folder + "/spec.json"
        try JSONSerialization.data(withJSONObject: ["buckets": spec]).write(to: URL(fileURLWithPath: specFile))
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("s3_test_server.py").path
        let process: ChildProcess
        do {
            process = try ChildProcess(python, [script, specFile], killAfter: .seconds(86_400))
        } catch {
            throw Failure(description: "\(error)")
        }
        guard let line = await process.line(inStandardErrorStartingWith: "ready ", timeout: .seconds(Int(120 * testTimeScale))),
            let ready = try? JSONSerialization.jsonObject(with: Data(line.dropFirst("ready ".count).utf8)) as? [String: Any],
            let port = ready["port"] as? Int, let id = ready["accessKeyID"] as? String,
            let secret = ready["secretAccessKey"] as? String, let temporary = ready["temporary"] as? [String: String],
            let temporaryID = temporary["accessKeyID"], let temporarySecret = temporary["secretAccessKey"],
            let token = temporary["sessionToken"]
        else {
            process.send(SIGKILL)
            let result = await process.result()
            throw Failure(description: "moto's server did not start: \(result.standardError.suffix(2000))")
        }
        let versions = (ready["versions"] as? [String: [Any]] ?? [:]).mapValues { $0.map { $0 as? String } }
        return S3TestServer(
            port: port, credentials: Credentials(accessKeyID: id, secretAccessKey: secret, sessionToken: nil),
            temporaryCredentials: Credentials(accessKeyID: temporaryID, secretAccessKey: temporarySecret, sessionToken: token),
            versions: versions, process: process, folder: folder)
    }

    private init(port: Int, credentials: Credentials, temporaryCredentials: Credentials, versions: [String: [String?]],
                 process: ChildProcess, folder: String) {
        self.port = port
        self.credentials = credentials
        self.temporaryCredentials = temporaryCredentials
        self.versions = versions
        self.process = process
        self.folder = folder
    }

    deinit { stop() }

    /// Stops the server (SIGTERM, then SIGKILL after 5 s), waits for it, removes its files.
    public func stop() {
        guard let process else { return }
        self.process = nil
        process.send(SIGTERM)
        if process.waitForExit(timeout: .seconds(5)) == nil {
            process.send(SIGKILL)
            _ = process.waitForExit(timeout: .seconds(10))
        }
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// The environment variables of `credentials` (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
    /// AWS_SESSION_TOKEN when there is one) and AWS_REGION us-east-1.
    public static func environment(_ credentials: Credentials) -> [String: String] {
        var environment = [
            "AWS_ACCESS_KEY_ID": credentials.accessKeyID, "AWS_SECRET_ACCESS_KEY": credentials.secretAccessKey,
            "AWS_REGION": "us-east-1",
        ]
        if let token = credentials.sessionToken { environment["AWS_SESSION_TOKEN"] = token }
        return environment
    }
}
