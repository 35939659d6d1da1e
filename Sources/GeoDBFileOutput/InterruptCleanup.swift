// Removes an import's temporary files when the process is interrupted (Ctrl-C, SIGTERM).
import Foundation

/// Holds the temporary paths of the running import; a signal handler unlinks them and exits.
/// Only async-signal-safe calls (unlink, _exit) run in the handler, on paths copied ahead of time into
/// storage the handler reads without Swift reference counting.
public enum InterruptCleanup {
    /// How many paths fit (a constant the handler can read): `TemporaryOutput.files` of one output.
    private static let slots = 8
    nonisolated(unsafe) private static let paths: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let paths = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: slots)
        paths.initialize(repeating: nil, count: slots)
        return paths
    }()
    nonisolated(unsafe) private static var installed = false

    /// Installs handlers for SIGINT, SIGTERM and SIGHUP; call once from a command-line program.
    public static func install() {
        guard !installed else { return }
        installed = true
        _ = paths   // initialized here, not in the handler
        // A parent may start us with these signals blocked (some process launchers do): unblock them.
        var set = sigset_t()
        sigemptyset(&set)
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&set, signalNumber) }
        sigprocmask(SIG_UNBLOCK, &set, nil)
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            signal(signalNumber) { number in
                for i in 0..<InterruptCleanup.slots { if let path = InterruptCleanup.paths[i] { unlink(path) } }
                _exit(128 + number)
            }
        }
    }

    package static func register(_ files: [String]) {
        unregister()
        precondition(files.count <= slots)
        for (i, file) in files.enumerated() { paths[i] = strdup(file) }
    }

    package static func unregister() {
        for i in 0..<slots {
            let old = paths[i]
            paths[i] = nil
            free(old)
        }
    }
}
